//===- ZeContext.h - A Level Zero context and what it owns ------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZECONTEXT_H
#define SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZECONTEXT_H

#include "ZeEventPool.h"

#include "sluice/Runtime/Device.h"

#include <level_zero/ze_api.h>
#include <mutex>
#include <set>
#include <shared_mutex>

namespace sluice::rt::level_zero {

class ZeModule;
class ZeQueue;

/// One ze_context per driver, holding all of its devices (dpctl's default
/// context). It owns the recycled events and keeps a list of the queues,
/// modules and allocations made in it, so that `shutDown` can wait for the
/// queues and destroy everything in the order Level Zero wants before the
/// loader and its drivers are unloaded at process exit.
class ZeContext final : public Context {
public:
  ZeContext(ze_driver_handle_t driver, ze_context_handle_t context);
  ~ZeContext() override;

  ze_driver_handle_t driver() const { return drv; }
  ze_context_handle_t handle() const { return ctx; }
  ZeEventPool &events() { return eventPool; }
  ZeEventWatcher &watcher() { return eventWatcher; }

  /// Holds off `shutDown` while Level Zero handles of the context are in
  /// use. False once the context was shut down: the caller then must not
  /// touch any handle (and fails with shutDownFailure()). Uses may nest on
  /// one thread.
  class Use {
  public:
    explicit Use(ZeContext &context)
        : lock(context.lifetime), ok(context.alive) {}
    explicit operator bool() const { return ok; }

  private:
    std::shared_lock<std::shared_mutex> lock;
    bool ok;
  };

  void track(ZeQueue *queue);
  void untrack(ZeQueue *queue);
  void track(ZeModule *module);
  void untrack(ZeModule *module);
  void trackAllocation(void *ptr);
  /// False if `ptr` is not a live allocation of this context.
  bool untrackAllocation(void *ptr);

  /// Waits (a bounded time) for every queue, then destroys command lists,
  /// kernels, modules, allocations, events, pools and the context. Later
  /// calls fail with shutDownFailure(); objects released later skip their
  /// Level Zero calls. If a queue does not drain in time nothing is
  /// destroyed (a leak at exit beats destroying objects still in use).
  void shutDown();

private:
  ze_driver_handle_t drv;
  ze_context_handle_t ctx;
  std::shared_mutex lifetime;
  bool alive = true;
  ZeEventPool eventPool;
  ZeEventWatcher eventWatcher;
  std::mutex objectsMutex;
  std::set<ZeQueue *> queues;
  std::set<ZeModule *> modules;
  std::set<void *> allocations;
};

} // namespace sluice::rt::level_zero

#endif // SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZECONTEXT_H
