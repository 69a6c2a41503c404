//===- SignalEvent.h - An event completed by runtime code -------*- C++ -*-===//
#ifndef SLUICE_RUNTIME_SIGNALEVENT_H
#define SLUICE_RUNTIME_SIGNALEVENT_H

#include "sluice/Runtime/Event.h"

#include <condition_variable>
#include <mutex>
#include <string>

namespace sluice::rt {

/// An event whose task runs on CPU threads of the runtime (host backend
/// tasks, staging steps). Timestamps come from the steady clock.
class SignalEvent final : public Event {
public:
  explicit SignalEvent(SluiceBackend backend);
  /// An event of work that already ran from `startNs` to `endNs` (submitted
  /// when it started): complete from the start, no locking or waking.
  SignalEvent(SluiceBackend backend, uint64_t startNs, uint64_t endNs);

  SluiceBackend backend() const override { return owner; }
  SluiceEventStatus status() override;
  SluiceStatus wait() override;
  SluiceStatus profiling(uint64_t &submit, uint64_t &start,
                         uint64_t &end) override;
  void whenComplete(std::function<void(bool ok)> fn) override;

  void markRunning();
  /// Finishes the task; an empty `error` means success.
  void finish(std::string error = {});

  static uint64_t nowNs();

private:
  SluiceBackend owner;
  std::mutex mutex;
  std::condition_variable cv;
  SluiceEventStatus state = SLUICE_EVENT_QUEUED;
  std::string error;
  uint64_t submitNs, startNs = 0, endNs = 0;
  std::vector<std::function<void(bool)>> callbacks;
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_SIGNALEVENT_H
