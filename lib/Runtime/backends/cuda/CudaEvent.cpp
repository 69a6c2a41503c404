//===- CudaEvent.cpp - CUevents as Sluice events --------------------------===//
#include "CudaEvent.h"

#include "sluice/Runtime/ErrorState.h"
#include "sluice/Runtime/SignalEvent.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <thread>
#include <vector>

namespace sluice::rt::cuda {

namespace {

/// How many tasks a stream may run ahead of its newest mark before a
/// status query records another one.
constexpr uint64_t kMarkInterval = 16;

/// Calls the completion callbacks of CUDA events. The driver has no
/// callback on an event, so one thread polls the pending events (with a
/// back-off while none finishes); it never blocks on a single event, so a
/// task that waits for a callback of a later event cannot stall it.
class Watcher {
public:
  static Watcher &get() {
    static Watcher *watcher = new Watcher(); // never destroyed
    return *watcher;
  }

  void add(Ref<CudaEvent> event, std::function<void(bool)> fn) {
    std::lock_guard<std::mutex> lock(mutex);
    pending.push_back({std::move(event), std::move(fn)});
    if (!worker.joinable())
      worker = std::thread([this] { run(); });
    cv.notify_all();
  }

private:
  struct Item {
    Ref<CudaEvent> event;
    std::function<void(bool)> fn;
  };

  void run() {
    std::unique_lock<std::mutex> lock(mutex);
    auto pause = std::chrono::microseconds(20);
    for (;;) {
      cv.wait(lock, [&] { return !pending.empty(); });
      std::vector<Item> items = std::move(pending);
      pending.clear();
      lock.unlock();
      std::vector<Item> waiting;
      bool progressed = false;
      for (Item &item : items) {
        SluiceEventStatus s = item.event->status();
        if (s == SLUICE_EVENT_COMPLETE || s == SLUICE_EVENT_ERROR) {
          item.fn(s == SLUICE_EVENT_COMPLETE);
          progressed = true;
        } else {
          waiting.push_back(std::move(item));
        }
      }
      items.clear();
      pause = progressed ? std::chrono::microseconds(20)
                         : std::min(pause * 2, decltype(pause)(1000));
      if (!waiting.empty())
        std::this_thread::sleep_for(pause);
      lock.lock();
      for (Item &item : waiting)
        pending.push_back(std::move(item));
    }
  }

