//===- UsmRegistry.cpp - The table of live USM allocations ----------------===//
#include "sluice/Runtime/UsmRegistry.h"

#include <algorithm>
#include <iterator>

namespace sluice::rt {

void Allocation::noteUse(const Ref<Event> &event) {
  std::lock_guard<std::mutex> lock(usesMutex);
  // Drop finished tasks, and those the new one follows on its in-order
  // queue, so the list stays short (no driver call for those).
  EventList still;
  for (Ref<Event> &old : uses)
    if (old && event && event->supersedes(*old))
      old = nullptr;
  appendPending(uses, still);
  still.push_back(event);
  uses.swap(still);
}

void Allocation::addReuseFence(const Queue &on, EventList &deps) {
  std::lock_guard<std::mutex> lock(usesMutex);
  // The allocation's own queue runs its tasks after the fence anyway.
  if (!reuseFence || &on == queue.get())
    return;
  if (reuseFence->isFinished()) {
    reuseFence = nullptr;
    return;
  }
  deps.push_back(reuseFence);
}

EventList Allocation::pendingUses() {
  std::lock_guard<std::mutex> lock(usesMutex);
  EventList result;
  appendPending(uses, result);
  return result;
}

void UsmRegistry::add(std::shared_ptr<Allocation> allocation) {
  std::lock_guard<std::mutex> lock(mutex);
  insertLocked(std::move(allocation));
}

void UsmRegistry::insertLocked(std::shared_ptr<Allocation> allocation) {
  uintptr_t key = reinterpret_cast<uintptr_t>(allocation->base);
  // The span only grows: a value outside it is no allocation's.
  lowest.store(std::min(lowest.load(std::memory_order_relaxed), key),
               std::memory_order_relaxed);
  highest.store(
      std::max(highest.load(std::memory_order_relaxed), key + allocation->size),
      std::memory_order_relaxed);
  exactBase.insert(allocation->base, allocation);
  byBase[key] = std::move(allocation);
}

std::shared_ptr<Allocation>
UsmRegistry::firstOverlapLocked(uintptr_t begin, uintptr_t end) const {
  auto it = byBase.upper_bound(begin);
  if (it != byBase.begin()) {
    auto before = std::prev(it);
    if (before->first + before->second->size > begin)
      return before->second;
  }
  if (it != byBase.end() && it->first < end)
    return it->second;
  return nullptr;
}

bool UsmRegistry::addImport(std::shared_ptr<Allocation> allocation,
                            std::string &why) {
  std::lock_guard<std::mutex> lock(mutex);
  uintptr_t begin = reinterpret_cast<uintptr_t>(allocation->base);
  uintptr_t end = begin + allocation->size;
  if (std::shared_ptr<Allocation> other = firstOverlapLocked(begin, end)) {
    uintptr_t oBegin = reinterpret_cast<uintptr_t>(other->base);
    if (other->imports > 0 && other->queue.get() == allocation->queue.get() &&
        other->kind == allocation->kind && oBegin <= begin &&
        end <= oBegin + other->size) {
      ++other->imports;
      return true;
    }
    why = other->imports > 0
              ? "the memory overlaps memory imported differently (another "
                "queue, kind or range)"
              : "the memory overlaps a Sluice allocation: use it directly";
    return false;
  }
  allocation->imports = 1;
  insertLocked(std::move(allocation));
  return true;
}

std::shared_ptr<Allocation>
UsmRegistry::releaseImport(const void *ptr, bool &last, std::string &why) {
  std::lock_guard<std::mutex> lock(mutex);
  uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
  std::shared_ptr<Allocation> a = firstOverlapLocked(p, p + 1);
  if (!a || a->imports == 0) {
    why = a ? "the pointer is a Sluice allocation, not imported memory "
              "(free it with sluiceFree)"
            : "the pointer is not imported memory (or was released as "
              "often as it was imported)";
    return nullptr;
  }
  last = --a->imports == 0;
  if (last) {
    std::shared_ptr<Allocation> gone;
    exactBase.erase(a->base, gone);
    byBase.erase(reinterpret_cast<uintptr_t>(a->base));
  }
  return a;
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
  if (const std::shared_ptr<Allocation> *exact = exactBase.find(ptr))
    return *exact;
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
  std::shared_ptr<Allocation> gone;
  exactBase.erase(ptr, gone);
  return a;
}

} // namespace sluice::rt
