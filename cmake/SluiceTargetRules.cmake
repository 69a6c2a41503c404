# The rules every Sluice target follows.
#
# Names: every library is `sluice-<area>` (sluice-runtime, sluice-usm-dialect,
# sluice-target-spirv, ...), executables are named for the tool or test.
#
# sluice_warnings(<target>): -Wall -Wextra, and -Werror with
#   -DSLUICE_WARNINGS_AS_ERRORS=ON (scripts/setup.sh turns it on when CI=true).
#
# sluice_add_library(<name> [SHARED] <sources>...
#                    [DEPENDS <targets>...] [LINK <public libraries>...])
#   A Sluice library: static unless SHARED, position-independent (the shared
#   libraries and the Python extension link the static ones), with Sluice's
#   include directories and warnings. DEPENDS names generated-header targets
#   (TableGen) the sources include (whose output then warns of nothing);
#   LINK the libraries it links publicly.
option(SLUICE_WARNINGS_AS_ERRORS "Build Sluice's targets with -Werror" OFF)

function(sluice_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra
    $<$<BOOL:${SLUICE_WARNINGS_AS_ERRORS}>:-Werror>)
endfunction()

function(sluice_add_library name)
  cmake_parse_arguments(ARG "SHARED" "" "DEPENDS;LINK" ${ARGN})
  if(ARG_SHARED)
    add_library(${name} SHARED ${ARG_UNPARSED_ARGUMENTS})
  else()
    add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  endif()
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${SLUICE_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
    # TableGen's output is not Sluice's code: no warnings from it.
    target_include_directories(${name} SYSTEM PRIVATE
      ${SLUICE_BINARY_DIR}/include)
  endif()
  if(ARG_LINK)
    target_link_libraries(${name} PUBLIC ${ARG_LINK})
  endif()
  sluice_warnings(${name})
endfunction()
