# The Python wheel's layout (scikit-build-core sets SKBUILD and installs the
# component `wheel` into the package directory, site-packages/sluice):
#   sluice/_sluice.*.so           the extension (run path $ORIGIN/lib)
#   sluice/lib/libsluice-runtime.so, libsluice-compiler.so
#                                 (+ the OpenCL and Level Zero loaders the
#                                 runtime was linked with, as auditwheel
#                                 would bundle them)
#   sluice/bin/sluice-{ls,opt,compile,run}   run by the console scripts
#                                 (python/sluice/_tools.py)
# With SLUICE_STATIC_LLVM nothing in it needs LLVM, MLIR or a toolchain.

if(NOT TARGET _sluice)
  message(FATAL_ERROR "the wheel needs the Python package (nanobind, Python headers)")
endif()
if(NOT SLUICE_STATIC_LLVM AND NOT SLUICE_PREBUILT_DIR AND TARGET sluice-compiler)
  message(WARNING "building a wheel without SLUICE_STATIC_LLVM: it needs "
                  "this machine's libMLIR.so and libLLVM.so")
endif()

# One file per library: a wheel (a zip) keeps no symbolic links.
if(TARGET sluice-compiler AND NOT SLUICE_PREBUILT_DIR)
  set_property(TARGET sluice-compiler PROPERTY VERSION)
  set_property(TARGET sluice-compiler PROPERTY SOVERSION)
endif()
set_target_properties(_sluice PROPERTIES INSTALL_RPATH "$ORIGIN/lib")

install(TARGETS _sluice LIBRARY DESTINATION . COMPONENT wheel)
if(SLUICE_PREBUILT_DIR)
  # Everything but the extension comes built (cmake/SluicePrebuilt.cmake).
  file(GLOB _libs "${SLUICE_PREBUILT_DIR}/lib/*.so*")
  file(GLOB _tools "${SLUICE_PREBUILT_DIR}/bin/sluice-*")
  install(FILES ${_libs} DESTINATION lib COMPONENT wheel)
  install(PROGRAMS ${_tools} DESTINATION bin COMPONENT wheel)
  return()
endif()
foreach(lib sluice-runtime sluice-compiler)
  if(TARGET ${lib})
    install(TARGETS ${lib} LIBRARY DESTINATION lib COMPONENT wheel)
  endif()
endforeach()
foreach(tool sluice-ls sluice-opt sluice-compile sluice-run)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION bin COMPONENT wheel)
  endif()
endforeach()

# The device loaders the runtime links (a few hundred KB): where a machine
# has its own, the bundled one still finds that machine's drivers (ICDs).
set(_loaders)
if(SLUICE_HAVE_OPENCL)
  list(APPEND _loaders ${OpenCL_LIBRARY})
endif()
if(SLUICE_HAVE_LEVEL_ZERO)
  list(APPEND _loaders ${SLUICE_ZE_LOADER})
endif()
foreach(lib IN LISTS _loaders)
  # libX.so -> libX.so.1 -> libX.so.1.2.3: install the file under its soname.
  get_filename_component(real "${lib}" REALPATH)
  execute_process(COMMAND objdump -p "${real}" OUTPUT_VARIABLE dyn
                  RESULT_VARIABLE rc)
  string(REGEX MATCH "SONAME +([^\n ]+)" _ "${dyn}")
  if(rc EQUAL 0 AND CMAKE_MATCH_1)
    install(FILES "${real}" DESTINATION lib RENAME "${CMAKE_MATCH_1}"
            COMPONENT wheel)
  else()
    message(WARNING "Sluice wheel: cannot read the soname of ${real}; not bundled")
  endif()
endforeach()