  std::mutex mutex;
  std::condition_variable cv;
  std::vector<Item> pending;
  std::thread worker;
};

} // namespace

std::shared_ptr<TaskMark> StreamProgress::newest() {
  std::lock_guard<std::mutex> lock(markMutex);
  return newestMark;
}

std::shared_ptr<TaskMark> StreamProgress::newestCovering(uint64_t seq) {
  std::lock_guard<std::mutex> lock(markMutex);
  if (newestMark && newestMark->seq >= seq)
    return newestMark;
  return nullptr;
}

SluiceStatus StreamProgress::recordLocked(uint64_t seq,
                                          std::shared_ptr<TaskMark> &out) {
  ScopedContext current(ctx.handle());
  std::shared_ptr<ClockBase> clock = ctx.clock();
  CUevent e = nullptr;
  if (SluiceStatus s = ctx.acquireEvent(e))
    return s;
  auto mark = std::make_shared<TaskMark>(ctx, e, seq);
  mark->clock = std::move(clock);
  if (CUresult r = cu().cuEventRecord(e, stream))
    return cuFail(r, "cuEventRecord");
  if (!newestMark || newestMark->seq <= seq)
    newestMark = mark;
  out = std::move(mark);
  return SLUICE_SUCCESS;
}

SluiceStatus StreamProgress::markCovering(uint64_t seq,
                                          std::shared_ptr<TaskMark> &out) {
  std::lock_guard<std::mutex> lock(markMutex);
  if (newestMark && newestMark->seq >= seq) {
    out = newestMark;
    return SLUICE_SUCCESS;
  }
  // Every task numbered up to `submitted` is on the stream already.
  return recordLocked(std::max(seq, submitted.load(std::memory_order_acquire)),
                      out);
}

SluiceStatus StreamProgress::markNow(uint64_t seq,
                                     std::shared_ptr<TaskMark> &out) {
  std::lock_guard<std::mutex> lock(markMutex);
  return recordLocked(seq, out);
}

SluiceStatus CudaEvent::begin(CudaContext &ctx, bool exactStart,
                              std::shared_ptr<TaskMark> previous,
                              std::shared_ptr<StreamProgress> progress,
                              uint64_t seq, Ref<CudaEvent> &out) {
  Ref<CudaEvent> ev =
      Ref<CudaEvent>::adopt(new CudaEvent(ctx, SignalEvent::nowNs()));
  ev->previous = std::move(previous);
  ev->progress = std::move(progress);
  ev->seq = seq;
  if (exactStart) {
    if (SluiceStatus s = ctx.acquireEvent(ev->start))
      return s;
    if (CUresult r = cu().cuEventRecord(ev->start, ev->progress->stream))
      return cuFail(r, "cuEventRecord");
  }
  out = std::move(ev);
  return SLUICE_SUCCESS;
}

SluiceStatus CudaEvent::markNow() {
  std::shared_ptr<TaskMark> mark;
  if (SluiceStatus s = progress->markNow(seq, mark))
    return s;
  std::lock_guard<std::mutex> lock(mutex);
  endMark = std::move(mark);
  return SLUICE_SUCCESS;
}

CudaEvent::~CudaEvent() {
  // A recorded event may be recorded again: later waits on this task are
  // impossible once no one holds it (the marks go back with their last
  // holder).
  ctx.releaseEvent(start);
}

std::shared_ptr<TaskMark> CudaEvent::currentMark() {
  std::lock_guard<std::mutex> lock(mutex);
  return endMark;
}

SluiceStatus CudaEvent::ensureMark(std::shared_ptr<TaskMark> &out) {
  out = currentMark();
  if (out)
    return SLUICE_SUCCESS;
  if (SluiceStatus s = progress->markCovering(seq, out))
    return s;
  std::lock_guard<std::mutex> lock(mutex);
  if (!endMark)
    endMark = out;
  out = endMark;
  return SLUICE_SUCCESS;
}

SluiceStatus CudaEvent::waitableEvent(CUevent &out) {
  std::shared_ptr<TaskMark> mark;
  if (SluiceStatus s = ensureMark(mark))
    return s;
  out = mark->event;
  return SLUICE_SUCCESS;
}

void CudaEvent::pin() {
  // Exact only while this is the stream's newest task (a task that has
  // finished by now, an empty barrier on an idle stream say, is marked
  // with the time it is handed out).
  if (currentMark())
    return;
  if (progress->submitted.load(std::memory_order_acquire) != seq)
    return;
  std::shared_ptr<TaskMark> mark;
  if (progress->markCovering(seq, mark) == SLUICE_SUCCESS) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!endMark)
      endMark = std::move(mark);
  }
}

bool CudaEvent::supersedes(const Event &older) const {
  auto *o = dynamic_cast<const CudaEvent *>(&older);
  return o && o->progress == progress && o->seq <= seq;
}

SluiceEventStatus CudaEvent::settle(CUresult r) {
  if (r == CUDA_SUCCESS) {
    progress->finishedUpTo(seq);
    state.store(SLUICE_EVENT_COMPLETE, std::memory_order_release);
    return SLUICE_EVENT_COMPLETE;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (error.empty())
      error = errorText(r);
  }
  state.store(SLUICE_EVENT_ERROR, std::memory_order_release);
  return SLUICE_EVENT_ERROR;
}

SluiceEventStatus CudaEvent::status() {
  int s = state.load(std::memory_order_acquire);
  if (s == SLUICE_EVENT_COMPLETE || s == SLUICE_EVENT_ERROR)
    return static_cast<SluiceEventStatus>(s);
  if (progress->completed.load(std::memory_order_acquire) >= seq)
    return settle(CUDA_SUCCESS);
  ScopedContext current(ctx.handle());
  std::shared_ptr<TaskMark> mark = currentMark();
  if (!mark)
    mark = progress->newestCovering(seq);
  if (!mark) {
    // No mark stands for this task yet: the stream as a whole may be done.
    uint64_t upTo = progress->submitted.load(std::memory_order_acquire);
    CUresult r = cu().cuStreamQuery(progress->stream);
    if (r == CUDA_SUCCESS) {
      progress->finishedUpTo(upTo);
      return settle(CUDA_SUCCESS);
    }
    if (r != CUDA_ERROR_NOT_READY)
      return settle(r);
    // Still running: mark the stream's end now and then, so that a task
    // under a stream that never drains still finishes in time, without an
    // event per query.
    std::shared_ptr<TaskMark> newest = progress->newest();
    if (newest && upTo - newest->seq < kMarkInterval)
      return start && cu().cuEventQuery(start) == CUDA_SUCCESS
                 ? SLUICE_EVENT_RUNNING
                 : SLUICE_EVENT_SUBMITTED;
    if (ensureMark(mark) != SLUICE_SUCCESS)
      return SLUICE_EVENT_SUBMITTED;
  }
  CUresult r = cu().cuEventQuery(mark->event);
  if (r == CUDA_SUCCESS)
    progress->finishedUpTo(mark->seq);
  if (r != CUDA_ERROR_NOT_READY)
    return settle(r);
  if (start && cu().cuEventQuery(start) == CUDA_SUCCESS)
    return SLUICE_EVENT_RUNNING;
  return SLUICE_EVENT_SUBMITTED;
}

