# OpforgeHelpers.cmake - shared build settings and helpers for opforge targets.

# Warnings (and -Werror) for opforge's own code only, never for dependencies.
function(opforge_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(OPFORGE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(OPFORGE_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer)
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
function(opforge_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main Threads::Threads)
  target_compile_definitions(${name} PRIVATE
    OPFORGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    OPFORGE_BINARY_DIR="${PROJECT_BINARY_DIR}")
  opforge_warnings(${name})
  include(GoogleTest)
  gtest_discover_tests(${name}
    WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
    PROPERTIES LABELS "${ARG_LABELS}"
    DISCOVERY_TIMEOUT 60)
endfunction()
