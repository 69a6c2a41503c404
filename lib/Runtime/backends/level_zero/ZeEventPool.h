//===- ZeEventPool.h - Recycled events and completion callbacks -*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEEVENTPOOL_H
#define SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEEVENTPOOL_H

#include "sluice-c/Runtime.h"
#include "sluice/Runtime/RefCounted.h"

#include <condition_variable>
#include <functional>
#include <level_zero/ze_api.h>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace sluice::rt::level_zero {

class ZeEvent;

/// Host-visible timestamp events of one context, made in pools of
/// kPoolSize on demand and recycled: a released event is reset and handed
/// out again, so steady-state submission creates no Level Zero objects.
class ZeEventPool {
public:
  static constexpr uint32_t kPoolSize = 128;

  explicit ZeEventPool(ze_context_handle_t context) : ctx(context) {}

  /// An unsignaled event.
  SluiceStatus acquire(ze_event_handle_t &out);
  /// Resets `event` (whose signal nothing waits for any more) for reuse.
  void release(ze_event_handle_t event);
  /// Destroys every event and pool (shutdown).
  void destroyAll();
  size_t poolCount();

private:
  ze_context_handle_t ctx;
  std::mutex mutex;
  std::vector<ze_event_pool_handle_t> pools;
  std::vector<ze_event_handle_t> all, available;
};

/// Calls completion callbacks of events. Level Zero has no event
/// callbacks, so a thread (started on first need) polls the events that
/// have callbacks, backing off while none completes. Polling rather than
/// waiting on one event at a time matters: a callback may be what lets
/// another watched event complete.
class ZeEventWatcher {
public:
  ~ZeEventWatcher();
  void add(Ref<ZeEvent> event, std::function<void(bool ok)> fn);
  /// Drops the pending callbacks and joins the thread (shutdown).
  void stop();

private:
  struct Entry {
    Ref<ZeEvent> event;
    std::function<void(bool)> fn;
  };
  void run();

  std::mutex mutex;
  std::condition_variable cv;
  std::vector<Entry> entries;
  bool stopping = false;
  std::thread worker;
};

} // namespace sluice::rt::level_zero

#endif // SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEEVENTPOOL_H
