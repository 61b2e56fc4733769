# OpforgeHelpers.cmake - shared build settings and helpers for opforge targets.

# Warnings (and -Werror) for opforge's own code only, never for dependencies.
function(opforge_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(OPFORGE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(OPFORGE_SANITIZE)
    # GCC 12 reports false maybe-uninitialized warnings inside libstdc++ (<regex>,
    # std::function) once ASan instruments it.
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
      -Wno-maybe-uninitialized)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

# opforge_library(NAME SOURCES ... DEPS ...): library opforge_<NAME> built from
# <folder>/src, public headers in <folder>/include.
function(opforge_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(opforge_${name} STATIC ${ARG_SOURCES})
  add_library(opforge::${name} ALIAS opforge_${name})
  target_include_directories(opforge_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(opforge_${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  opforge_warnings(opforge_${name})
endfunction()

# opforge_test(NAME SOURCES ... DEPS ... [LABELS ...]): a GoogleTest binary
# registered with ctest per test case (gtest_discover_tests).
#
# A test binary whose name matches OPFORGE_FAST_TESTS also gets the label `fast`
# and joins the `fast_tests` target: the subset `make test-asan` builds with the
# asan preset and runs (no torch, no LLVM code generation, no chip runs).
set(OPFORGE_FAST_TESTS
  "^(support_tests|compiler_tests|isa_(tables|asm|disasm|elf|iss)_tests|model_unit_tests|fuzz_.*_replay)$")
if(NOT TARGET fast_tests)
  add_custom_target(fast_tests)
endif()
function(opforge_fast_test name)
  if(name MATCHES "${OPFORGE_FAST_TESTS}")
    add_dependencies(fast_tests ${name})
    set(${ARGV1} fast PARENT_SCOPE)
  endif()
endfunction()

# Test code is glue around the libraries (built -O2): it is compiled -O1 against
# one precompiled header (tests/test_pch.h: GoogleTest, nlohmann/json and the
# standard library), built once by opforge_test_pch and reused by every test
# binary. On five test files that took 60 s to compile at -O2 without it, 39 s.
# GCC 12 at -O1 reports false array-bounds/stringop/restrict warnings inside
# libstdc++'s std::string (GCC PR 105329, 105651); the libraries keep them.
function(opforge_test_flags target)
  target_compile_options(${target} PRIVATE -O1)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-array-bounds -Wno-stringop-overflow -Wno-restrict)
  endif()
endfunction()
if(NOT TARGET opforge_test_pch)
  add_library(opforge_test_pch OBJECT ${PROJECT_SOURCE_DIR}/tests/test_pch.cpp)
  target_link_libraries(opforge_test_pch PRIVATE GTest::gtest nlohmann_json::nlohmann_json)
  opforge_test_flags(opforge_test_pch)
  opforge_warnings(opforge_test_pch)
  target_precompile_headers(opforge_test_pch PRIVATE
    "$<$<COMPILE_LANGUAGE:CXX>:${PROJECT_SOURCE_DIR}/tests/test_pch.h>")
  # ccache hashes the .gch a test file includes, and GCC's .gch differs byte-wise between two
  # builds of the same header: in a fresh clone no test file would hit the cache. ccache's
  # pch_external_checksum (set in the launcher) hashes <gch>.sum instead, written here by
  # cmake/pch_checksum.cmake from the compiler, the flags and the preprocessed header.
  set(_pch_dir ${PROJECT_BINARY_DIR}/CMakeFiles/opforge_test_pch.dir)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _pch_config)
  set(_pch_defs "$<TARGET_PROPERTY:GTest::gtest,INTERFACE_COMPILE_DEFINITIONS>")
  add_custom_command(OUTPUT ${_pch_dir}/cmake_pch.hxx.gch.sum
    COMMAND ${CMAKE_COMMAND} -DCOMPILER=${CMAKE_CXX_COMPILER}
      "-DFLAGS=${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_pch_config}} -std=c++${CMAKE_CXX_STANDARD} $<JOIN:$<TARGET_PROPERTY:opforge_test_pch,COMPILE_OPTIONS>, > $<$<BOOL:${_pch_defs}>:-D$<JOIN:${_pch_defs}, -D>>"
      -DHEADER=${_pch_dir}/cmake_pch.hxx -DOUT=${_pch_dir}/cmake_pch.hxx.gch.sum
      -P ${PROJECT_SOURCE_DIR}/cmake/pch_checksum.cmake
    DEPENDS ${_pch_dir}/cmake_pch.hxx.gch ${PROJECT_SOURCE_DIR}/cmake/pch_checksum.cmake
    COMMENT "Checksum of the tests' precompiled header (for ccache)" VERBATIM)
  add_custom_target(opforge_test_pch_sum DEPENDS ${_pch_dir}/cmake_pch.hxx.gch.sum)
  add_dependencies(opforge_test_pch_sum opforge_test_pch)
endif()

function(opforge_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  opforge_fast_test(${name} fast_label)
  if(fast_label)
    list(APPEND ARG_LABELS fast)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main Threads::Threads)
  target_compile_definitions(${name} PRIVATE
    OPFORGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    OPFORGE_BINARY_DIR="${PROJECT_BINARY_DIR}")
  opforge_test_flags(${name})
  target_precompile_headers(${name} REUSE_FROM opforge_test_pch)
  add_dependencies(${name} opforge_test_pch_sum)
  opforge_warnings(${name})
  include(GoogleTest)
  gtest_discover_tests(${name}
    WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
    PROPERTIES LABELS "${ARG_LABELS}"
    DISCOVERY_TIMEOUT 60)
  # gtest_discover_tests (CMake 3.25) flattens PROPERTIES, so a test got only its
  # first label. A CTest include file that runs after the discovered tests are
  # added sets the whole list on every test of this binary.
  list(LENGTH ARG_LABELS n_labels)
  if(n_labels GREATER 1)
    set(tests_file "${CMAKE_CURRENT_BINARY_DIR}/${name}[1]_tests.cmake")
    set(labels_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake")
    file(WRITE "${labels_file}"
      "if(EXISTS [==[${tests_file}]==])\n"
      "  file(STRINGS [==[${tests_file}]==] lines REGEX [==[^add_test\\(\\[=\\[]==])\n"
      "  set(names)\n"
      "  foreach(line IN LISTS lines)\n"
      "    string(REGEX REPLACE [==[^add_test\\(\\[=\\[([^]]*)\\]=\\].*$]==] [==[\\1]==] test \"\${line}\")\n"
      "    list(APPEND names \"\${test}\")\n"
      "  endforeach()\n"
      "  if(names)\n"
      "    set_tests_properties(\${names} PROPERTIES LABELS [==[${ARG_LABELS}]==])\n"
      "  endif()\n"
      "endif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels_file}")
  endif()
endfunction()