SluiceStatus CudaEvent::wait() {
  SluiceEventStatus s =
      static_cast<SluiceEventStatus>(state.load(std::memory_order_acquire));
  if (s != SLUICE_EVENT_COMPLETE && s != SLUICE_EVENT_ERROR &&
      progress->completed.load(std::memory_order_acquire) >= seq)
    s = settle(CUDA_SUCCESS);
  if (s != SLUICE_EVENT_COMPLETE && s != SLUICE_EVENT_ERROR) {
    std::shared_ptr<TaskMark> mark;
    if (SluiceStatus st = ensureMark(mark))
      return st;
    ScopedContext current(ctx.handle());
    CUresult r = cu().cuEventSynchronize(mark->event);
    if (r == CUDA_SUCCESS)
      progress->finishedUpTo(mark->seq);
    s = settle(r);
  }
  if (s == SLUICE_EVENT_ERROR) {
    std::lock_guard<std::mutex> lock(mutex);
    return fail(SLUICE_ERROR_TASK_FAILED, "CUDA task failed: " + error);
  }
  return SLUICE_SUCCESS;
}

SluiceStatus CudaEvent::profiling(uint64_t &submit, uint64_t &startNs,
                                  uint64_t &endNs) {
  SluiceEventStatus s = status();
  if (s != SLUICE_EVENT_COMPLETE && s != SLUICE_EVENT_ERROR)
    return fail(SLUICE_ERROR_NOT_READY,
                "profiling information is available once the task finished");
  // A task without a mark of its own is timed by the first mark after it
  // (that of a later task); one that no mark followed has no end time.
  std::shared_ptr<TaskMark> mark = currentMark();
  if (!mark)
    mark = progress->newestCovering(seq);
  if (s == SLUICE_EVENT_COMPLETE && !mark)
    return fail(SLUICE_ERROR_BACKEND,
                "CUDA: no timestamps for this task: it was not marked while "
                "it ran (hold its event from its submission, make the queue "
                "with profiling enabled, or set SLUICE_CUDA_TIMESTAMPS=on "
                "to mark every task)");
  ScopedContext current(ctx.handle());
  if (s == SLUICE_EVENT_ERROR || !mark->clock ||
      !mark->clock->timeOf(mark->event, endNs))
    return fail(SLUICE_ERROR_BACKEND,
                "CUDA: no timestamps for this task (it failed, or the "
                "context's clock could not be read)");
  if (start) {
    if (!mark->clock->timeOf(start, startNs))
      startNs = endNs;
  } else {
    // In order: the task started once it was submitted and the stream's
    // previous task had ended.
    uint64_t previousEnd = 0;
    startNs = submitNs;
    if (previous && previous->clock &&
        previous->clock->timeOf(previous->event, previousEnd))
      startNs = std::max(startNs, previousEnd);
  }
  // Host and device clocks agree to a few microseconds: keep the order
  // submit <= start <= end (the end, a device time, may read earlier than
  // the host's submission time).
  startNs = std::min(startNs, endNs);
  submit = std::min(submitNs, startNs);
  return SLUICE_SUCCESS;
}

void CudaEvent::whenComplete(std::function<void(bool ok)> fn) {
  SluiceEventStatus s = status();
  if (s == SLUICE_EVENT_COMPLETE || s == SLUICE_EVENT_ERROR) {
    fn(s == SLUICE_EVENT_COMPLETE);
    return;
  }
  Watcher::get().add(Ref<CudaEvent>::share(this), std::move(fn));
}

} // namespace sluice::rt::cuda
