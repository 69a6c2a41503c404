/* Embedding Sluice from C: compile a usm program for the default device
 * (the first GPU, else the host CPU), JIT it and run it.
 *
 *   embed-c            prints y = 3*x + 1 for x = 0..7, then "ok" */
#include "sluice-c/Compiler.h"

#include <stdio.h>
#include <string.h>

static const char *const program =
    "!V = !usm.array<?xf32, \"host:cpu:0\", shared>\n"
    "func.func @main(%x: !V) -> !V {\n"
    "  %three = arith.constant 3.0 : f32\n"
    "  %one = arith.constant 1.0 : f32\n"
    "  %t = usm.mul %x, %three : (!V, f32) -> !V\n"
    "  %y = usm.add %t, %one : (!V, f32) -> !V\n"
    "  return %y : !V\n"
    "}\n";

/* Diagnostics arrive here, never on stderr unasked. */
static void report(SluiceDiagnosticSeverity severity, const char *location,
                   const char *message, void *userData) {
  (void)userData;
  fprintf(stderr, "%s%s%s: %s\n", location, *location ? ": " : "",
          severity == SLUICE_DIAGNOSTIC_ERROR ? "error" : "note", message);
}

#define TRY(call)                                                              \
  do {                                                                         \
    SluiceStatus s_ = (call);                                                  \
    if (s_ != SLUICE_SUCCESS) {                                                \
      fprintf(stderr, "%s failed: %s: %s\n", #call, sluiceStatusString(s_),    \
              sluiceCompilerGetLastErrorMessage());                            \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(void) {
  if (sluiceCompilerGetAPIVersion() >> 16 != SLUICE_COMPILER_API_MAJOR) {
    fprintf(stderr, "Sluice API version mismatch\n");
    return 1;
  }
  printf("%s\n", sluiceCompilerGetVersionString());

  SluiceCompilerSession session;
  TRY(sluiceCompilerSessionCreate(&session));
  sluiceCompilerSessionSetDiagnosticCallback(session, report, NULL);
  const char *flags[] = {"--device=default"};
  TRY(sluiceCompilerSessionSetFlags(session, 1, flags));

  SluiceCompilerInvocation inv;
  TRY(sluiceCompilerInvocationCreate(session, &inv));
  TRY(sluiceCompilerInvocationParseSource(inv, program, strlen(program),
                                          "embed.mlir"));
  SluiceExecutable exe;
  TRY(sluiceCompilerInvocationCreateExecutable(inv, &exe));
  const char *signature;
  TRY(sluiceExecutableGetEntryInfo(exe, 0, NULL, &signature));
  printf("compiled %s\n", signature);
  SluiceEntryPoint entry;
  TRY(sluiceExecutableLookup(exe, "main", &entry));

  /* The input lives on the default device's canonical queue. */
  SluiceDevice device;
  SluiceQueue queue;
  SluiceDeviceInfo info;
  TRY(sluiceDeviceSelect("", &device));
  TRY(sluiceDeviceGetInfo(device, &info));
  TRY(sluiceQueueGetCanonical(device, &queue));
  printf("running on %s (%s)\n", info.filter_string, info.name);
  enum { N = 8 };
  float *x;
  TRY(sluiceMalloc(queue, SLUICE_USM_SHARED, N * sizeof(float), 0,
                   (void **)&x));
  for (int i = 0; i < N; ++i)
    x[i] = (float)i;

  /* One rank-1 array: allocated, aligned, offset, size, stride. */
  struct {
    void *allocated, *aligned;
    int64_t offset, size, stride;
  } in = {x, x, 0, N, 1}, out;
  void *args[] = {&in.allocated, &in.aligned, &in.offset,
                  &in.size,      &in.stride,  &out};
  if (entry(args) != 0) {
    fprintf(stderr, "run failed: %s\n", sluiceGetLastErrorMessage());
    return 1;
  }
  const float *y = (const float *)out.aligned + out.offset;
  int ok = out.size == N;
  for (int i = 0; i < N; ++i) {
    printf("%g%s", y[i], i + 1 < N ? " " : "\n");
    ok = ok && y[i] == 3.0f * (float)i + 1.0f;
  }
  sluiceFree(queue, out.allocated);
  sluiceFree(queue, x);
  sluiceExecutableDestroy(exe);
  sluiceCompilerInvocationDestroy(inv);
  sluiceCompilerSessionDestroy(session);
  printf("%s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
