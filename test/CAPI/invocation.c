/* Invocations: parsing, stages, IR, signatures, binaries, host code,
 * artifacts and executables, and their errors. */
#include "CAPITest.h"

#include <unistd.h>

static const char *irAt(SluiceCompilerInvocation inv, int withLocations) {
  const char *text = NULL;
  size_t length = 0;
  CHECK_OK(sluiceCompilerInvocationGetIR(inv, withLocations, &text, &length));
  CHECK(text && strlen(text) == length);
  return text;
}

static void testParse(const char *dir) {
  DiagnosticLog log;
  SluiceCompilerSession session = newSession(&log);
  SluiceCompilerInvocation inv = NULL;
  CHECK_OK(sluiceCompilerInvocationCreate(session, &inv));
  CHECK(sluiceCompilerInvocationGetStage(inv) == SLUICE_STAGE_INPUT);

  /* No module yet. */
  const char *text;
  CHECK_STATUS(sluiceCompilerInvocationGetIR(inv, 0, &text, NULL),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_STATUS(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_PLACED),
               SLUICE_ERROR_INVALID_VALUE);

  /* A syntax error, with its location. */
  const char *bad = "func.func @f() {\n  %x = usm.frobnicate\n}\n";
  CHECK_STATUS(
      sluiceCompilerInvocationParseSource(inv, bad, strlen(bad), "bad.mlir"),
      SLUICE_ERROR_INVALID_VALUE);
  CHECK(log.errors >= 1);
  CHECK_CONTAINS(log.text, "bad.mlir:2:");
  CHECK_CONTAINS(sluiceCompilerInvocationGetErrors(inv), "bad.mlir:2:");

  /* A verifier error: mismatched element types. */
  clearLog(&log);
  const char *mixed =
      "func.func @f(%a: !usm.array<4xf32, \"host:cpu:0\", device>,"
      " %b: !usm.array<4xi32, \"host:cpu:0\", device>) {\n"
      "  %c = usm.add %a, %b : (!usm.array<4xf32, \"host:cpu:0\", device>,"
      " !usm.array<4xi32, \"host:cpu:0\", device>) ->"
      " !usm.array<4xf32, \"host:cpu:0\", device>\n"
      "  return\n}\n";
  CHECK_STATUS(sluiceCompilerInvocationParseSource(inv, mixed, strlen(mixed),
                                                   "mixed.mlir"),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_CONTAINS(log.text, "mixed.mlir:2:");

  /* Not NUL-terminated: only `length` bytes are read. */
  char buffer[512];
  size_t n = strlen(kSaxpy);
  memcpy(buffer, kSaxpy, n);
  memset(buffer + n, '@', sizeof(buffer) - n);
  CHECK_OK(sluiceCompilerInvocationParseSource(inv, buffer, n, NULL));
  CHECK_CONTAINS(irAt(inv, 1), "<buffer>");
  CHECK_STATUS(sluiceCompilerInvocationParseSource(inv, NULL, 3, NULL),
               SLUICE_ERROR_INVALID_VALUE);

  /* Files: missing, then present. */
  clearLog(&log);
  CHECK_STATUS(sluiceCompilerInvocationParseFile(inv, "/nonexistent/prog.mlir"),
               SLUICE_ERROR_NOT_FOUND);
  CHECK_CONTAINS(log.text, "/nonexistent/prog.mlir");
  char path[1024];
  snprintf(path, sizeof(path), "%s/saxpy.mlir", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(kSaxpy, f);
    fclose(f);
  }
  CHECK_OK(sluiceCompilerInvocationParseFile(inv, path));
  CHECK_CONTAINS(irAt(inv, 1), "saxpy.mlir");
  CHECK_CONTAINS(irAt(inv, 0), "usm.add");
  sluiceCompilerInvocationDestroy(inv);
  sluiceCompilerSessionDestroy(session);
}

static void testStages(void) {
  DiagnosticLog log;
  SluiceCompilerSession session = newSession(&log);
  SluiceCompilerInvocation inv = parsed(session, kSaxpy);

  /* Signatures before any stage: from the usm functions. */
  const char *sigs = NULL;
  size_t sigLength = 0;
  CHECK_OK(sluiceCompilerInvocationGetSignatures(inv, &sigs, &sigLength));
  CHECK_CONTAINS(sigs, "main(?xf32@host:cpu:0/1,?xf32@host:cpu:0/1)->"
                       "(?xf32@host:cpu:0/1)");

  CHECK_OK(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_PLACED));
  CHECK(sluiceCompilerInvocationGetStage(inv) == SLUICE_STAGE_PLACED);
  CHECK_OK(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_FUSED));
  CHECK_CONTAINS(irAt(inv, 0), "usm.fused");
  /* Binaries do not exist yet. */
  size_t count = 99;
  CHECK_STATUS(sluiceCompilerInvocationGetBinaryCount(inv, &count),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_OK(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_KERNELS));
  CHECK_CONTAINS(irAt(inv, 0), "gpu.launch_func");
  CHECK_CONTAINS(irAt(inv, 0), "sluice_host_kernels");
  /* Going back is refused; staying is a no-op. */
  CHECK_STATUS(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_FUSED),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_CONTAINS(sluiceCompilerGetLastErrorMessage(), "past 'fused'");
  CHECK_OK(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_KERNELS));
  CHECK_STATUS(sluiceCompilerInvocationRunPipeline(inv, (SluiceCompileStage)42),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_OK(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_BINARIES));
  /* Host kernels are not device binaries. */
  CHECK_OK(sluiceCompilerInvocationGetBinaryCount(inv, &count));
  CHECK(count == 0);
  CHECK_OK(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_LLVM));
  CHECK_CONTAINS(irAt(inv, 0), "llvm.func @_sluice_entry_main");
  /* Signatures are kept after lowering. */
  CHECK_OK(sluiceCompilerInvocationGetSignatures(inv, &sigs, NULL));
  CHECK_CONTAINS(sigs, "main(");
  CHECK(log.errors == 0);
  sluiceCompilerInvocationDestroy(inv);
  sluiceCompilerSessionDestroy(session);
}

