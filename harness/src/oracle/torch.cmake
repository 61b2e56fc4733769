# torch.cmake - opforge_oracle: ATen's CPU kernels (Debian libtorch-dev) behind
# harness/include/opforge/harness/oracle.h. Torch headers and libraries are
# private to this library; it is skipped when libtorch is not installed.
find_path(OPFORGE_ATEN_INCLUDE_DIR ATen/core/dispatch/Dispatcher.h)
find_library(OPFORGE_TORCH_CPU_LIBRARY torch_cpu)
find_library(OPFORGE_C10_LIBRARY c10)
file(GLOB ORACLE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
# loader.cpp is torch-free (in opforge_harness); plugin.cpp is the module's entry point.
list(FILTER ORACLE_SOURCES EXCLUDE REGEX "/(loader|plugin)\\.cpp$")
if(OPFORGE_ATEN_INCLUDE_DIR AND OPFORGE_TORCH_CPU_LIBRARY AND OPFORGE_C10_LIBRARY AND ORACLE_SOURCES)
  opforge_library(oracle
    SOURCES ${ORACLE_SOURCES}
    DEPS opforge::harness
    PRIVATE_DEPS ${OPFORGE_TORCH_CPU_LIBRARY} ${OPFORGE_C10_LIBRARY})
  target_include_directories(opforge_oracle SYSTEM PRIVATE
    ${OPFORGE_ATEN_INCLUDE_DIR} ${OPFORGE_ATEN_INCLUDE_DIR}/torch/csrc/api/include)
  target_compile_definitions(opforge_oracle PRIVATE _GLIBCXX_USE_CXX11_ABI=1)
  # The module `opforge` dlopens (libopforge_oracle_plugin.so beside the executable):
  # it carries its own copies of opforge_support/harness/oracle, so those are PIC.
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/plugin.cpp)
    set_target_properties(opforge_oracle opforge_harness opforge_support PROPERTIES
      POSITION_INDEPENDENT_CODE ON)
    add_library(opforge_oracle_plugin MODULE ${CMAKE_CURRENT_LIST_DIR}/plugin.cpp)
    target_link_libraries(opforge_oracle_plugin PRIVATE opforge::oracle opforge::harness)
    set_target_properties(opforge_oracle_plugin PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
    opforge_warnings(opforge_oracle_plugin)
  endif()
else()
  message(STATUS "opforge: libtorch not found, opforge_oracle is not built")
endif()
