//===- SignalEvent.cpp - An event completed by runtime code ---------------===//
#include "sluice/Runtime/SignalEvent.h"

#include "sluice/Runtime/ErrorState.h"

#include <chrono>

namespace sluice::rt {

uint64_t SignalEvent::nowNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

SignalEvent::SignalEvent(SluiceBackend backend)
    : owner(backend), submitNs(nowNs()) {}

SignalEvent::SignalEvent(SluiceBackend backend, uint64_t startNs,
                         uint64_t endNs)
    : owner(backend), state(SLUICE_EVENT_COMPLETE), submitNs(startNs),
      startNs(startNs), endNs(endNs) {}

SluiceEventStatus SignalEvent::status() {
  std::lock_guard<std::mutex> lock(mutex);
  return state;
}

SluiceStatus SignalEvent::wait() {
  std::unique_lock<std::mutex> lock(mutex);
  cv.wait(lock, [&] {
    return state == SLUICE_EVENT_COMPLETE || state == SLUICE_EVENT_ERROR;
  });
  if (state == SLUICE_EVENT_ERROR)
    return fail(SLUICE_ERROR_TASK_FAILED, error);
  return SLUICE_SUCCESS;
}

SluiceStatus SignalEvent::profiling(uint64_t &submit, uint64_t &start,
                                    uint64_t &end) {
  std::lock_guard<std::mutex> lock(mutex);
  if (state != SLUICE_EVENT_COMPLETE && state != SLUICE_EVENT_ERROR)
    return fail(SLUICE_ERROR_NOT_READY,
                "profiling information is available once the task finished");
  submit = submitNs;
  start = startNs;
  end = endNs;
  return SLUICE_SUCCESS;
}

void SignalEvent::whenComplete(std::function<void(bool ok)> fn) {
  std::unique_lock<std::mutex> lock(mutex);
  if (state == SLUICE_EVENT_COMPLETE || state == SLUICE_EVENT_ERROR) {
    bool ok = state == SLUICE_EVENT_COMPLETE;
    lock.unlock();
    fn(ok);
    return;
  }
  callbacks.push_back(std::move(fn));
}

void SignalEvent::markRunning() {
  std::lock_guard<std::mutex> lock(mutex);
  state = SLUICE_EVENT_RUNNING;
  startNs = nowNs();
}

void SignalEvent::finish(std::string message) {
  // Keep this event alive while callbacks run: one may drop the last
  // outside reference.
  Ref<SignalEvent> self = Ref<SignalEvent>::share(this);
  std::vector<std::function<void(bool)>> toCall;
  bool ok = message.empty();
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (startNs == 0)
      startNs = nowNs();
    endNs = nowNs();
    error = std::move(message);
    state = ok ? SLUICE_EVENT_COMPLETE : SLUICE_EVENT_ERROR;
    toCall.swap(callbacks);
    cv.notify_all();
  }
  for (auto &fn : toCall)
    fn(ok);
}

} // namespace sluice::rt
