//===- Event.h - Completion of a submitted task -----------------*- C++ -*-===//
#ifndef SLUICE_RUNTIME_EVENT_H
#define SLUICE_RUNTIME_EVENT_H

#include "sluice-c/Runtime.h"
#include "sluice/Runtime/RefCounted.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace sluice::rt {

/// The completion of one task (copy, fill, launch). Each backend provides
/// its own; any backend's queue may depend on any other backend's event.
class Event : public RefCounted {
public:
  virtual SluiceBackend backend() const = 0;
  virtual SluiceEventStatus status() = 0;
  /// Blocks until the task finished. Returns SLUICE_SUCCESS, or
  /// SLUICE_ERROR_TASK_FAILED with the reason as the last-error message.
  virtual SluiceStatus wait() = 0;
  /// Nanosecond timestamps of a finished task.
  virtual SluiceStatus profiling(uint64_t &submit, uint64_t &start,
                                 uint64_t &end) = 0;
  /// Calls `fn(ok)` once the task has finished, possibly at once, possibly
  /// from another thread. `fn` must be quick and must not block.
  virtual void whenComplete(std::function<void(bool ok)> fn) = 0;
  /// The caller keeps this event (the C API handed it out): a backend that
  /// marks completions lazily marks this task now if that is still exact
  /// (no later task was submitted), so its status and timestamps are its
  /// own. The default does nothing (every task is marked).
  virtual void pin() {}
  /// Whether this task finishes only after `older` has (a later task of
  /// the same in-order queue): lists of pending uses then keep this one.
  virtual bool supersedes(const Event &older) const {
    (void)older;
    return false;
  }
  /// Whether this task was submitted to `queue` (in order: its later tasks
  /// run after it).
  bool onQueue(const class Queue &queue) const { return submittedOn == &queue; }
  /// Set by the queue that submitted the task.
  const class Queue *submittedOn = nullptr;

  bool isFinished() {
    SluiceEventStatus s = status();
    return s == SLUICE_EVENT_COMPLETE || s == SLUICE_EVENT_ERROR;
  }
};

using EventList = std::vector<Ref<Event>>;

/// Adds the still unfinished events of `events` to `out` (each once).
void appendPending(const EventList &events, EventList &out);

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_EVENT_H
