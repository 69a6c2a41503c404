//===- SanitizerOptions.cpp - Defaults for the ASan/UBSan test binary -----===//
//
// Linked into sluice-runtime-tests-san only, so the options hold however the
// binary is run (CTest, by hand, under a debugger).
// - allocator_may_return_null: ErrorPath tests ask for absurd sizes and
//   expect SLUICE_ERROR_OUT_OF_HOST_MEMORY rather than an ASan abort.
// - detect_leaks stays on; no suppressions are needed (the OpenCL ICD loader
//   and PoCL have not shown leaks on this machine). Should one appear, add a
//   narrow `leak:` line to __lsan_default_suppressions with the reason.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allocator_may_return_null=1:detect_leaks=1";
}

extern "C" const char *__ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1";
}
