# SLUICE_STATIC_LLVM: the self-contained configuration of the Python wheel.
#
# Instead of the shared libMLIR.so/libLLVM.so (257 MB), every binary links
# Debian's static LLVM/MLIR component archives; the linker takes from them
# only the objects the binary reaches, drops unreferenced functions and data
# (--gc-sections). One shared object holds them, libsluice-compiler.so, which
# the Python extension and the tools link (lib/CAPI/CMakeLists.txt). lld links
# (fast, and it needs no archive groups). LLD's ELF driver is linked in too
# (SLUICE_HAVE_LLD): artifacts are linked in process, so a machine without a
# C compiler or linker can write them.
#
# Defines sluice-llvm-static, the link interface that replaces `MLIR LLVM`.

set(_dir "${LLVM_LIBRARY_DIR}")
file(GLOB _mlir "${_dir}/libMLIR*.a")
file(GLOB _llvm "${_dir}/libLLVM*.a")
set(_lld "${_dir}/liblldELF.a" "${_dir}/liblldCommon.a")
foreach(f IN LISTS _lld)
  if(NOT EXISTS "${f}")
    message(FATAL_ERROR "SLUICE_STATIC_LLVM needs LLD's static libraries "
                        "(apt-get install liblld-22-dev): ${f} is missing")
  endif()
endforeach()
find_library(SLUICE_LIBZ_STATIC libz.a)
find_library(SLUICE_LIBZSTD_STATIC libzstd.a)
if(NOT SLUICE_LIBZ_STATIC OR NOT SLUICE_LIBZSTD_STATIC)
  message(FATAL_ERROR "SLUICE_STATIC_LLVM needs libz.a and libzstd.a "
                      "(apt-get install zlib1g-dev libzstd-dev)")
endif()
find_program(SLUICE_LLD ld.lld HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
if(NOT SLUICE_LLD)
  message(FATAL_ERROR "SLUICE_STATIC_LLVM links with lld (apt-get install lld-22)")
endif()
list(LENGTH _mlir _n_mlir)
list(LENGTH _llvm _n_llvm)
message(STATUS "Sluice: static LLVM/MLIR (${_n_mlir} MLIR and ${_n_llvm} LLVM "
               "archives, LLD in process), linked by ${SLUICE_LLD}")

find_package(Threads REQUIRED)
add_library(sluice-llvm-static INTERFACE)
target_link_libraries(sluice-llvm-static INTERFACE
  ${_lld} ${_mlir} ${_llvm} ${SLUICE_LIBZSTD_STATIC} ${SLUICE_LIBZ_STATIC}
  Threads::Threads ${CMAKE_DL_LIBS} rt m)

# LLVM's archives are built with a section per function and datum, so
# --gc-sections drops what is unreferenced. Sluice's own objects keep the
# flags of the ordinary build, so ccache serves them from it (they are a few
# per cent of the binaries); SLUICE_STATIC_SECTIONS=ON splits them too.
option(SLUICE_STATIC_SECTIONS
  "Also compile Sluice's objects with -ffunction-sections -fdata-sections" OFF)
if(SLUICE_STATIC_SECTIONS)
  add_compile_options(-ffunction-sections -fdata-sections)
endif()
# lld from LLVM's bin directory: gcc looks for ld.lld in -B directories.
get_filename_component(_lld_dir "${SLUICE_LLD}" DIRECTORY)
add_link_options(-B${_lld_dir} -fuse-ld=lld -Wl,--gc-sections)
# The Python extension exports none of the archives' code it holds
# (libsluice-compiler.so, which the tools link, see lib/CAPI).
string(APPEND CMAKE_MODULE_LINKER_FLAGS " -Wl,--exclude-libs,ALL")
# No build-machine paths in installed binaries: Sluice's own libraries are
# found next to them.
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH OFF)
