/*===- CAPITest.h - Checks shared by the C API tests -------------*- C -*-===//
 *
 * Plain C: the tests are C programs, as an embedding application would be.
 * Each CHECK that fails prints its file and line and counts a failure;
 * capiTestFinish() turns the count into the exit status.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SLUICE_TEST_CAPI_CAPITEST_H
#define SLUICE_TEST_CAPI_CAPITEST_H

#include "sluice-c/Compiler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int capiFailures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++capiFailures;                                                          \
    }                                                                          \
  } while (0)

#define CHECK_STATUS(call, expected)                                           \
  do {                                                                         \
    SluiceStatus got_ = (call);                                                \
    if (got_ != (expected)) {                                                  \
      fprintf(stderr, "%s:%d: %s returned %s, expected %s (%s)\n", __FILE__,   \
              __LINE__, #call, sluiceStatusString(got_),                       \
              sluiceStatusString(expected),                                    \
              sluiceCompilerGetLastErrorMessage());                            \
      ++capiFailures;                                                          \
    }                                                                          \
  } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, SLUICE_SUCCESS)

#define CHECK_CONTAINS(text, needle)                                           \
  do {                                                                         \
    const char *t_ = (text);                                                   \
    if (!t_ || !strstr(t_, (needle))) {                                        \
      fprintf(stderr, "%s:%d: expected \"%s\" in:\n%s\n", __FILE__, __LINE__,  \
              (needle), t_ ? t_ : "(null)");                                   \
      ++capiFailures;                                                          \
    }                                                                          \
  } while (0)

/* Diagnostics collected by a session's callback. */
typedef struct DiagnosticLog {
  char text[16384];
  int errors, warnings, notes, remarks;
} DiagnosticLog;

static void logDiagnostic(SluiceDiagnosticSeverity severity,
                          const char *location, const char *message,
                          void *userData) {
  DiagnosticLog *log = (DiagnosticLog *)userData;
  static const char *const words[] = {"error", "warning", "note", "remark"};
  size_t used = strlen(log->text);
  snprintf(log->text + used, sizeof(log->text) - used, "%s: %s: %s\n", location,
           words[severity], message);
  if (severity == SLUICE_DIAGNOSTIC_ERROR)
    ++log->errors;
  else if (severity == SLUICE_DIAGNOSTIC_WARNING)
    ++log->warnings;
  else if (severity == SLUICE_DIAGNOSTIC_NOTE)
    ++log->notes;
  else
    ++log->remarks;
}

static void clearLog(DiagnosticLog *log) { memset(log, 0, sizeof(*log)); }

/* A new session whose diagnostics go to `log`. */
static SluiceCompilerSession newSession(DiagnosticLog *log) {
  SluiceCompilerSession session = NULL;
  CHECK_OK(sluiceCompilerSessionCreate(&session));
  clearLog(log);
  sluiceCompilerSessionSetDiagnosticCallback(session, logDiagnostic, log);
  return session;
}

/* An invocation holding `source`, parsed. */
static SluiceCompilerInvocation parsed(SluiceCompilerSession session,
                                       const char *source) {
  SluiceCompilerInvocation inv = NULL;
  CHECK_OK(sluiceCompilerInvocationCreate(session, &inv));
  CHECK_OK(sluiceCompilerInvocationParseSource(inv, source, strlen(source),
                                               "test.mlir"));
  return inv;
}

/* Shared USM memory on the host device's canonical queue. */
static float *hostFloats(size_t n) {
  SluiceDevice device;
  SluiceQueue queue;
  void *ptr = NULL;
  CHECK_OK(sluiceDeviceSelect("host", &device));
  CHECK_OK(sluiceQueueGetCanonical(device, &queue));
  CHECK_OK(sluiceMalloc(queue, SLUICE_USM_SHARED, n ? n * sizeof(float) : 4, 0,
                        &ptr));
  return (float *)ptr;
}

/* A rank-1 memref descriptor: allocated, aligned, offset, size, stride. */
typedef struct Memref1D {
  void *allocated, *aligned;
  int64_t offset, size, stride;
} Memref1D;

/* Calls `entry` with `numArgs` rank-1 f32 arrays of `n` elements and one
 * rank-1 result, which it returns (NULL on failure, with the status in
 * *status). */
static Memref1D call1D(SluiceEntryPoint entry, int numArgs, float **args,
                       int64_t n, int32_t *status) {
  Memref1D in[8];
  void *argv[8 * 5 + 1];
  int slot = 0;
  Memref1D result = {0, 0, 0, 0, 0};
  for (int i = 0; i < numArgs; ++i) {
    in[i].allocated = in[i].aligned = args[i];
    in[i].offset = 0;
    in[i].size = n;
    in[i].stride = 1;
    argv[slot++] = &in[i].allocated;
    argv[slot++] = &in[i].aligned;
    argv[slot++] = &in[i].offset;
    argv[slot++] = &in[i].size;
    argv[slot++] = &in[i].stride;
  }
  argv[slot++] = &result;
  *status = entry(argv);
  return result;
}

static int capiTestFinish(const char *name) {
  if (capiFailures) {
    fprintf(stderr, "%s: %d check(s) failed\n", name, capiFailures);
    return 1;
  }
  printf("%s: all checks passed\n", name);
  return 0;
}

/* y = a * x + x on the host CPU (dynamic size). */
static const char *const kSaxpy =
    "!V = !usm.array<?xf32, \"host:cpu:0\", device>\n"
    "func.func @main(%x: !V, %y: !V) -> !V {\n"
    "  %a = arith.constant 2.0 : f32\n"
    "  %t = usm.mul %x, %a : (!V, f32) -> !V\n"
    "  %r = usm.add %t, %y : (!V, !V) -> !V\n"
    "  return %r : !V\n"
    "}\n";

#endif /* SLUICE_TEST_CAPI_CAPITEST_H */
