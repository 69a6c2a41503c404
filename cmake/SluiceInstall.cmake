# `cmake --install`: headers, the runtime and compiler libraries, the tools
# and a CMake package, so that `find_package(Sluice)` gives consumers
#   Sluice::runtime    libsluice-runtime.so  (sluice-c/Runtime.h, Program.h)
#   Sluice::compiler   libsluice-compiler.so (sluice-c/Compiler.h)
# and Sluice_TOOLS_DIR (sluice-opt, sluice-compile, sluice-run, sluice-ls).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SLUICE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Sluice)

install(DIRECTORY ${SLUICE_SOURCE_DIR}/include/sluice-c
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(SLUICE_EXPORTED_LIBRARIES)
if(TARGET sluice-runtime)
  set_target_properties(sluice-runtime PROPERTIES EXPORT_NAME runtime)
  list(APPEND SLUICE_EXPORTED_LIBRARIES sluice-runtime)
endif()
if(TARGET sluice-compiler)
  set_target_properties(sluice-compiler PROPERTIES EXPORT_NAME compiler)
  list(APPEND SLUICE_EXPORTED_LIBRARIES sluice-compiler)
endif()
install(TARGETS ${SLUICE_EXPORTED_LIBRARIES} EXPORT SluiceTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

foreach(tool sluice-opt sluice-compile sluice-run sluice-ls)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

install(EXPORT SluiceTargets NAMESPACE Sluice::
        DESTINATION ${SLUICE_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${SLUICE_SOURCE_DIR}/cmake/SluiceConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/SluiceConfig.cmake
  INSTALL_DESTINATION ${SLUICE_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/SluiceConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/SluiceConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/SluiceConfigVersion.cmake
        DESTINATION ${SLUICE_INSTALL_CMAKEDIR})
