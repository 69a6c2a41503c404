//===- ReusableBlocks.h - Stream-ordered reuse of freed memory --*- C++ -*-===//
//
// A block freed while tasks of its in-order queue may still use it cannot
// go back to the pool (any queue, or the host, could write it at once), but
// the next allocation for the same queue may take it at once: that queue's
// later tasks run after the old ones. This is what CUDA's stream-ordered
// allocator does; it lets results freed back to back be reused without a
// wait. A reused block carries a fence (the queue's newest task when it was
// freed): tasks of other queues that use it wait for the fence first.
//
// Only for memory the host cannot touch (device USM on a GPU), where every
// access goes through a queue; SLUICE_REUSE_IN_ORDER=0 turns it off.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_RUNTIME_REUSABLEBLOCKS_H
#define SLUICE_RUNTIME_REUSABLEBLOCKS_H

#include "sluice-c/Runtime.h"
#include "sluice/Runtime/Event.h"

#include <cstddef>
#include <deque>
#include <mutex>

namespace sluice::rt {

class Device;
class Queue;

class ReusableBlocks {
public:
  /// How many blocks a device keeps this way (older ones go to the pool
  /// once their tasks finished).
  static constexpr size_t kMaxBlocks = 64;

  explicit ReusableBlocks(Device &device) : device(device) {}
  ~ReusableBlocks();

  /// Whether memory of `kind` freed on queues of `device` is kept here.
  static bool enabledFor(Device &device, SluiceUsmKind kind);
  /// Tests: 1 forces it on for every kind, 0 off, -1 back to the default.
  static void setModeForTesting(int mode);

  /// A block of `device`'s pool freed on `queue` while its tasks may still
  /// use it; `fence` is the queue's newest task. An older block may be
  /// pushed out to `evicted` (with its fence) for the caller to release
  /// through the deferred frees.
  struct Entry {
    const Queue *queue = nullptr;
    SluiceUsmKind kind = SLUICE_USM_UNKNOWN;
    void *ptr = nullptr;
    size_t blockSize = 0, alignment = 0;
    Ref<Event> fence;
  };
  void offer(Entry entry, Entry &evicted);
  /// A kept block for an allocation of (kind, bytes, alignment) on `queue`:
  /// one of that queue's (its fence to follow on other queues), or one
  /// whose tasks finished. False when none fits.
  bool take(const Queue *queue, SluiceUsmKind kind, size_t bytes,
            size_t alignment, void *&ptr, Ref<Event> &fence);
  /// Gives the pool the blocks whose tasks finished (all of them, waiting
  /// for their tasks, when `wait`).
  void release(bool wait);
  /// `queue` is going away: its blocks go to the pool (its destructor
  /// finished its work, or they wait for their fences).
  void forget(const Queue *queue);

private:
  Device &device;
  std::mutex mutex;
  std::deque<Entry> entries;
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_REUSABLEBLOCKS_H
