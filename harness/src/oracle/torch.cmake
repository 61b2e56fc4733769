# torch.cmake - opforge_oracle: ATen's CPU kernels (libtorch of the project venv's
# torch wheel, requirements.txt) behind harness/include/opforge/harness/oracle.h.
# Torch headers and libraries are private to this library; it is skipped when the
# venv has no torch.
#
# The wheel's headers and libraries are used directly rather than through its
# TorchConfig.cmake: the PyPI wheel is a CUDA build whose CMake package looks for a
# CUDA toolkit and links CUDA libraries (nvrtc, c10_cuda); the oracle needs ATen's
# CPU kernels only (libtorch_cpu, libc10). NO_DEFAULT_PATH keeps any system libtorch out.
set(_torch_lib_dir "${OPFORGE_TORCH_DIR}/lib")
# A build directory configured before the move to the wheel caches the system libtorch's
# paths; find_* keeps a cached hit, so drop any that lies outside the venv's torch.
foreach(_var OPFORGE_ATEN_INCLUDE_DIR OPFORGE_TORCH_CPU_LIBRARY OPFORGE_C10_LIBRARY)
  string(FIND "${${_var}}" "${OPFORGE_TORCH_DIR}/" _at)
  if(${_var} AND (NOT OPFORGE_TORCH_DIR OR NOT _at EQUAL 0))
    unset(${_var} CACHE)
  endif()
endforeach()
find_path(OPFORGE_ATEN_INCLUDE_DIR ATen/core/dispatch/Dispatcher.h
  PATHS "${OPFORGE_TORCH_DIR}/include" NO_DEFAULT_PATH)
find_library(OPFORGE_TORCH_CPU_LIBRARY torch_cpu PATHS "${_torch_lib_dir}" NO_DEFAULT_PATH)
find_library(OPFORGE_C10_LIBRARY c10 PATHS "${_torch_lib_dir}" NO_DEFAULT_PATH)
file(GLOB ORACLE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
# loader.cpp is torch-free (in opforge_harness); plugin.cpp is the module's entry point.
list(FILTER ORACLE_SOURCES EXCLUDE REGEX "/(loader|plugin)\\.cpp$")
if(OPFORGE_TORCH_DIR AND OPFORGE_ATEN_INCLUDE_DIR AND OPFORGE_TORCH_CPU_LIBRARY
   AND OPFORGE_C10_LIBRARY AND ORACLE_SOURCES)
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
    # The wheel's lib/ holds libtorch_cpu's own dependencies (libgomp, ...).
    set_target_properties(opforge_oracle_plugin PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
      BUILD_RPATH "${_torch_lib_dir}")
    opforge_warnings(opforge_oracle_plugin)
  endif()
else()
  message(STATUS "opforge: no torch in the project venv (${OPFORGE_VENV}), "
    "opforge_oracle is not built; ${OPFORGE_VENV_HINT}")
endif()
