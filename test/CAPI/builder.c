/* The builder: usm functions without text, run and checked; bad ops. */
#include "CAPITest.h"

static SluiceValue op1(SluiceBuilder b, const char *name, SluiceValue x) {
  SluiceValue r = NULL;
  CHECK_OK(
      sluiceBuilderCreateOp(b, name, 1, &x, 0, NULL, 0, NULL, 1, &r, NULL));
  return r;
}

static SluiceValue op2(SluiceBuilder b, const char *name, SluiceValue x,
                       SluiceValue y) {
  SluiceValue operands[] = {x, y};
  SluiceValue r = NULL;
  size_t n = 0;
  CHECK_OK(
      sluiceBuilderCreateOp(b, name, 2, operands, 0, NULL, 0, NULL, 1, &r, &n));
  CHECK(n == 1);
  return r;
}

/* main(x, y) = sqrt(abs(x)) * y + 0.5, elementwise; total(x) = sum(x). */
static void testBuildAndRun(void) {
  DiagnosticLog log;
  SluiceCompilerSession session = newSession(&log);
  SluiceCompilerInvocation inv = NULL;
  CHECK_OK(sluiceCompilerInvocationCreate(session, &inv));
  SluiceBuilder b = NULL;
  CHECK_OK(sluiceBuilderCreate(inv, &b));
  CHECK_OK(sluiceBuilderSetLocation(b, "model.py", 10, 1));

  int64_t dyn[] = {-1};
  SluiceType vec = NULL, scalar = NULL;
  CHECK_OK(sluiceBuilderArrayType(b, SLUICE_DTYPE_FLOAT32, 1, dyn, "host:cpu:0",
                                  NULL, SLUICE_USM_DEVICE, &vec));
  CHECK_CONTAINS(sluiceBuilderPrintType(b, vec),
                 "!usm.array<?xf32, \"host:cpu:0\", device>");
  CHECK_OK(sluiceBuilderScalarType(b, SLUICE_DTYPE_FLOAT32, &scalar));
  CHECK_CONTAINS(sluiceBuilderPrintType(b, scalar), "f32");

  CHECK_OK(sluiceBuilderBeginFunction(b, "main"));
  SluiceValue x = NULL, y = NULL, half = NULL;
  CHECK_OK(sluiceBuilderAddArgument(b, vec, &x));
  CHECK_OK(sluiceBuilderAddArgument(b, vec, &y));
  CHECK(sluiceValueGetType(x) == vec);
  CHECK_OK(sluiceBuilderConstant(b, SLUICE_DTYPE_FLOAT32, 0, 0.5, &half));
  SluiceValue r =
      op2(b, "usm.add",
          op2(b, "usm.mul", op1(b, "usm.sqrt", op1(b, "usm.abs", x)), y), half);
  CHECK(sluiceValueGetType(r) == vec);
  CHECK_OK(sluiceBuilderReturn(b, 1, &r));

  /* A reduction with an attribute, and given result types. */
  CHECK_OK(sluiceBuilderBeginFunction(b, "total"));
  SluiceValue v = NULL;
  CHECK_OK(sluiceBuilderAddArgument(b, vec, &v));
  SluiceNamedAttribute axes = {"axes", "array<i64: 0>"};
  SluiceType rank0 = NULL;
  CHECK_OK(sluiceBuilderArrayType(b, SLUICE_DTYPE_FLOAT32, 0, NULL,
                                  "host:cpu:0", NULL, SLUICE_USM_DEVICE,
                                  &rank0));
  SluiceValue s = NULL;
  CHECK_OK(sluiceBuilderCreateOp(b, "usm.sum", 1, &v, 1, &axes, 1, &rank0, 1,
                                 &s, NULL));
  CHECK_OK(sluiceBuilderReturn(b, 1, &s));
  CHECK(log.errors == 0);
  sluiceBuilderDestroy(b);

  const char *ir;
  CHECK_OK(sluiceCompilerInvocationGetIR(inv, 1, &ir, NULL));
  CHECK_CONTAINS(ir, "usm.sqrt");
  CHECK_CONTAINS(ir, "model.py");
  CHECK_CONTAINS(ir, "usm.sum");

  SluiceExecutable exe = NULL;
  CHECK_OK(sluiceCompilerInvocationCreateExecutable(inv, &exe));
  CHECK(sluiceExecutableGetEntryCount(exe) == 2);
  SluiceEntryPoint mainEntry = NULL, totalEntry = NULL;
  CHECK_OK(sluiceExecutableLookup(exe, "main", &mainEntry));
  CHECK_OK(sluiceExecutableLookup(exe, "total", &totalEntry));
  /* Two entries and no main: the name is needed. */
  enum { N = 777 };
  float *xs = hostFloats(N), *ys = hostFloats(N);
  for (int i = 0; i < N; ++i) {
    xs[i] = (float)(i % 17) - 8.0f;
    ys[i] = 0.25f * (float)(i % 5);
  }
  if (mainEntry) {
    float *args[] = {xs, ys};
    int32_t status = -1;
    Memref1D out = call1D(mainEntry, 2, args, N, &status);
    CHECK(status == 0 && out.size == N);
    int wrong = 0;
    for (int i = 0; status == 0 && i < N; ++i) {
      float expect = sqrtf(fabsf(xs[i])) * ys[i] + 0.5f;
      const float *o = (const float *)out.aligned + out.offset;
      wrong += fabsf(o[i] - expect) > 1e-5f * (1.0f + fabsf(expect));
    }
    CHECK(wrong == 0);
    sluiceFree(NULL, out.allocated);
  }
  if (totalEntry) {
    Memref1D in = {xs, xs, 0, N, 1};
    struct {
      void *allocated, *aligned;
      int64_t offset;
    } out = {0, 0, 0};
    void *argv[] = {&in.allocated, &in.aligned, &in.offset,
                    &in.size,      &in.stride,  &out};
    CHECK(totalEntry(argv) == 0);
    double expect = 0;
    for (int i = 0; i < N; ++i)
      expect += xs[i];
    CHECK(out.aligned &&
          fabs(((float *)out.aligned)[out.offset] - expect) < 1e-3);
    sluiceFree(NULL, out.allocated);
  }
  sluiceFree(NULL, xs);
  sluiceFree(NULL, ys);
  sluiceExecutableDestroy(exe);
  sluiceCompilerInvocationDestroy(inv);
  sluiceCompilerSessionDestroy(session);
}

