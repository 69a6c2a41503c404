//===- Queue.h - In-order asynchronous queue --------------------*- C++ -*-===//
#ifndef SLUICE_RUNTIME_QUEUE_H
#define SLUICE_RUNTIME_QUEUE_H

#include "sluice/Runtime/Device.h"
#include "sluice/Runtime/Event.h"
#include "sluice/Runtime/KernelArgs.h"

#include <atomic>
#include <mutex>

namespace sluice::rt {

class Kernel;

/// A batched matrix product for a backend's library (BLAS, cuBLAS):
/// C[i] = A[i] @ B[i] for i < batch, A[i] an m x k matrix at
/// a + i * aBatch with element (r, c) at r * aRow + c * aCol, B likewise
/// (k x n), C an m x n matrix at c + i * cBatch with rows cRow apart and
/// contiguous rows. Strides count elements; a batch stride of 0 broadcasts.
struct MatmulDesc {
  enum Type : int32_t { F32 = 0, F64 = 1, C64 = 2, C128 = 3 };
  /// The arithmetic of float32 products where a library offers a choice:
  /// full fp32 (the default), TF32 or bf16 tensor-core modes.
  enum Precision : int32_t { Highest = 0, TF32 = 1, BF16 = 2 };
  int32_t type = F32;
  int32_t precision = Highest;
  uint64_t batch = 1, m = 0, n = 0, k = 0;
  const void *a = nullptr;
  int64_t aBatch = 0, aRow = 0, aCol = 1;
  const void *b = nullptr;
  int64_t bBatch = 0, bRow = 0, bCol = 1;
  void *c = nullptr;
  int64_t cBatch = 0, cRow = 0;
};

/// An in-order queue on one device. Submissions return at once; the task
/// runs after the queue's earlier tasks and after its dependencies.
/// Backends implement the submit* operations; validation, USM bookkeeping
/// and cross-device staging happen in the layer above (the C API).
/// Every submission produces an event.
class Queue : public RefCounted {
public:
  explicit Queue(Device &device) : dev(device) {}
  /// Gives the device's blocks kept for this queue back (ReusableBlocks).
  ~Queue() override;

  Device &device() const { return dev; }
  bool isCanonical() const { return canonical; }
  void setCanonical() { canonical = true; }
  /// Whether every task of the queue must carry profiling timestamps
  /// (dpctl's "enable_profiling" property). Backends whose every task has
  /// them anyway ignore it; CUDA then marks every task with an event, which
  /// costs a driver call per task, instead of only where one is needed.
  bool profilingEnabled() const {
    return profiling.load(std::memory_order_relaxed);
  }
  void setProfiling(bool on) { profiling.store(on, std::memory_order_relaxed); }

  /// Copies between memory this queue can reach (its context's USM, or host
  /// memory).
  SluiceStatus copy(void *dst, const void *src, size_t bytes,
                    const EventList &deps, Ref<Event> &out);
  /// Repeats `pattern` (patternSize bytes, a power of two <= 128) over
  /// `bytes` bytes of dst.
  SluiceStatus fill(void *dst, const void *pattern, size_t patternSize,
                    size_t bytes, const EventList &deps, Ref<Event> &out);
  SluiceStatus launch(Kernel &kernel, const uint64_t grid[3],
                      const uint64_t local[3], KernelArgs args,
                      const EventList &deps, Ref<Event> &out);
  /// A batched matrix product by the backend's library (MatmulDesc);
  /// SLUICE_ERROR_UNSUPPORTED where the backend has none.
  SluiceStatus matmul(const MatmulDesc &desc, const EventList &deps,
                      Ref<Event> &out);
  /// A task that does nothing but finish after `deps` and earlier tasks.
  SluiceStatus barrier(const EventList &deps, Ref<Event> &out);
  /// Blocks until every submitted task finished; reports a task that
  /// failed since the last wait.
  virtual SluiceStatus wait() = 0;
  /// The backend's handle (CUstream, cl_command_queue), or null.
  virtual void *nativeHandle() { return nullptr; }
  /// A zeroed 32-bit word of device memory that the queue owns for its
  /// life (made with the queue), for kernels that count their finished
  /// workgroups: a CUDA reduction to one output takes a ticket from it, and
  /// its last workgroup folds the partials and sets it back to zero. The
  /// queue runs its tasks in order, so no two launches use it at once, and
  /// each finds it zero; queues never share one. SLUICE_ERROR_UNSUPPORTED
  /// where the backend has none (every backend but CUDA).
  virtual SluiceStatus launchCounter(void *&out);
  /// Launches the backend replayed from a recorded graph instead of
  /// submitting them afresh (CUDA graphs; 0 elsewhere), for tests and
  /// benchmarks.
  virtual uint64_t replayedLaunches() { return 0; }

  /// Runs host kernel `fn` over `grid` groups (args as SluiceHostKernelFn
  /// takes them) on the calling thread at once when the queue has nothing
  /// queued or running, so queue order holds, and returns true: no task,
  /// no event. False, having run nothing, when the queue is busy or the
  /// backend has no such path. Only for a caller that would wait for the
  /// launch anyway (a compiled program's entry): the launch is not
  /// asynchronous.
  virtual bool launchHostNow(SluiceHostKernelFn fn, const uint64_t grid[3],
                             void **args) {
    (void)fn;
    (void)grid;
    (void)args;
    return false;
  }

  /// Remembers the newest task (in-order: its end means all ended).
  void noteSubmitted(const Ref<Event> &event);
  Ref<Event> lastEvent();

protected:
  // Backends implement these; the public wrappers record the submission.
  virtual SluiceStatus submitCopy(void *dst, const void *src, size_t bytes,
                                  const EventList &deps, Ref<Event> &out) = 0;
  virtual SluiceStatus submitFill(void *dst, const void *pattern,
                                  size_t patternSize, size_t bytes,
                                  const EventList &deps, Ref<Event> &out) = 0;
  virtual SluiceStatus submitLaunch(Kernel &kernel, const uint64_t grid[3],
                                    const uint64_t local[3], KernelArgs args,
                                    const EventList &deps, Ref<Event> &out) = 0;
  virtual SluiceStatus submitBarrier(const EventList &deps,
                                     Ref<Event> &out) = 0;
  virtual SluiceStatus submitMatmul(const MatmulDesc &desc,
                                    const EventList &deps, Ref<Event> &out);

private:
  Device &dev;
  bool canonical = false;
  std::atomic<bool> profiling{false};
  std::mutex lastMutex;
  Ref<Event> last;
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_QUEUE_H
