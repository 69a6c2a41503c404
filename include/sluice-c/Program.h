/*===- sluice-c/Program.h - Runtime support for compiled programs -*- C -*-===//
 *
 * The calls that host code compiled by Sluice makes: one per queue lookup,
 * allocation, copy, module load and kernel launch, between a
 * sluiceProgramBegin/sluiceProgramEnd pair. They are part of
 * `libsluice-runtime.so` and sit on top of the C API of sluice-c/Runtime.h.
 * The signatures are a contract with the compiler: pointers are `void *`
 * (queues are SluiceQueue, modules SluiceModule), integers fixed width.
 *
 * Conventions
 * - Invocations. sluiceProgramBegin starts an invocation on the calling
 *   thread; sluiceProgramEnd waits for its work and returns its status. The
 *   state is thread-local: threads run invocations independently (they may
 *   share queues). Invocations do not nest on one thread: a Begin discards
 *   the state of the invocation in progress (its submitted work still
 *   runs). Calls made outside Begin/End belong to an implicit invocation
 *   that starts when the thread first calls in, or at the previous End, and
 *   ends at the next End (which reports its errors).
 * - Errors are sticky. The functions return nothing (or NULL); the first
 *   failure of an invocation is recorded with its message, and from then on
 *   every function of this header is a no-op that returns NULL where it
 *   returns a pointer (so a failed allocation never leads to a launch on
 *   NULL). sluiceProgramFree is the exception: it still releases memory,
 *   so that a failed run leaks nothing, but records no further error.
 *   sluiceProgramEnd returns the first failure's SluiceStatus (0 on
 *   success) and leaves its message in sluiceGetLastErrorMessage().
 * - Ordering. Queues are in order (sluice-c/Runtime.h). Work submitted by
 *   one invocation is also ordered across queues where a copy connects
 *   them: a copy runs after all earlier work of the invocation on both of
 *   its queues, and later work on either queue runs after the copy.
 * - Caches. Queues, modules and kernels are looked up in process-wide
 *   caches keyed by the addresses the caller passes (static data of the
 *   compiled program), so the steady state does no string work and no
 *   allocation beyond what sluiceLaunch does. Strings are also compared by
 *   content, so they need not be static; module binaries must not change
 *   while the process runs.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SLUICE_C_PROGRAM_H
#define SLUICE_C_PROGRAM_H

#include "sluice-c/Runtime.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===---------------------------- Invocations ----------------------------===*/

/* Starts an invocation on this thread: no failure recorded, no queue
 * touched. */
SLUICE_RT_EXPORT void sluiceProgramBegin(void);
/* Waits until every queue the invocation submitted work to is idle (the
 * whole queue, including work other threads put there), then returns the
 * first SluiceStatus recorded during the invocation (0 = success; a task
 * that failed while running counts too, as SLUICE_ERROR_TASK_FAILED). The
 * failure's message stays in sluiceGetLastErrorMessage(). Ends the
 * invocation: later calls start a new (implicit) one. */
SLUICE_RT_EXPORT int32_t sluiceProgramEnd(void);
/* Process-wide, off by default. When on, sluiceProgramEnd returns as soon
 * as the invocation's work is submitted (with the first failure of the
 * submission, or 0), without waiting for the queues: a compiled call then
 * costs only its submission, and its results are complete once their queue
 * has been waited for (sluiceQueueWait, or a copy to the host waited for).
 * A task that fails while running is reported by that wait. Memory stays
 * safe either way: frees wait for the work that uses the memory. */
SLUICE_RT_EXPORT void sluiceProgramSetAsynchronous(int enabled);
/* The same for the calling thread only: 1 asynchronous, 0 waiting, -1
 * (the default) following the process-wide setting. */
SLUICE_RT_EXPORT void sluiceProgramSetThreadAsynchronous(int mode);
/* After an asynchronous sluiceProgramEnd on this thread: the newest task of
 * each queue the invocation submitted work to, whose completion is the
 * invocation's on that queue (queues are in order). Writes at most
 * `capacity` events (new references: release them; `events` may be NULL,
 * then none is kept) and their queues (borrowed; may be NULL), and returns
 * how many there were. Forgets them: a second call returns 0. */
