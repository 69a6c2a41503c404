//===- DeferredFree.cpp - Release memory once its users finished ----------===//
#include "sluice/Runtime/DeferredFree.h"

#include <algorithm>
#include <chrono>

namespace sluice::rt {

DeferredFree::~DeferredFree() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
    cv.notify_all();
  }
  if (worker.joinable())
    worker.join();
}

void DeferredFree::schedule(EventList waits, std::function<void()> action) {
  EventList pendingWaits;
  appendPending(waits, pendingWaits);
  if (pendingWaits.empty()) {
    action();
    return;
  }
  std::lock_guard<std::mutex> lock(mutex);
  items.push_back({std::move(pendingWaits), std::move(action)});
  queued.store(items.size(), std::memory_order_relaxed);
  if (!worker.joinable())
    worker = std::thread([this] { run(); });
  cv.notify_all();
}

void DeferredFree::run() {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    cv.wait(lock, [&] { return stop || !items.empty(); });
    if (items.empty())
      return;
    Item item = std::move(items.front());
    items.pop_front();
    queued.store(items.size(), std::memory_order_relaxed);
    busy = true;
    lock.unlock();
    // A failed task has finished too: either way its memory is free. The
    // thread polls (with a growing pause) rather than blocking in a
    // driver's wait, which can spin and slow the threads that submit work;
    // allocations reap finished items themselves (reapFinished).
    for (Ref<Event> &event : item.waits) {
      auto pause = std::chrono::microseconds(20);
      while (!event->isFinished()) {
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
      }
    }
    item.action();
    item = Item();
    lock.lock();
    busy = false;
    if (items.empty())
      idle.notify_all();
  }
}

void DeferredFree::reapFinished() {
  if (queued.load(std::memory_order_relaxed) == 0)
    return;
  std::vector<Item> ready;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto it = items.begin(); it != items.end();) {
      bool done = true;
      for (Ref<Event> &event : it->waits)
        done = done && event->isFinished();
      if (done) {
        ready.push_back(std::move(*it));
        it = items.erase(it);
      } else {
        ++it;
      }
    }
    queued.store(items.size(), std::memory_order_relaxed);
    if (items.empty() && !busy)
      idle.notify_all();
  }
  for (Item &item : ready)
    item.action();
}

void DeferredFree::drain() {
  std::unique_lock<std::mutex> lock(mutex);
  idle.wait(lock, [&] { return items.empty() && !busy; });
}

size_t DeferredFree::pending() {
  std::lock_guard<std::mutex> lock(mutex);
  return items.size() + (busy ? 1 : 0);
}

} // namespace sluice::rt