/* Unsigned constants and casts go through the pipeline. */
static void testUnsigned(void) {
  DiagnosticLog log;
  SluiceCompilerSession session = newSession(&log);
  SluiceCompilerInvocation inv = NULL;
  CHECK_OK(sluiceCompilerInvocationCreate(session, &inv));
  SluiceBuilder b = NULL;
  CHECK_OK(sluiceBuilderCreate(inv, &b));
  int64_t shape[] = {4};
  SluiceType u32 = NULL, f32 = NULL;
  CHECK_OK(sluiceBuilderArrayType(b, SLUICE_DTYPE_UINT32, 1, shape,
                                  "host:cpu:0", NULL, SLUICE_USM_SHARED, &u32));
  CHECK_OK(sluiceBuilderArrayType(b, SLUICE_DTYPE_FLOAT32, 1, shape,
                                  "host:cpu:0", NULL, SLUICE_USM_SHARED, &f32));
  CHECK_OK(sluiceBuilderBeginFunction(b, "main"));
  SluiceValue x = NULL, big = NULL;
  CHECK_OK(sluiceBuilderAddArgument(b, u32, &x));
  CHECK_OK(
      sluiceBuilderConstant(b, SLUICE_DTYPE_UINT32, 4000000000LL, 0, &big));
  SluiceValue sum = op2(b, "usm.add", x, big);
  SluiceValue asFloat = NULL;
  CHECK_OK(sluiceBuilderCreateOp(b, "usm.astype", 1, &sum, 0, NULL, 1, &f32, 1,
                                 &asFloat, NULL));
  CHECK_OK(sluiceBuilderReturn(b, 1, &asFloat));
  sluiceBuilderDestroy(b);
  SluiceExecutable exe = NULL;
  CHECK_OK(sluiceCompilerInvocationCreateExecutable(inv, &exe));
  SluiceEntryPoint entry = NULL;
  CHECK_OK(sluiceExecutableLookup(exe, NULL, &entry));
  if (entry) {
    uint32_t *in = (uint32_t *)hostFloats(4);
    for (int i = 0; i < 4; ++i)
      in[i] = (uint32_t)i * 100000000u;
    float *args[] = {(float *)in};
    int32_t status = -1;
    Memref1D out = call1D(entry, 1, args, 4, &status);
    CHECK(status == 0);
    for (int i = 0; status == 0 && i < 4; ++i) {
      uint32_t expect = 4000000000u + (uint32_t)i * 100000000u;
      CHECK(((float *)out.aligned)[out.offset + i] == (float)expect);
    }
    sluiceFree(NULL, out.allocated);
    sluiceFree(NULL, in);
  }
  CHECK(log.errors == 0);
  sluiceExecutableDestroy(exe);
  sluiceCompilerInvocationDestroy(inv);
  sluiceCompilerSessionDestroy(session);
}

