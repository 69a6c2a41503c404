//===- CudaEvent.h - CUevents as Sluice events ------------------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_CUDA_CUDAEVENT_H
#define SLUICE_LIB_RUNTIME_CUDA_CUDAEVENT_H

#include "CudaDevice.h"

#include "sluice/Runtime/Event.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace sluice::rt::cuda {

/// A CUevent recorded after a task, shared by the task's event and the
/// next task's (whose start it approximates); back to the pool when both
/// are gone.
struct TaskMark {
  TaskMark(CudaContext &ctx, CUevent event) : ctx(ctx), event(event) {}
  ~TaskMark() { ctx.releaseEvent(event); }
  CudaContext &ctx;
  CUevent event;
};

/// How far a stream got: tasks are numbered in submission order; every task
/// up to `completed` is known to have finished (a stream is in order), so
/// asking about them needs no driver call.
struct StreamProgress {
  std::atomic<uint64_t> submitted{0}, completed{0};
  void finishedUpTo(uint64_t seq) {
    uint64_t c = completed.load(std::memory_order_relaxed);
    while (c < seq &&
           !completed.compare_exchange_weak(c, seq, std::memory_order_release,
                                            std::memory_order_relaxed)) {
    }
  }
};

/// The completion of one task on a CUDA stream: a CUevent recorded after
/// the task. Status and waits go to the driver; timestamps are event times
/// relative to the context's clock base, on the steady clock. The start of
/// a task is the later of its submission and the end of the stream's
/// previous task, or, with exact timestamps, a CUevent recorded before it
/// (one more driver call per task).
class CudaEvent final : public Event {
public:
  /// Acquires the end event, and records a start event on `stream` when
  /// `exactStart` (the context is current). `previous` is the stream's
  /// previous task's end. The caller records the end with recordEnd().
  static SluiceStatus begin(CudaContext &ctx, CUstream stream, bool exactStart,
                            std::shared_ptr<TaskMark> previous,
                            std::shared_ptr<StreamProgress> progress,
                            uint64_t seq, Ref<CudaEvent> &out);
  SluiceStatus recordEnd();
  ~CudaEvent() override;

  CUevent endEvent() const { return endMark->event; }
  const std::shared_ptr<TaskMark> &mark() const { return endMark; }
  CUstream stream() const { return onStream; }
  CudaContext &context() const { return ctx; }

  SluiceBackend backend() const override { return SLUICE_BACKEND_CUDA; }
  SluiceEventStatus status() override;
  SluiceStatus wait() override;
  SluiceStatus profiling(uint64_t &submit, uint64_t &start,
                         uint64_t &end) override;
  void whenComplete(std::function<void(bool ok)> fn) override;

private:
  CudaEvent(CudaContext &ctx, CUstream stream, uint64_t submitNs)
      : ctx(ctx), onStream(stream), submitNs(submitNs) {}
  /// Caches a final state (complete, or failed with the driver's reason).
  SluiceEventStatus settle(CUresult r);

  CudaContext &ctx;
  CUstream onStream;
  CUevent start = nullptr;
  std::shared_ptr<TaskMark> endMark, previous;
  std::shared_ptr<ClockBase> clock;
  std::shared_ptr<StreamProgress> progress;
  uint64_t seq = 0;
  uint64_t submitNs;
  std::atomic<int> state{SLUICE_EVENT_SUBMITTED};
  std::mutex errorMutex;
  std::string error;
};

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDAEVENT_H