/* SPIR-V and PTX binaries for queues of devices that need not be here. */
static void testBinaries(void) {
  DiagnosticLog log;
  SluiceCompilerSession session = newSession(&log);
  const char *flags[] = {"--device=opencl:cpu:0"};
  CHECK_OK(sluiceCompilerSessionSetFlags(session, 1, flags));
  SluiceCompilerInvocation inv = parsed(session, kSaxpy);
  CHECK_OK(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_BINARIES));
  size_t count = 0;
  CHECK_OK(sluiceCompilerInvocationGetBinaryCount(inv, &count));
  CHECK(count == 1);
  SluiceBinaryInfo info;
  CHECK_OK(sluiceCompilerInvocationGetBinary(inv, 0, &info));
  CHECK(info.format == SLUICE_MODULE_SPIRV);
  CHECK_CONTAINS(info.name, "sluice_spirv_kernels");
  CHECK(info.size > 20 && info.size % 4 == 0);
  CHECK(info.data && *(const uint32_t *)info.data == 0x07230203u);
  CHECK_STATUS(sluiceCompilerInvocationGetBinary(inv, 1, &info),
               SLUICE_ERROR_INVALID_VALUE);
  /* The queues were rebound before compiling: the signature says so. */
  const char *sigs;
  CHECK_OK(sluiceCompilerInvocationGetSignatures(inv, &sigs, NULL));
  CHECK_CONTAINS(sigs, "@opencl:cpu:0/1");
  sluiceCompilerInvocationDestroy(inv);

  const char *cuda[] = {"--device=cuda:gpu:0", "--cuda-chip=sm_80"};
  CHECK_OK(sluiceCompilerSessionSetFlags(session, 2, cuda));
  inv = parsed(session, kSaxpy);
  CHECK_OK(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_BINARIES));
  CHECK_OK(sluiceCompilerInvocationGetBinaryCount(inv, &count));
  CHECK(count == 1);
  CHECK_OK(sluiceCompilerInvocationGetBinary(inv, 0, &info));
  CHECK(info.format == SLUICE_MODULE_PTX);
  CHECK_CONTAINS((const char *)info.data, ".target sm_80");
  sluiceCompilerInvocationDestroy(inv);
  CHECK(log.errors == 0);

  /* A selector that names no single device cannot be compiled for when no
   * device matches. */
  clearLog(&log);
  const char *anyGpu[] = {"--device=level_zero:gpu"};
  CHECK_OK(sluiceCompilerSessionSetFlags(session, 1, anyGpu));
  inv = parsed(session, kSaxpy);
  CHECK_STATUS(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_KERNELS),
               SLUICE_ERROR_COMPILE_FAILED);
  CHECK_CONTAINS(log.text, "--device=level_zero:gpu");
  sluiceCompilerInvocationDestroy(inv);
  sluiceCompilerSessionDestroy(session);
}

