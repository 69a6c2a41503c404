//===- ZeEvent.h - A recycled ze_event as a Sluice event --------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEEVENT_H
#define SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEEVENT_H

#include "sluice/Runtime/Event.h"

#include <level_zero/ze_api.h>
#include <mutex>
#include <string>

namespace sluice::rt::level_zero {

class ZeContext;

/// How a device's kernel timestamps convert to nanoseconds.
struct ZeTimer {
  double nsPerTick = 1.0;
  uint32_t validBits = 64;
};

/// The completion of one command: an event slot of the context's pool,
/// returned to the pool when the last reference goes. The object also
/// keeps what the command needs until it has finished (the events it waits
/// for, whose slots must not be reused before; staging memory) and the
/// foreign events it waited for, whose failure it inherits.
class ZeEvent final : public Event {
public:
  ZeEvent(ZeContext &context, ze_event_handle_t event, ZeTimer timer)
      : ctx(context), ev(event), timer(timer) {}
  ~ZeEvent() override;

  ZeContext &context() const { return ctx; }
  ze_event_handle_t handle() const { return ev; }

  SluiceBackend backend() const override { return SLUICE_BACKEND_LEVEL_ZERO; }
  SluiceEventStatus status() override;
  SluiceStatus wait() override;
  SluiceStatus profiling(uint64_t &submit, uint64_t &start,
                         uint64_t &end) override;
  void whenComplete(std::function<void(bool ok)> fn) override;

  /// Keeps `event` alive until this command has finished.
  void hold(Ref<Event> event);
  /// Runs `action` once this command has finished (or is dropped).
  void atCompletion(std::function<void()> action);
  /// A foreign event this command waits for: if it fails, so does this.
  void addUpstream(Ref<Event> event);
  /// The foreign events a command waiting for this one inherits.
  EventList upstreamEvents();
  /// Signals the event from the host (bridges from foreign events).
  void signalFromHost();

private:
  /// Records completion: runs the cleanups, drops what was held and settles
  /// success from the upstream events.
  void complete(std::string error);
  SluiceEventStatus settled();

  ZeContext &ctx;
  ze_event_handle_t ev;
  ZeTimer timer;
  std::mutex mutex;
  bool done = false, failed = false;
  std::string failure;
  EventList held, upstream;
  std::vector<std::function<void()>> cleanups;
};

} // namespace sluice::rt::level_zero

#endif // SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEEVENT_H