SLUICE_RT_EXPORT uint32_t sluiceProgramTakeEvents(SluiceEvent *events,
                                                  SluiceQueue *queues,
                                                  uint32_t capacity);

/* Records a failure of the program itself: a run-time check that the
 * compiled code makes (dynamic shapes that cannot be broadcast together, a
 * reshape that changes the element count, a reduction without identity over
 * nothing). Like any failure it is sticky: later calls of the invocation do
 * nothing, so no kernel runs on the shapes that failed the check. The
 * message is `format` with each "{i}" replaced by values[i] in decimal
 * (0 <= i < numValues) and each "{{" by "{"; other text is copied as is.
 * `status` is a SluiceStatus other than SLUICE_SUCCESS (the compiler uses
 * SLUICE_ERROR_INVALID_VALUE); an invalid one is recorded as
 * SLUICE_ERROR_INVALID_VALUE. Nothing happens when the invocation already
 * failed: the first failure is the one reported. */
SLUICE_RT_EXPORT void sluiceProgramFail(int32_t status, const char *format,
                                        uint32_t numValues,
                                        const int64_t *values);

/*===------------------------------- Queues ------------------------------===*/

/* The queue a placement names. `device` is a normalised filter string
 * "backend:type:index" ("host:cpu:0", "opencl:cpu:0"; any dpctl filter
 * selector works); `name` is "" (or NULL) for the device's canonical queue,
 * otherwise a named queue: a distinct queue created once per (device, name)
 * with sluiceQueueCreate and kept for the life of the process. With a
 * device override (below) the queue is put on the override's device
 * instead, under the same name. Returns a borrowed SluiceQueue, or NULL
 * after recording the failure (the message names `device`). */
SLUICE_RT_EXPORT void *sluiceProgramQueue(const char *device, const char *name);

/* Process-wide rebinding: every queue requested afterwards through
 * sluiceProgramQueue lives on the device `selector` picks, whatever device
 * the program names: canonical queues become the canonical queue of that
 * device, a queue named N becomes that device's queue named N (so queues of
 * one name on different devices share one queue: that only adds ordering).
 * `selector` is a dpctl filter selector ("host", "opencl:cpu:0", "gpu,cpu")
 * or, when it is not one, a SLUICE_DEVICE_SELECTOR-style string
 * ("*:cpu;!opencl:*": the first visible device it accepts, indices counting
 * the visible devices of each backend). NULL or "" clears the override.
 * Queues returned earlier stay valid. A bad selector is reported by
 * sluiceProgramQueue (every lookup then fails). */
SLUICE_RT_EXPORT void sluiceProgramSetDeviceOverride(const char *selector);
/* The same, but the selector is resolved at once: on failure
 * (SLUICE_ERROR_INVALID_SELECTOR, SLUICE_ERROR_DEVICE_NOT_FOUND, with the
 * message) the override is left as it was. For tools (`--device=`). */
SLUICE_RT_EXPORT SluiceStatus
sluiceProgramSetDeviceOverrideChecked(const char *selector);

/*===-------------------------------- Memory -----------------------------===*/

/* sluiceMalloc of `bytes` bytes of SluiceUsmKind `kind` on the queue's
 * device, aligned to 64 bytes. `bytes` == 0 still gives a valid, unique
 * pointer (64 bytes are allocated) that sluiceProgramFree accepts. NULL
 * after recording the failure (also for a NULL queue). */
SLUICE_RT_EXPORT void *sluiceProgramAlloc(void *queue, int32_t kind,
                                          uint64_t bytes);
/* sluiceFree: the memory is released once the work that may use it has
 * finished. NULL `ptr` does nothing; `queue` may be NULL (the allocation's
 * own queue is used). */
SLUICE_RT_EXPORT void sluiceProgramFree(void *queue, void *ptr);
/* Copies `bytes` bytes from `src` (memory of srcQueue's device, or plain
 * host memory) to `dst` (memory of dstQueue's device, or plain host
 * memory), after all earlier work of this invocation on both queues; later
 * work on either queue runs after the copy. The copy is submitted on
 * dstQueue, depending on srcQueue's newest task when the queues differ;
 * where dstQueue cannot reach both sides (device memory of another backend
 * or context) it is staged through host memory. Any two devices work.
 * Either queue (not both) may be NULL for plain host memory; 0 bytes do
 * nothing. */
