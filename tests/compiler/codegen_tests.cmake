# codegen_tests.cmake - tests of the code generator (lower_*, codegen_*) and of
# kernels on the chip model (chip_*, diff_*); included by CMakeLists.txt here.
file(GLOB CODEGEN_TEST_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/lower_*_test.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/codegen_*_test.cpp)
if(CODEGEN_TEST_SOURCES AND TARGET opforge_codegen)
  opforge_test(codegen_tests SOURCES ${CODEGEN_TEST_SOURCES} DEPS opforge::codegen LABELS compiler codegen)
  find_program(RISCV_AS riscv64-unknown-elf-as)
  if(RISCV_AS)
    target_compile_definitions(codegen_tests PRIVATE RISCV_AS="${RISCV_AS}")
  endif()
endif()
file(GLOB CHIP_TEST_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/chip_*_test.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/diff_*_test.cpp)
if(CHIP_TEST_SOURCES AND TARGET opforge_chip_runtime)
  opforge_test(chip_kernel_tests SOURCES ${CHIP_TEST_SOURCES} DEPS opforge::chip_runtime LABELS compiler chip)
endif()