/* Placement errors and unsupported targets are diagnostics with
 * locations; a failed invocation cannot go on. */
static void testCompileErrors(void) {
  DiagnosticLog log;
  SluiceCompilerSession session = newSession(&log);
  const char *mixedQueues =
      "func.func @main(%a: !usm.array<4xf32, \"host:cpu:0\", device>,\n"
      "                %b: !usm.array<4xf32, \"opencl:cpu:0\", device>)\n"
      "    -> !usm.array<4xf32, \"host:cpu:0\", device> {\n"
      "  %c = usm.add %a, %b : (!usm.array<4xf32, \"host:cpu:0\", device>,"
      " !usm.array<4xf32, \"opencl:cpu:0\", device>) ->"
      " !usm.array<4xf32, \"host:cpu:0\", device>\n"
      "  return %c : !usm.array<4xf32, \"host:cpu:0\", device>\n}\n";
  SluiceCompilerInvocation inv = NULL;
  CHECK_OK(sluiceCompilerInvocationCreate(session, &inv));
  SluiceStatus parseStatus = sluiceCompilerInvocationParseSource(
      inv, mixedQueues, strlen(mixedQueues), "queues.mlir");
  if (parseStatus == SLUICE_SUCCESS) {
    CHECK_STATUS(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_PLACED),
                 SLUICE_ERROR_COMPILE_FAILED);
    CHECK_STATUS(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_FUSED),
                 SLUICE_ERROR_INVALID_VALUE);
    CHECK_CONTAINS(sluiceCompilerGetLastErrorMessage(), "parse the program");
  }
  CHECK(log.errors >= 1);
  CHECK_CONTAINS(log.text, "queues.mlir:4:");
  sluiceCompilerInvocationDestroy(inv);

  /* A queue whose backend is left open cannot be compiled. */
  clearLog(&log);
  const char *openQueue = "!V = !usm.array<4xf32, \"*:gpu:0\", device>\n"
                          "func.func @main(%a: !V) -> !V {\n"
                          "  %b = usm.exp %a : (!V) -> !V\n"
                          "  return %b : !V\n}\n";
  inv = parsed(session, openQueue);
  CHECK_STATUS(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_LLVM),
               SLUICE_ERROR_COMPILE_FAILED);
  CHECK(log.errors >= 1);
  CHECK_CONTAINS(log.text, "test.mlir:3:");
  sluiceCompilerInvocationDestroy(inv);
  sluiceCompilerSessionDestroy(session);
}

static void checkSaxpy(SluiceEntryPoint entry) {
  enum { N = 1000 };
  float *x = hostFloats(N), *y = hostFloats(N);
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f - (float)i;
  }
  float *args[] = {x, y};
  int32_t status = -1;
  Memref1D r = call1D(entry, 2, args, N, &status);
  CHECK(status == 0);
  CHECK(r.size == N && r.stride == 1);
  int wrong = 0;
  if (status == 0 && r.aligned) {
    const float *out = (const float *)r.aligned + r.offset;
    for (int i = 0; i < N; ++i)
      wrong += out[i] != (float)i + 1.0f;
    sluiceFree(NULL, r.allocated);
  }
  CHECK(wrong == 0);
  sluiceFree(NULL, x);
  sluiceFree(NULL, y);
}

