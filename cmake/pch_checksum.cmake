# pch_checksum.cmake - writes the checksum ccache hashes instead of a precompiled header.
#
#   cmake -DCOMPILER=c++ -DFLAGS="..." -DHEADER=cmake_pch.hxx -DOUT=cmake_pch.hxx.gch.sum -P pch_checksum.cmake
#
# GCC's .gch differs byte-wise between two builds of the same header with the same flags, and
# ccache hashes the .gch a translation unit includes: after the PCH is rebuilt (every fresh
# clone, every CI run), no test translation unit would hit the cache. With ccache's
# pch_external_checksum, ccache hashes <gch>.sum instead. This file writes it: the SHA-256 of
# the compiler's version, the flags, and the header preprocessed with those flags (every
# header it pulls in, with the macros the flags define), so it changes exactly when the
# precompiled header's meaning can.
separate_arguments(flag_list UNIX_COMMAND "${FLAGS}")
execute_process(COMMAND ${COMPILER} --version OUTPUT_VARIABLE version RESULT_VARIABLE rc1)
execute_process(COMMAND ${COMPILER} ${flag_list} -E -P -include ${HEADER} -x c++ /dev/null
  OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "pch_checksum: preprocessing ${HEADER} failed: ${err}")
endif()
string(SHA256 sum "${version}\n${FLAGS}\n${text}")
# Written only when it changes, so an unchanged checksum keeps its timestamp.
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${sum}\n")
  file(WRITE "${OUT}" "${sum}\n")
endif()
