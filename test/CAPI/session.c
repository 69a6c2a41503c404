/* Sessions: version, flags, diagnostics, lifetime. */
#include "CAPITest.h"

static void testVersion(void) {
  uint32_t version = sluiceCompilerGetAPIVersion();
  CHECK(version == SLUICE_COMPILER_API_VERSION);
  CHECK(version >> 16 == SLUICE_COMPILER_API_MAJOR);
  CHECK_CONTAINS(sluiceCompilerGetVersionString(), "Sluice");
  CHECK_CONTAINS(sluiceCompilerGetVersionString(), "MLIR");
}

static void testNullArguments(void) {
  CHECK_STATUS(sluiceCompilerSessionCreate(NULL), SLUICE_ERROR_INVALID_VALUE);
  CHECK_CONTAINS(sluiceCompilerGetLastErrorMessage(), "NULL");
  CHECK_STATUS(sluiceCompilerSessionSetFlags(NULL, 0, NULL),
               SLUICE_ERROR_INVALID_VALUE);
  const char *flags;
  CHECK_STATUS(sluiceCompilerSessionGetFlags(NULL, &flags),
               SLUICE_ERROR_INVALID_VALUE);
  /* NULL handles are ignored by destroy and set-callback. */
  sluiceCompilerSessionDestroy(NULL);
  sluiceCompilerSessionSetDiagnosticCallback(NULL, NULL, NULL);
}

static void testFlags(void) {
  DiagnosticLog log;
  SluiceCompilerSession session = newSession(&log);
  const char *flags = NULL;
  CHECK_OK(sluiceCompilerSessionGetFlags(session, &flags));
  CHECK_CONTAINS(flags, "--fusion\n");
  CHECK_CONTAINS(flags, "-O3\n");
  CHECK_CONTAINS(flags, "--cuda-chip=sm_90\n");

  const char *good[] = {"--device=opencl:cpu:0", "--no-fusion", "-O1",
                        "--cuda-chip=sm_80", "--workgroup-size=128"};
  CHECK_OK(sluiceCompilerSessionSetFlags(session, 5, good));
  CHECK_OK(sluiceCompilerSessionGetFlags(session, &flags));
  CHECK_CONTAINS(flags, "--device=opencl:cpu:0\n");
  CHECK_CONTAINS(flags, "--no-fusion\n");
  CHECK_CONTAINS(flags, "-O1\n");
  CHECK_CONTAINS(flags, "--cuda-chip=sm_80\n");
  CHECK_CONTAINS(flags, "--workgroup-size=128\n");
  CHECK(log.errors == 0);

  /* Each bad flag is an error diagnostic, and no flag of the call applies. */
  const char *unknown[] = {"--fusion", "--frobnicate"};
  CHECK_STATUS(sluiceCompilerSessionSetFlags(session, 2, unknown),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK(log.errors == 1);
  CHECK_CONTAINS(log.text, "unknown flag '--frobnicate'");
  CHECK_OK(sluiceCompilerSessionGetFlags(session, &flags));
  CHECK_CONTAINS(flags, "--no-fusion\n");

  const char *bad[][1] = {{"-O7"},
                          {"--cuda-chip=volta"},
                          {"--workgroup-size=100"},
                          {"--workgroup-size=0"},
                          {"--device=opencl:cpu:zero"}};
  const char *expect[] = {"-O7", "--cuda-chip=volta", "power of 2",
                          "power of 2", "--device=opencl:cpu:zero"};
  for (int i = 0; i < 5; ++i) {
    clearLog(&log);
    CHECK_STATUS(sluiceCompilerSessionSetFlags(session, 1, bad[i]),
                 SLUICE_ERROR_INVALID_VALUE);
    CHECK(log.errors == 1);
    CHECK_CONTAINS(log.text, expect[i]);
    CHECK_CONTAINS(sluiceCompilerGetLastErrorMessage(), expect[i]);
  }
  const char *nullFlag[] = {NULL};
  CHECK_STATUS(sluiceCompilerSessionSetFlags(session, 1, nullFlag),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_STATUS(sluiceCompilerSessionSetFlags(session, 1, NULL),
               SLUICE_ERROR_INVALID_VALUE);

  /* --device=none clears the binding; zero flags change nothing. */
  const char *none[] = {"--device=none"};
  CHECK_OK(sluiceCompilerSessionSetFlags(session, 1, none));
  CHECK_OK(sluiceCompilerSessionSetFlags(session, 0, NULL));
  CHECK_OK(sluiceCompilerSessionGetFlags(session, &flags));
  CHECK(strstr(flags, "--device") == NULL);
  sluiceCompilerSessionDestroy(session);
}

/* Without a callback nothing is printed, and the invocation keeps errors. */
static void testNoCallback(void) {
  SluiceCompilerSession session = NULL;
  CHECK_OK(sluiceCompilerSessionCreate(&session));
  SluiceCompilerInvocation inv = NULL;
  CHECK_OK(sluiceCompilerInvocationCreate(session, &inv));
  const char *broken = "func.func @f( {";
  CHECK_STATUS(sluiceCompilerInvocationParseSource(inv, broken, strlen(broken),
                                                   "broken.mlir"),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_CONTAINS(sluiceCompilerInvocationGetErrors(inv), "broken.mlir:1:");
  CHECK_CONTAINS(sluiceCompilerGetLastErrorMessage(), "broken.mlir:1:");
  sluiceCompilerInvocationDestroy(inv);
  sluiceCompilerSessionDestroy(session);
}

/* A session destroyed before its invocation lives until the invocation
 * goes; the callback is detached at once. */
static void testDestroyOrder(void) {
  DiagnosticLog log;
  SluiceCompilerSession session = newSession(&log);
  SluiceCompilerInvocation inv = parsed(session, kSaxpy);
  sluiceCompilerSessionDestroy(session);
  CHECK_OK(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_FUSED));
  const char *bad = "func.func @f( {";
  CHECK_STATUS(
      sluiceCompilerInvocationParseSource(inv, bad, strlen(bad), "x.mlir"),
      SLUICE_ERROR_INVALID_VALUE);
  CHECK(log.errors == 0);
  sluiceCompilerInvocationDestroy(inv);
  /* New invocations of a destroyed session are refused. */
}

int main(void) {
  testVersion();
  testNullArguments();
  testFlags();
  testNoCallback();
  testDestroyOrder();
  return capiTestFinish("session");
}
