//===- ZeContext.cpp - A Level Zero context and what it owns --------------===//
#include "ZeContext.h"

#include "ZeModule.h"
#include "ZeQueue.h"

#include <chrono>

namespace sluice::rt::level_zero {

namespace {
/// How long shutdown waits for the queues of a context to drain.
constexpr std::chrono::seconds kDrainTimeout(10);
} // namespace

ZeContext::ZeContext(ze_driver_handle_t driver, ze_context_handle_t context)
    : drv(driver), ctx(context), eventPool(context) {}

// Contexts live as long as the process; shutDown() releases the handles.
ZeContext::~ZeContext() = default;

void ZeContext::track(ZeQueue *queue) {
  std::lock_guard<std::mutex> lock(objectsMutex);
  queues.insert(queue);
}

void ZeContext::untrack(ZeQueue *queue) {
  std::lock_guard<std::mutex> lock(objectsMutex);
  queues.erase(queue);
}

void ZeContext::track(ZeModule *module) {
  std::lock_guard<std::mutex> lock(objectsMutex);
  modules.insert(module);
}

void ZeContext::untrack(ZeModule *module) {
  std::lock_guard<std::mutex> lock(objectsMutex);
  modules.erase(module);
}

void ZeContext::trackAllocation(void *ptr) {
  std::lock_guard<std::mutex> lock(objectsMutex);
  allocations.insert(ptr);
}

bool ZeContext::untrackAllocation(void *ptr) {
  std::lock_guard<std::mutex> lock(objectsMutex);
  return allocations.erase(ptr) != 0;
}

void ZeContext::shutDown() {
  // Callbacks still pending belong to commands that never ran; the watcher
  // must stop before the exclusive lock (its polls take shared ones).
  eventWatcher.stop();
  std::unique_lock<std::shared_mutex> exclusive(lifetime);
  if (!alive)
    return;
  // With the exclusive lock held, no other thread is inside a Use, so the
  // objects listed here cannot go away underneath.
  std::lock_guard<std::mutex> lock(objectsMutex);
  auto deadline = std::chrono::steady_clock::now() + kDrainTimeout;
  for (ZeQueue *queue : queues)
    if (!queue->drainForShutDown(deadline))
      return;
  for (ZeQueue *queue : queues)
    queue->destroyForShutDown();
  alive = false;
  for (ZeModule *module : modules)
    module->destroyForShutDown();
  for (void *ptr : allocations)
    zeMemFree(ctx, ptr);
  allocations.clear();
  eventPool.destroyAll();
  zeContextDestroy(ctx);
}

} // namespace sluice::rt::level_zero
