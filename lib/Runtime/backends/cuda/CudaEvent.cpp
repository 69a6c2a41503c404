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

SluiceStatus CudaEvent::begin(CudaContext &ctx, CUstream stream,
                              bool exactStart,
                              std::shared_ptr<TaskMark> previous,
                              std::shared_ptr<StreamProgress> progress,
                              uint64_t seq, Ref<CudaEvent> &out) {
  Ref<CudaEvent> ev =
      Ref<CudaEvent>::adopt(new CudaEvent(ctx, stream, SignalEvent::nowNs()));
  ev->clock = ctx.clock();
  ev->previous = std::move(previous);
  ev->progress = std::move(progress);
  ev->seq = seq;
  CUevent end = nullptr;
  if (SluiceStatus s = ctx.acquireEvent(end))
    return s;
  ev->endMark = std::make_shared<TaskMark>(ctx, end);
  if (exactStart && ev->clock) {
    if (SluiceStatus s = ctx.acquireEvent(ev->start))
      return s;
    if (CUresult r = cu().cuEventRecord(ev->start, stream))
      return cuFail(r, "cuEventRecord");
  }
  out = std::move(ev);
  return SLUICE_SUCCESS;
}

SluiceStatus CudaEvent::recordEnd() {
  if (CUresult r = cu().cuEventRecord(endMark->event, onStream))
    return cuFail(r, "cuEventRecord");
  return SLUICE_SUCCESS;
}

CudaEvent::~CudaEvent() {
  // A recorded event may be recorded again: later waits on this task are
  // impossible once no one holds it (the marks go back with their last
  // holder).
  ctx.releaseEvent(start);
}

SluiceEventStatus CudaEvent::settle(CUresult r) {
  if (r == CUDA_SUCCESS) {
    progress->finishedUpTo(seq);
    state.store(SLUICE_EVENT_COMPLETE, std::memory_order_release);
    return SLUICE_EVENT_COMPLETE;
  }
  {
    std::lock_guard<std::mutex> lock(errorMutex);
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
  CUresult r = cu().cuEventQuery(endMark->event);
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
    ScopedContext current(ctx.handle());
    s = settle(cu().cuEventSynchronize(endMark->event));
  }
  if (s == SLUICE_EVENT_ERROR) {
    std::lock_guard<std::mutex> lock(errorMutex);
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
  ScopedContext current(ctx.handle());
  if (s == SLUICE_EVENT_ERROR || !clock ||
      !clock->timeOf(endMark->event, endNs))
    return fail(SLUICE_ERROR_BACKEND,
                "CUDA: no timestamps for this task (it failed, or the "
                "context's clock could not be read)");
  if (start) {
    if (!clock->timeOf(start, startNs))
      startNs = endNs;
  } else {
    // In order: the task started once it was submitted and the stream's
    // previous task had ended.
    uint64_t previousEnd = 0;
    startNs = submitNs;
    if (previous && clock->timeOf(previous->event, previousEnd))
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