static void testErrors(void) {
  DiagnosticLog log;
  SluiceCompilerSession session = newSession(&log);
  SluiceCompilerInvocation inv = NULL;
  CHECK_OK(sluiceCompilerInvocationCreate(session, &inv));
  SluiceBuilder b = NULL;
  CHECK_OK(sluiceBuilderCreate(inv, &b));
  CHECK_OK(sluiceBuilderSetLocation(b, "user.py", 42, 7));
  int64_t shape[] = {8};
  SluiceType f32 = NULL, i32 = NULL, t = NULL;
  CHECK_OK(sluiceBuilderArrayType(b, SLUICE_DTYPE_FLOAT32, 1, shape,
                                  "host:cpu:0", NULL, SLUICE_USM_DEVICE, &f32));
  CHECK_OK(sluiceBuilderArrayType(b, SLUICE_DTYPE_INT32, 1, shape,
                                  "opencl:cpu:0", "worker", SLUICE_USM_DEVICE,
                                  &i32));
  CHECK_CONTAINS(sluiceBuilderPrintType(b, i32),
                 "\"opencl:cpu:0\"(\"worker\")");

  /* Types: bad dtype, size, device, kind; parsed types. */
  CHECK_STATUS(sluiceBuilderArrayType(b, (SluiceDType)77, 1, shape,
                                      "host:cpu:0", NULL, SLUICE_USM_DEVICE,
                                      &t),
               SLUICE_ERROR_INVALID_VALUE);
  int64_t negative[] = {-5};
  CHECK_STATUS(sluiceBuilderArrayType(b, SLUICE_DTYPE_FLOAT32, 1, negative,
                                      "host:cpu:0", NULL, SLUICE_USM_DEVICE,
                                      &t),
               SLUICE_ERROR_INVALID_VALUE);
  clearLog(&log);
  CHECK_STATUS(sluiceBuilderArrayType(b, SLUICE_DTYPE_FLOAT32, 1, shape,
                                      "gpu:x:y:z", NULL, SLUICE_USM_DEVICE, &t),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_CONTAINS(log.text, "user.py:42:7");
  CHECK_STATUS(sluiceBuilderArrayType(b, SLUICE_DTYPE_FLOAT32, 1, shape,
                                      "host:cpu:0", NULL, 9, &t),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_OK(sluiceBuilderParseType(b, "index", &t));
  CHECK_STATUS(sluiceBuilderParseType(b, "!usm.nonsense<", &t),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_OK(sluiceBuilderArrayType(b, SLUICE_DTYPE_FLOAT32, 1, shape, NULL, NULL,
                                  0, &t));
  CHECK_CONTAINS(sluiceBuilderPrintType(b, t), "?>");

  /* Ops outside a function. */
  SluiceValue v = NULL;
  CHECK_STATUS(sluiceBuilderAddArgument(b, f32, &v),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_STATUS(sluiceBuilderReturn(b, 0, NULL), SLUICE_ERROR_INVALID_VALUE);
  CHECK_STATUS(sluiceBuilderConstant(b, SLUICE_DTYPE_FLOAT32, 0, 1.0, &v),
               SLUICE_ERROR_INVALID_VALUE);

  CHECK_OK(sluiceBuilderBeginFunction(b, "f"));
  SluiceValue a = NULL, c = NULL, r = NULL;
  CHECK_OK(sluiceBuilderAddArgument(b, f32, &a));
  CHECK_OK(sluiceBuilderAddArgument(b, i32, &c));
  /* The pipeline cannot run while a function is open. */
  CHECK_STATUS(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_PLACED),
               SLUICE_ERROR_INVALID_VALUE);
  /* An unknown op, a terminator, a type error, a bad attribute. */
  clearLog(&log);
  SluiceValue both[] = {a, c};
  CHECK_STATUS(sluiceBuilderCreateOp(b, "usm.frobnicate", 1, &a, 0, NULL, 0,
                                     NULL, 1, &r, NULL),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK_CONTAINS(log.text, "user.py:42:7: error: unknown operation");
  CHECK_STATUS(sluiceBuilderCreateOp(b, "func.return", 1, &a, 0, NULL, 0, NULL,
                                     0, NULL, NULL),
               SLUICE_ERROR_INVALID_VALUE);
  clearLog(&log);
  CHECK_STATUS(sluiceBuilderCreateOp(b, "usm.add", 2, both, 0, NULL, 0, NULL, 1,
                                     &r, NULL),
               SLUICE_ERROR_INVALID_VALUE);
  CHECK(log.errors >= 1);
  CHECK_CONTAINS(log.text, "user.py:42:7");
  SluiceNamedAttribute bad = {"axes", "array<i64: "};
  CHECK_STATUS(
      sluiceBuilderCreateOp(b, "usm.sum", 1, &a, 1, &bad, 0, NULL, 1, &r, NULL),
      SLUICE_ERROR_INVALID_VALUE);
  SluiceNamedAttribute outOfRange = {"axes", "array<i64: 3>"};
  CHECK_STATUS(sluiceBuilderCreateOp(b, "usm.sum", 1, &a, 1, &outOfRange, 0,
                                     NULL, 1, &r, NULL),
               SLUICE_ERROR_INVALID_VALUE);
  /* Given result types that do not verify. */
  CHECK_STATUS(
      sluiceBuilderCreateOp(b, "usm.exp", 1, &a, 0, NULL, 1, &i32, 1, &r, NULL),
      SLUICE_ERROR_INVALID_VALUE);
  /* A NULL operand. */
  SluiceValue nullOperand[] = {NULL};
  CHECK_STATUS(sluiceBuilderCreateOp(b, "usm.exp", 1, nullOperand, 0, NULL, 0,
                                     NULL, 1, &r, NULL),
               SLUICE_ERROR_INVALID_VALUE);
  /* The failed ops left nothing behind: the function still verifies. */
  r = op1(b, "usm.exp", a);
  CHECK_OK(sluiceBuilderReturn(b, 1, &r));
  /* A duplicate name. */
  CHECK_STATUS(sluiceBuilderBeginFunction(b, "f"), SLUICE_ERROR_INVALID_VALUE);
  /* An unfinished function is dropped when the next one begins. */
  CHECK_OK(sluiceBuilderBeginFunction(b, "g"));
  CHECK_OK(sluiceBuilderAddArgument(b, f32, &a));
  CHECK_OK(sluiceBuilderBeginFunction(b, "h"));
  CHECK_OK(sluiceBuilderReturn(b, 0, NULL));
  sluiceBuilderDestroy(b);
  const char *ir;
  CHECK_OK(sluiceCompilerInvocationGetIR(inv, 0, &ir, NULL));
  CHECK_CONTAINS(ir, "func.func @f(");
  CHECK_CONTAINS(ir, "func.func @h()");
  CHECK(strstr(ir, "@g(") == NULL);
  CHECK(strstr(ir, "frobnicate") == NULL);

  /* A compiled module cannot be built on. */
  CHECK_OK(sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_PLACED));
  CHECK_STATUS(sluiceBuilderCreate(inv, &b), SLUICE_ERROR_INVALID_VALUE);
  CHECK_STATUS(sluiceBuilderCreate(NULL, &b), SLUICE_ERROR_INVALID_VALUE);
  CHECK(sluiceValueGetType(NULL) == NULL);
  CHECK_CONTAINS(sluiceBuilderPrintType(NULL, f32), "");
  sluiceBuilderDestroy(NULL);

  /* An invocation destroyed before its builder. */
  SluiceCompilerInvocation other = NULL;
  CHECK_OK(sluiceCompilerInvocationCreate(session, &other));
  CHECK_OK(sluiceBuilderCreate(other, &b));
  CHECK_OK(sluiceBuilderBeginFunction(b, "k"));
  sluiceCompilerInvocationDestroy(other);
  sluiceBuilderDestroy(b);

  sluiceCompilerInvocationDestroy(inv);
  sluiceCompilerSessionDestroy(session);
}

int main(void) {
  testBuildAndRun();
  testUnsigned();
  testErrors();
  return capiTestFinish("builder");
}
