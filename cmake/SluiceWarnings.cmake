# sluice_warnings(target): the compiler warnings every Sluice target builds
# with (-Wall -Wextra), errors with -DSLUICE_WARNINGS_AS_ERRORS=ON (CI).
option(SLUICE_WARNINGS_AS_ERRORS "Build Sluice's targets with -Werror" OFF)

function(sluice_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra
    $<$<BOOL:${SLUICE_WARNINGS_AS_ERRORS}>:-Werror>)
endfunction()
