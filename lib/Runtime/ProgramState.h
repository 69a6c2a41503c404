//===- ProgramState.h - Invocation state of compiled programs ---*- C++ -*-===//
//
// Internal to the program-support layer (sluice-c/Program.h): the
// thread-local state of the current invocation and helpers shared by the
// Program*.cpp files.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_LIB_RUNTIME_PROGRAMSTATE_H
#define SLUICE_LIB_RUNTIME_PROGRAMSTATE_H

#include "CApi.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace sluice::rt::program {

/// A queue the current invocation submitted work to.
struct QueueSlot {
  Queue *queue = nullptr;
  /// The invocation's newest task on this queue.
  Ref<Event> last;
  /// A task of another queue that the next task on this queue must follow
  /// (a copy that read or wrote memory of this queue); null once a task of
  /// this queue depends on it (the queue is in order).
  Ref<Event> after;
};

/// What one thread's current invocation (sluiceProgramBegin..End, or the
/// implicit one outside them) has done: its first failure and the queues
/// it touched.
class Invocation {
public:
  /// This thread's invocation.
  static Invocation &current();

  bool failed() const { return status != SLUICE_SUCCESS; }
  SluiceStatus firstStatus() const { return status; }
  /// Keeps `s` and the thread's last-error message if nothing failed yet.
  void record(SluiceStatus s);
  /// Sets the thread's last-error message back to the first failure's.
  void restoreMessage() const;

  /// The index of the slot for `queue` in slots(), added if new. Indices
  /// stay valid until reset().
  size_t slotIndex(Queue *queue);
  QueueSlot &slot(size_t index) { return slots[index]; }

  /// Waits for every touched queue, then forgets everything; returns the
  /// first failure (its message as the thread's last error).
  SluiceStatus finish();
  void reset();

private:
  SluiceStatus status = SLUICE_SUCCESS;
  std::string message;
  std::vector<QueueSlot> slots;
};

/// Runs `body` (which returns a status) unless the invocation already
/// failed, turning exceptions into statuses and recording any failure.
/// Returns whether the body ran and succeeded.
template <typename Fn> bool run(Invocation &inv, Fn &&body) noexcept {
  if (inv.failed())
    return false;
  SluiceStatus status = guarded(std::forward<Fn>(body));
  if (status == SLUICE_SUCCESS)
    return true;
  inv.record(status);
  return false;
}

/// Whether a 64-bit size of the C contract fits in size_t.
inline bool fitsSize(uint64_t bytes) {
  if constexpr (sizeof(size_t) < sizeof(uint64_t))
    return bytes <= SIZE_MAX;
  return true;
}

/// Hash of a pair of addresses (cache keys).
struct AddressPairHash {
  size_t operator()(const std::pair<const void *, const void *> &p) const {
    uint64_t a = reinterpret_cast<uintptr_t>(p.first);
    uint64_t b = reinterpret_cast<uintptr_t>(p.second);
    return std::hash<uint64_t>()((a * 0x9e3779b97f4a7c15ull) ^ b);
  }
};

/// The device sluiceProgramSetDeviceOverride's selector picks: a dpctl
/// filter selector, else a SLUICE_DEVICE_SELECTOR-style string (the first
/// visible device it accepts).
SluiceStatus selectOverrideDevice(const std::string &selector, Device *&out);

} // namespace sluice::rt::program

#endif // SLUICE_LIB_RUNTIME_PROGRAMSTATE_H
