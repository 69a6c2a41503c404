# Finds what Sluice builds on. Only LLVM/MLIR is required (for the compiler);
# every other dependency is optional: a missing one switches its part off with
# a message and never breaks the build.

if(SLUICE_ENABLE_COMPILER)
  # MLIR's version file accepts only exact versions; check the major by hand.
  find_package(MLIR REQUIRED CONFIG
    HINTS /usr/lib/llvm-22/lib/cmake/mlir)
  find_package(LLVM REQUIRED CONFIG
    HINTS /usr/lib/llvm-22/lib/cmake/llvm)
  if(NOT LLVM_VERSION_MAJOR EQUAL 22)
    message(FATAL_ERROR "Sluice needs LLVM/MLIR 22, found ${LLVM_PACKAGE_VERSION} "
                        "(apt-get install llvm-22-dev libmlir-22-dev mlir-22-tools)")
  endif()
  message(STATUS "Sluice: MLIR ${LLVM_PACKAGE_VERSION} from ${MLIR_DIR}")
  list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
  set(LLVM_RUNTIME_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/bin)
  set(LLVM_LIBRARY_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/lib)
  set(MLIR_BINARY_DIR ${CMAKE_BINARY_DIR})
  include(TableGen)
  include(AddLLVM)
  include(AddMLIR)
  include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  add_definitions(${LLVM_DEFINITIONS})
  # Debian's mlir-tblgen lives in the LLVM bin dir, not on PATH.
  set(MLIR_TABLEGEN_EXE "${LLVM_TOOLS_BINARY_DIR}/mlir-tblgen" CACHE FILEPATH "" FORCE)
  set(SLUICE_LLVM_BIN "${LLVM_TOOLS_BINARY_DIR}")
  # Link the shared libMLIR.so/libLLVM.so; never mix in the static component
  # libraries (duplicate registrations abort at start-up). The wheel's
  # configuration (SLUICE_STATIC_LLVM) links only the static ones instead.
  option(SLUICE_STATIC_LLVM
    "Link LLVM/MLIR (and LLD) statically: the self-contained wheel" OFF)
  if(SLUICE_STATIC_LLVM)
    include(SluiceStaticLLVM)
    set(SLUICE_MLIR_LIBS sluice-llvm-static)
  else()
    set(SLUICE_MLIR_LIBS MLIR LLVM)
  endif()
else()
  message(STATUS "Sluice: compiler disabled (SLUICE_ENABLE_COMPILER=OFF); runtime only")
  find_program(SLUICE_LIT lit HINTS /usr/lib/llvm-22/bin)
  set(SLUICE_LLVM_BIN /usr/lib/llvm-22/bin)
endif()

# --- optional dependencies -------------------------------------------------
find_package(SPIRV-Tools CONFIG QUIET)
if(TARGET SPIRV-Tools-shared OR TARGET SPIRV-Tools OR TARGET SPIRV-Tools-static)
  set(SLUICE_HAVE_SPIRV_TOOLS ON)
  message(STATUS "Sluice: SPIRV-Tools found: SPIR-V validation on")
else()
  set(SLUICE_HAVE_SPIRV_TOOLS OFF)
  message(STATUS "Sluice: SPIRV-Tools NOT found: SPIR-V validation off (apt-get install spirv-tools)")
endif()

find_package(OpenCL QUIET)
if(OpenCL_FOUND)
  set(SLUICE_HAVE_OPENCL ON)
  message(STATUS "Sluice: OpenCL ICD loader found: opencl backend on")
else()
  set(SLUICE_HAVE_OPENCL OFF)
  message(STATUS "Sluice: OpenCL NOT found: opencl backend off (apt-get install ocl-icd-opencl-dev opencl-headers)")
endif()

option(SLUICE_ENABLE_LEVEL_ZERO "Build the level_zero backend where the loader is found" ON)
if(SLUICE_ENABLE_LEVEL_ZERO)
  find_path(SLUICE_ZE_INCLUDE_DIR level_zero/ze_api.h)
  find_library(SLUICE_ZE_LOADER ze_loader)
endif()
if(SLUICE_ENABLE_LEVEL_ZERO AND SLUICE_ZE_INCLUDE_DIR AND SLUICE_ZE_LOADER)
  set(SLUICE_HAVE_LEVEL_ZERO ON)
  message(STATUS "Sluice: Level Zero loader found: level_zero backend on")
elseif(NOT SLUICE_ENABLE_LEVEL_ZERO)
  set(SLUICE_HAVE_LEVEL_ZERO OFF)
  message(STATUS "Sluice: level_zero backend disabled (SLUICE_ENABLE_LEVEL_ZERO=OFF)")
else()
  set(SLUICE_HAVE_LEVEL_ZERO OFF)
  message(STATUS "Sluice: Level Zero loader NOT found: level_zero backend off (apt-get install libze-dev)")
endif()

# The cuda backend needs no CUDA headers, toolkit or driver to build: it
# declares the driver API it uses and loads libcuda at run time.
if(SLUICE_ENABLE_CUDA)
  message(STATUS "Sluice: cuda backend on (driver loaded at run time)")
else()
  message(STATUS "Sluice: cuda backend disabled (SLUICE_ENABLE_CUDA=OFF)")
endif()
find_program(SLUICE_PTXAS ptxas HINTS /usr/local/cuda/bin)
find_program(SLUICE_LLVM_SPIRV llvm-spirv-15 llvm-spirv)
if(SLUICE_LLVM_SPIRV)
  message(STATUS "Sluice: SPIR-V translator: ${SLUICE_LLVM_SPIRV}")
else()
  message(STATUS "Sluice: llvm-spirv NOT found: OpenCL devices without SPIR-V IL unsupported")
endif()

find_package(GTest QUIET)
if(GTest_FOUND)
  message(STATUS "Sluice: GoogleTest found: unit tests on")
else()
  message(STATUS "Sluice: GoogleTest NOT found: unit tests off (apt-get install libgtest-dev)")
endif()