static void testHostOutputs(const char *dir) {
  DiagnosticLog log;
  SluiceCompilerSession session = newSession(&log);
  SluiceCompilerInvocation inv = parsed(session, kSaxpy);
  const void *data = NULL;
  size_t size = 0;
  CHECK_OK(sluiceCompilerInvocationEmitHost(inv, SLUICE_HOST_OUTPUT_LLVM_IR,
                                            &data, &size));
  CHECK(size > 0);
  CHECK_CONTAINS((const char *)data, "define");
  CHECK_CONTAINS((const char *)data, "_sluice_entry_main");
  CHECK_CONTAINS((const char *)data, "sluice_signatures");
  CHECK_OK(sluiceCompilerInvocationEmitHost(inv, SLUICE_HOST_OUTPUT_OBJECT,
                                            &data, &size));
  CHECK(size > 4 && memcmp(data, "\177ELF", 4) == 0);
  CHECK_STATUS(
      sluiceCompilerInvocationEmitHost(inv, (SluiceHostOutput)9, &data, &size),
      SLUICE_ERROR_INVALID_VALUE);

  /* An artifact, loaded and run. */
  char path[1024];
  snprintf(path, sizeof(path), "%s/saxpy.so", dir);
  CHECK_OK(sluiceCompilerInvocationWriteArtifact(inv, path, NULL, NULL));
  CHECK(access(path, R_OK) == 0);
  SluiceExecutable exe = NULL;
  CHECK_OK(sluiceExecutableLoad(path, &exe));
  CHECK(sluiceExecutableGetEntryCount(exe) == 1);
  const char *name = NULL, *signature = NULL;
  CHECK_OK(sluiceExecutableGetEntryInfo(exe, 0, &name, &signature));
  CHECK(name && strcmp(name, "main") == 0);
  CHECK_CONTAINS(signature, "main(?xf32@host:cpu:0/1");
  CHECK_STATUS(sluiceExecutableGetEntryInfo(exe, 1, &name, &signature),
               SLUICE_ERROR_INVALID_VALUE);
  SluiceEntryPoint entry = NULL;
  CHECK_OK(sluiceExecutableLookup(exe, NULL, &entry));
  if (entry)
    checkSaxpy(entry);
  CHECK_STATUS(sluiceExecutableLookup(exe, "nope", &entry),
               SLUICE_ERROR_NOT_FOUND);
  CHECK_CONTAINS(sluiceCompilerGetLastErrorMessage(), "@main");
  sluiceExecutableDestroy(exe);

  /* A bad linker is reported, and leaves no file. */
  snprintf(path, sizeof(path), "%s/never.so", dir);
  CHECK_STATUS(
      sluiceCompilerInvocationWriteArtifact(inv, path, NULL, "/nonexistent/cc"),
      SLUICE_ERROR_COMPILE_FAILED);
  CHECK(access(path, F_OK) != 0);
  sluiceCompilerInvocationDestroy(inv);

  /* JIT executables outlive their session. */
  inv = parsed(session, kSaxpy);
  CHECK_OK(sluiceCompilerInvocationCreateExecutable(inv, &exe));
  sluiceCompilerInvocationDestroy(inv);
  sluiceCompilerSessionDestroy(session);
  entry = NULL;
  CHECK_OK(sluiceExecutableLookup(exe, "main", &entry));
  if (entry)
    checkSaxpy(entry);
  CHECK(log.errors == 0);
  sluiceExecutableDestroy(exe);
}

static void testLoadErrors(const char *dir) {
  SluiceExecutable exe = NULL;
  CHECK_STATUS(sluiceExecutableLoad("/nonexistent/prog.so", &exe),
               SLUICE_ERROR_NOT_FOUND);
  char path[1024];
  snprintf(path, sizeof(path), "%s/saxpy.mlir", dir);
  CHECK_STATUS(sluiceExecutableLoad(path, &exe), SLUICE_ERROR_INVALID_VALUE);
  CHECK(exe == NULL);
  CHECK_STATUS(sluiceExecutableLoad(NULL, &exe), SLUICE_ERROR_INVALID_VALUE);
  CHECK(sluiceExecutableGetEntryCount(NULL) == 0);
  SluiceEntryPoint entry;
  CHECK_STATUS(sluiceExecutableLookup(NULL, "main", &entry),
               SLUICE_ERROR_INVALID_VALUE);
  sluiceExecutableDestroy(NULL);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  testParse(dir);
  testStages();
  testBinaries();
  testCompileErrors();
  testHostOutputs(dir);
  testLoadErrors(dir);
  return capiTestFinish("invocation");
}
