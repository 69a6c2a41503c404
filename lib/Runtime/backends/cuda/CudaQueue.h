//===- CudaQueue.h - An in-order queue as a CUDA stream ---------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_CUDA_CUDAQUEUE_H
#define SLUICE_LIB_RUNTIME_CUDA_CUDAQUEUE_H

#include "CudaDriver.h"
#include "CudaLaunchReplay.h"

#include "sluice/Runtime/Queue.h"

#include <memory>
#include <mutex>

namespace sluice::rt::cuda {

class CudaDevice;
struct BlasHandle;
class CudaEvent;
struct TaskMark;
struct StreamProgress;

/// A non-blocking stream of the device's primary context. A task gets a
/// CUevent after it only where something needs one (see StreamProgress),
/// or, on a profiling queue (Queue::profilingEnabled), every task does.
/// A kernel launched again is replayed from a CUDA graph (LaunchReplay;
/// $SLUICE_CUDA_GRAPHS=off: never).
/// $SLUICE_CUDA_TIMESTAMPS overrides the property: "off" marks only where
/// needed, "on" every task, "exact" also starts every task with one (exact
/// start times, one more driver call per task). Dependencies on CUDA events of
/// other streams become cuStreamWaitEvent; an unfinished event of another
/// backend is waited for on the submitting thread (it was submitted earlier, so
/// it finishes).
class CudaQueue final : public Queue {
public:
  static SluiceStatus create(CudaDevice &device, Ref<Queue> &out);
  ~CudaQueue() override;

  CUstream handle() const { return stream; }
  SluiceStatus wait() override;
  void *nativeHandle() override { return stream; }
  uint64_t replayedLaunches() override;
  SluiceStatus launchCounter(void *&out) override;

protected:
  SluiceStatus submitCopy(void *dst, const void *src, size_t bytes,
                          const EventList &deps, Ref<Event> &out) override;
  SluiceStatus submitFill(void *dst, const void *pattern, size_t patternSize,
                          size_t bytes, const EventList &deps,
                          Ref<Event> &out) override;
  SluiceStatus submitLaunch(Kernel &kernel, const uint64_t grid[3],
                            const uint64_t local[3], KernelArgs args,
                            const EventList &deps, Ref<Event> &out) override;
  SluiceStatus submitBarrier(const EventList &deps, Ref<Event> &out) override;
  SluiceStatus submitMatmul(const MatmulDesc &desc, const EventList &deps,
                            Ref<Event> &out) override;

private:
  CudaQueue(CudaDevice &device, CUstream stream, CUdeviceptr counter);
  /// Orders the stream after `deps`, runs `work` (which returns the
  /// driver's result; null: no work) and returns the task's event.
  template <typename Work>
  SluiceStatus submit(const char *what, const EventList &deps, Work &&work,
                      Ref<Event> &out);
  SluiceStatus waitFor(const EventList &deps);
  /// A profiling queue's, or every, task is marked as it is submitted.
  bool markEveryTask() const;
  CUresult fillGeneric(char *dst, const void *pattern, size_t patternSize,
                       size_t bytes);

  CudaDevice &cudaDevice;
  CUstream stream;
  /// The queue's launch counter (Queue::launchCounter): a 32-bit word of
  /// device memory, zeroed on the stream before its first task.
  CUdeviceptr counter;
  /// $SLUICE_CUDA_TIMESTAMPS when the queue was made: -1 unset, 0 off, 1
  /// on, 2 exact.
  int timestamps;
  std::shared_ptr<StreamProgress> progress;
  /// Keeps each task's events next to its work when threads share the queue.
  std::mutex submitMutex;
  /// cuBLAS bound to this stream, made by the first product (never freed:
  /// queues live as long as the process).
  BlasHandle *blas = nullptr;
  /// Repeated launches replayed as CUDA graphs (CudaLaunchReplay.h), under
  /// submitMutex; destroyed before the stream.
  std::unique_ptr<LaunchReplay> replay;
};

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDAQUEUE_H
