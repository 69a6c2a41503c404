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

/// A CUevent recorded on a stream after the task numbered `seq` (and
/// possibly after later ones: it then stands for all of them), with the
/// clock base of its timestamps; back to the pool when the last holder is
/// gone.
struct TaskMark {
  TaskMark(CudaContext &ctx, CUevent event, uint64_t seq)
      : ctx(ctx), event(event), seq(seq) {}
  ~TaskMark() { ctx.releaseEvent(event); }
  CudaContext &ctx;
  CUevent event;
  uint64_t seq;
  std::shared_ptr<ClockBase> clock;
};

/// How far a stream got, and its marks. Tasks are numbered in submission
/// order; every task up to `completed` is known to have finished (a stream
/// is in order), so asking about them needs no driver call. A task gets a
/// CUevent of its own only where something needs one (a wait, a dependency
/// of another stream, a status query, an event handed to the caller);
/// otherwise the stream's next mark, or the stream itself, tells.
struct StreamProgress {
  StreamProgress(CudaContext &ctx, CUstream stream)
      : ctx(ctx), stream(stream) {}
  std::atomic<uint64_t> submitted{0}, completed{0};
  void finishedUpTo(uint64_t seq) {
    uint64_t c = completed.load(std::memory_order_relaxed);
    while (c < seq &&
           !completed.compare_exchange_weak(c, seq, std::memory_order_release,
                                            std::memory_order_relaxed)) {
    }
  }
  /// The newest mark, if it stands for task `seq` (null otherwise).
  std::shared_ptr<TaskMark> newestCovering(uint64_t seq);
  std::shared_ptr<TaskMark> newest();
  /// The newest mark if it covers task `seq`, else a new one recorded at
  /// the stream's current end (it stands for every task submitted so far).
  SluiceStatus markCovering(uint64_t seq, std::shared_ptr<TaskMark> &out);
  /// Records a mark for task `seq`, which the caller just submitted (its
  /// submitMutex held).
  SluiceStatus markNow(uint64_t seq, std::shared_ptr<TaskMark> &out);

  CudaContext &ctx;
  CUstream stream;

private:
  SluiceStatus recordLocked(uint64_t seq, std::shared_ptr<TaskMark> &out);
  std::mutex markMutex;
  std::shared_ptr<TaskMark> newestMark;
};

/// The completion of one task on a CUDA stream. Status and waits go to the
/// task's mark (a CUevent recorded after it, at submission on a profiling
/// queue, or once needed) or to the stream;
/// timestamps are event times relative to the context's clock base, on the
/// steady clock. The start of a task is the later of its submission and the
/// end of the stream's previous mark, or, with exact timestamps, a CUevent
/// recorded before it (one more driver call per task).
class CudaEvent final : public Event {
public:
  /// Makes the event of task `seq`, and records a start event on `stream`
  /// when `exactStart` (the context is current). `previous` is the
  /// stream's newest mark.
  static SluiceStatus begin(CudaContext &ctx, bool exactStart,
                            std::shared_ptr<TaskMark> previous,
                            std::shared_ptr<StreamProgress> progress,
                            uint64_t seq, Ref<CudaEvent> &out);
  /// Marks the task at once (the caller just submitted it).
  SluiceStatus markNow();
  ~CudaEvent() override;

  /// A CUevent that completes once the task has (recorded if needed).
  SluiceStatus waitableEvent(CUevent &out);
  CUstream stream() const { return progress->stream; }
  CudaContext &context() const { return ctx; }

  SluiceBackend backend() const override { return SLUICE_BACKEND_CUDA; }
  SluiceEventStatus status() override;
  SluiceStatus wait() override;
  SluiceStatus profiling(uint64_t &submit, uint64_t &start,
                         uint64_t &end) override;
  void whenComplete(std::function<void(bool ok)> fn) override;
  void pin() override;
  bool supersedes(const Event &older) const override;

private:
  CudaEvent(CudaContext &ctx, uint64_t submitNs)
      : ctx(ctx), submitNs(submitNs) {}
  /// Caches a final state (complete, or failed with the driver's reason).
  SluiceEventStatus settle(CUresult r);
  std::shared_ptr<TaskMark> currentMark();
  /// This task's mark, the stream's newest if it covers the task, or a new
  /// one.
  SluiceStatus ensureMark(std::shared_ptr<TaskMark> &out);

  CudaContext &ctx;
  CUevent start = nullptr;
  std::shared_ptr<TaskMark> previous;
  std::shared_ptr<StreamProgress> progress;
  uint64_t seq = 0;
  uint64_t submitNs;
  std::atomic<int> state{SLUICE_EVENT_SUBMITTED};
  std::mutex mutex; // endMark, error
  std::shared_ptr<TaskMark> endMark;
  std::string error;
};

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDAEVENT_H
