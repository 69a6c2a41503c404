//===- ZeQueue.h - An in-order immediate command list -----------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEQUEUE_H
#define SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEQUEUE_H

#include "ZeEvent.h"

#include "sluice/Runtime/Queue.h"

#include <chrono>
#include <deque>
#include <functional>
#include <level_zero/ze_api.h>

namespace sluice::rt::level_zero {

class ZeContext;
class ZeDevice;

/// An immediate command list on the device's compute queue group. Level
/// Zero (API 1.4) does not order the commands of a list, so each command
/// waits for the previous one's event: the queue is in order by
/// construction. Every command signals its own event from the context's
/// pool; commands still running are kept here until they finish so that
/// their events (and the events they wait for) are not recycled early.
class ZeQueue final : public Queue {
public:
  static SluiceStatus create(ZeDevice &device, Ref<Queue> &out);
  ~ZeQueue() override;

  SluiceStatus wait() override;

  /// Shutdown, with the context's exclusive lock held: waits for the last
  /// command until `deadline`; false if it did not finish.
  bool drainForShutDown(std::chrono::steady_clock::time_point deadline);
  /// Shutdown: destroys the command list.
  void destroyForShutDown();

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

private:
  /// Appends one command: `append(signal, numWaits, waits)`.
  using AppendFn = std::function<ze_result_t(ze_event_handle_t, uint32_t,
                                             ze_event_handle_t *)>;

  ZeQueue(ZeDevice &device, ze_command_list_handle_t list);
  /// Appends a command that waits for `deps` (bridging foreign events) and
  /// for the previous command. `prepare` sees the command's event first
  /// (to attach cleanups). The caller holds a ZeContext::Use.
  SluiceStatus submit(const char *what, const EventList &deps,
                      const AppendFn &append, Ref<Event> &out,
                      const std::function<void(ZeEvent &)> &prepare = {});
  SluiceStatus newEvent(Ref<ZeEvent> &out);
  /// Drops the finished commands at the front (mutex held).
  void reap();

  ZeDevice &zeDevice;
  ZeContext &ctx;
  ze_command_list_handle_t list;
  std::mutex mutex;
  Ref<ZeEvent> tail;
  std::deque<Ref<ZeEvent>> inFlight;
  bool failedSinceWait = false;
};

} // namespace sluice::rt::level_zero

#endif // SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEQUEUE_H