SLUICE_RT_EXPORT void sluiceProgramCopy(void *dstQueue, void *dst,
                                        void *srcQueue, const void *src,
                                        uint64_t bytes);

/*===-------------------------- Modules, launches ------------------------===*/

/* sluiceModuleCreate(format, bytes, size) for the queue's device, built once
 * per (device, format, bytes address, size) for the life of the process: the
 * bytes are static data of the compiled program and must not change. A
 * failed build records SLUICE_ERROR_BUILD_FAILED with the build log in the
 * message. Returns a borrowed SluiceModule, or NULL. */
SLUICE_RT_EXPORT void *sluiceProgramModule(void *queue, int32_t format,
                                           const void *bytes, uint64_t size);
/* Launches kernel `kernel` of `module` on the queue: gx*gy*gz workgroups
 * (the number of groups per dimension, as sluiceLaunch's `grid`: NOT the
 * global size) of lx*ly*lz work-items each. A grid with a zero dimension
 * launches nothing (an empty array), local sizes must be >= 1. Runs after
 * the invocation's earlier work on the queue and any copy that must precede
 * it. argValues[i] points to the value of argument i, argSizes[i] bytes (a
 * pointer argument: argValues[i] points to the pointer); the values are
 * copied before the call returns. Kernels are looked up once per (module,
 * name). */
SLUICE_RT_EXPORT void sluiceProgramLaunch(void *queue, void *module,
                                          const char *kernel, uint64_t gx,
                                          uint64_t gy, uint64_t gz, uint64_t lx,
                                          uint64_t ly, uint64_t lz,
                                          uint32_t numArgs, void **argValues,
                                          const uint64_t *argSizes);
/* The queue's launch counter: a zeroed 32-bit word of device memory that
 * the queue owns (one per queue, never shared), passed to kernels that count
 * their finished workgroups; such a kernel leaves it zero. The queue's order
 * keeps two launches from using it at once. Only CUDA queues have one:
 * elsewhere (or for a NULL queue) the invocation fails with a message and
 * NULL is returned. */
SLUICE_RT_EXPORT void *sluiceProgramLaunchCounter(void *queue);
/* Launches `fn`, a SluiceHostKernelFn of this process (linked into the
 * program or JIT-compiled), on a host-backend queue: gx*gy*gz workgroups of
 * one work-item each (local size 1x1x1; `fn` is called once per group, with
 * the group's id). Arguments as for sluiceProgramLaunch. A module of host
 * functions (sluiceModuleCreateHostFunctions) is made once per (device, fn).
 * Other backends' queues record SLUICE_ERROR_UNSUPPORTED. */
SLUICE_RT_EXPORT void sluiceProgramLaunchHost(void *queue, void *fn,
                                              uint64_t gx, uint64_t gy,
                                              uint64_t gz, uint32_t numArgs,
                                              void **argValues,
                                              const uint64_t *argSizes);

/*===--------------------------- Library calls ---------------------------===*/

/* A batched matrix product computed by the queue's library: C[i] = A[i] @
 * B[i] for i < batch, A[i] m x k at a + i*aBatch with element (r, c) at
 * r*aRow + c*aCol, B[i] k x n likewise, C[i] m x n at c + i*cBatch with rows
 * cRow apart and contiguous rows; strides in elements, a batch stride of 0
 * broadcasts. `type`: 0 float32, 1 float64, 2 complex64, 3 complex128.
 * Host queues run the GEMM of the BLAS found at run time (OpenBLAS, BLIS,
 * $SLUICE_BLAS), CUDA queues cuBLAS (loaded at run time); float32 products
 * on CUDA honour $SLUICE_MATMUL_PRECISION (highest, tf32, bf16), read at
 * each call. Other backends record SLUICE_ERROR_UNSUPPORTED. Ordered like
 * a launch. */
SLUICE_RT_EXPORT void
sluiceProgramMatmul(void *queue, int32_t type, uint64_t batch, uint64_t m,
                    uint64_t n, uint64_t k, const void *a, int64_t aBatch,
                    int64_t aRow, int64_t aCol, const void *b, int64_t bBatch,
                    int64_t bRow, int64_t bCol, void *c, int64_t cBatch,
                    int64_t cRow);

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_C_PROGRAM_H */
