# SLUICE_PREBUILT_DIR: build the Python extension (and a wheel) around a
# runtime, compiler library and tools built elsewhere, for a machine with
# another Python and no LLVM (bench/run-gpu.sh wheel-device). The directory
# holds lib/libsluice-runtime.so, lib/libsluice-compiler.so (static LLVM
# inside) and bin/sluice-*, as the wheel's sluice/ directory does; only the
# extension (and the MLIR-free invoker it links) is compiled here.

set(_pre "${SLUICE_PREBUILT_DIR}")
foreach(f lib/libsluice-runtime.so lib/libsluice-compiler.so)
  if(NOT EXISTS "${_pre}/${f}")
    message(FATAL_ERROR "SLUICE_PREBUILT_DIR=${_pre} has no ${f}")
  endif()
endforeach()
set(SLUICE_ENABLE_COMPILER OFF CACHE BOOL "" FORCE)
set(SLUICE_ENABLE_SANITIZER_TESTS OFF CACHE BOOL "" FORCE)
add_library(sluice-runtime SHARED IMPORTED GLOBAL)
set_target_properties(sluice-runtime PROPERTIES
  IMPORTED_LOCATION "${_pre}/lib/libsluice-runtime.so"
  IMPORTED_SONAME libsluice-runtime.so
  INTERFACE_INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/include")
add_library(sluice-compiler SHARED IMPORTED GLOBAL)
set_target_properties(sluice-compiler PROPERTIES
  IMPORTED_LOCATION "${_pre}/lib/libsluice-compiler.so"
  IMPORTED_SONAME libsluice-compiler.so
  INTERFACE_INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/include"
  INTERFACE_LINK_LIBRARIES sluice-runtime)
message(STATUS "Sluice: prebuilt runtime, compiler and tools from ${_pre}")
