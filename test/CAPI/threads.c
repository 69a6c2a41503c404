/* One session used from several threads at once: every compile succeeds
 * and every program computes the right numbers. */
#include "CAPITest.h"

#include <pthread.h>

enum { THREADS = 4, ROUNDS = 3 };

static SluiceCompilerSession shared;
static int okCount[THREADS];

static void *compileAndRun(void *arg) {
  int id = (int)(intptr_t)arg;
  for (int round = 0; round < ROUNDS; ++round) {
    SluiceCompilerInvocation inv = NULL;
    SluiceExecutable exe = NULL;
    SluiceEntryPoint entry = NULL;
    if (sluiceCompilerInvocationCreate(shared, &inv) != SLUICE_SUCCESS ||
        sluiceCompilerInvocationParseSource(inv, kSaxpy, strlen(kSaxpy),
                                            "t.mlir") != SLUICE_SUCCESS ||
        sluiceCompilerInvocationRunPipeline(inv, SLUICE_STAGE_FUSED) !=
            SLUICE_SUCCESS ||
        sluiceCompilerInvocationCreateExecutable(inv, &exe) != SLUICE_SUCCESS ||
        sluiceExecutableLookup(exe, "main", &entry) != SLUICE_SUCCESS) {
      sluiceCompilerInvocationDestroy(inv);
      sluiceExecutableDestroy(exe);
      continue;
    }
    sluiceCompilerInvocationDestroy(inv);
    enum { N = 64 };
    float *x = hostFloats(N), *y = hostFloats(N);
    for (int i = 0; i < N; ++i) {
      x[i] = (float)(i + id);
      y[i] = (float)round;
    }
    float *args[] = {x, y};
    int32_t status = -1;
    Memref1D r = call1D(entry, 2, args, N, &status);
    int good = status == 0 && r.size == N;
    for (int i = 0; good && i < N; ++i)
      good = ((float *)r.aligned)[r.offset + i] ==
             2.0f * (float)(i + id) + (float)round;
    okCount[id] += good;
    if (status == 0)
      sluiceFree(NULL, r.allocated);
    sluiceFree(NULL, x);
    sluiceFree(NULL, y);
    sluiceExecutableDestroy(exe);
  }
  return NULL;
}

int main(void) {
  CHECK_OK(sluiceCompilerSessionCreate(&shared));
  pthread_t threads[THREADS];
  for (int i = 0; i < THREADS; ++i)
    CHECK(pthread_create(&threads[i], NULL, compileAndRun,
                         (void *)(intptr_t)i) == 0);
  for (int i = 0; i < THREADS; ++i)
    pthread_join(threads[i], NULL);
  for (int i = 0; i < THREADS; ++i)
    CHECK(okCount[i] == ROUNDS);
  sluiceCompilerSessionDestroy(shared);
  return capiTestFinish("threads");
}
