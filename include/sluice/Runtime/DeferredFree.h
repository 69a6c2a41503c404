//===- DeferredFree.h - Release memory once its users finished --*- C++ -*-===//
#ifndef SLUICE_RUNTIME_DEFERREDFREE_H
#define SLUICE_RUNTIME_DEFERREDFREE_H

#include "sluice/Runtime/Event.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace sluice::rt {

/// Runs release actions once the events they wait for have finished: at
/// once when they already have, otherwise on a background thread (started
/// on first need) that waits for them in order.
class DeferredFree {
public:
  ~DeferredFree();
  void schedule(EventList waits, std::function<void()> action);
  /// Blocks until every scheduled action has run (tests, shutdown).
  void drain();
  /// Number of actions still waiting.
  size_t pending();
  /// Runs, on the calling thread, the waiting actions whose events have
  /// finished by now (without blocking on any): an allocation that would
  /// otherwise find its pool empty while freed blocks wait for the
  /// background thread calls this first. Cheap when nothing waits.
  void reapFinished();

private:
  struct Item {
    EventList waits;
    std::function<void()> action;
  };
  void run();

  std::mutex mutex;
  std::condition_variable cv, idle;
  std::deque<Item> items;
  /// items.size(), readable without the lock.
  std::atomic<size_t> queued{0};
  bool busy = false, stop = false;
  std::thread worker;
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_DEFERREDFREE_H
