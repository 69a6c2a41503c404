//===- UsmRegistry.cpp - The table of live USM allocations ----------------===//
#include "sluice/Runtime/UsmRegistry.h"

#include <algorithm>

namespace sluice::rt {

void Allocation::noteUse(const Ref<Event> &event) {
  std::lock_guard<std::mutex> lock(usesMutex);
  // Drop finished tasks so the list stays short.
  EventList still;
  appendPending(uses, still);
  still.push_back(event);
  uses.swap(still);
}

EventList Allocation::pendingUses() {
  std::lock_guard<std::mutex> lock(usesMutex);
  EventList result;
  appendPending(uses, result);
  return result;
}

void UsmRegistry::add(std::shared_ptr<Allocation> allocation) {
  std::lock_guard<std::mutex> lock(mutex);
  uintptr_t key = reinterpret_cast<uintptr_t>(allocation->base);
  // The span only grows: a value outside it is no allocation's.
  lowest.store(std::min(lowest.load(std::memory_order_relaxed), key),
               std::memory_order_relaxed);
  highest.store(
      std::max(highest.load(std::memory_order_relaxed), key + allocation->size),
      std::memory_order_relaxed);
  byBase[key] = std::move(allocation);
}

std::shared_ptr<Allocation> UsmRegistry::find(const void *ptr) const {
  uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
  // Kernel arguments are mostly sizes and strides: answer those without
  // the lock. (Stale bounds only make the check conservative: the map
  // below decides.)
  if (p < lowest.load(std::memory_order_relaxed) ||
      p >= highest.load(std::memory_order_relaxed))
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = byBase.upper_bound(p);
  if (it == byBase.begin())
    return nullptr;
  --it;
  const Allocation &a = *it->second;
  if (p >= it->first && p < it->first + a.size)
    return it->second;
  return nullptr;
}

std::shared_ptr<Allocation> UsmRegistry::remove(const void *ptr) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = byBase.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == byBase.end())
    return nullptr;
  std::shared_ptr<Allocation> a = std::move(it->second);
  byBase.erase(it);
  return a;
}

} // namespace sluice::rt
