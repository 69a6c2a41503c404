//===- ProgramInvocation.cpp - Begin/end of a compiled program's run ------===//
#include "ProgramState.h"

#include "sluice-c/Program.h"
#include "sluice/Runtime/ProgramContext.h"

#include <atomic>

using namespace sluice::rt;
using namespace sluice::rt::program;

namespace sluice::rt::program {

Invocation &Invocation::current() {
  static thread_local Invocation invocation;
  return invocation;
}

void Invocation::record(SluiceStatus s) {
  if (failed() || s == SLUICE_SUCCESS)
    return;
  status = s;
  try {
    message = lastErrorMessage();
  } catch (...) {
    message.clear(); // out of memory: the status alone must do
  }
}

void Invocation::restoreMessage() const {
  if (!failed())
    return;
  try {
    fail(status, message);
  } catch (...) {
  }
}

size_t Invocation::slotIndex(Queue *queue) {
  // A program touches few queues: a linear scan beats any map.
  for (size_t i = 0, e = slots.size(); i < e; ++i)
    if (slots[i].queue == queue)
      return i;
  if (slots.capacity() == 0)
    slots.reserve(8);
  slots.push_back(QueueSlot{queue, nullptr, nullptr});
  return slots.size() - 1;
}

namespace {
std::atomic<bool> asynchronous{false};
/// This thread's setting (sluiceProgramSetThreadAsynchronous): -1 follows
/// the process-wide one.
thread_local int threadAsynchronous = -1;
/// Entries running on this thread (Begin without its End yet).
thread_local int entryDepth = 0;
/// The newest task of each queue of this thread's last asynchronous
/// invocation (sluiceProgramTakeEvents).
thread_local std::vector<std::pair<Ref<Event>, Queue *>> handedOff;

bool asynchronousNow() {
  return threadAsynchronous >= 0 ? threadAsynchronous == 1
                                 : asynchronous.load(std::memory_order_relaxed);
}
} // namespace

bool insideWaitingEntry() { return entryDepth > 0 && !asynchronousNow(); }

SluiceStatus Invocation::finish() {
  handedOff.clear();
  if (asynchronousNow()) {
    for (QueueSlot &slot : slots)
      if (slot.last)
        handedOff.emplace_back(slot.last, slot.queue);
  } else {
    for (QueueSlot &slot : slots) {
      // Wait even after a failure: nothing of the invocation runs once End
      // has returned.
      SluiceStatus s = guarded([&] { return slot.queue->wait(); });
      record(s);
    }
  }
  SluiceStatus result = status;
  restoreMessage();
  reset();
  return result;
}

void Invocation::reset() {
  status = SLUICE_SUCCESS;
  message.clear();
  slots.clear();
}

} // namespace sluice::rt::program

extern "C" {

void sluiceProgramBegin(void) {
  ++entryDepth;
  Invocation::current().reset();
}

int32_t sluiceProgramEnd(void) {
  if (entryDepth > 0)
    --entryDepth;
  return Invocation::current().finish();
}

void sluiceProgramSetAsynchronous(int enabled) {
  asynchronous.store(enabled != 0, std::memory_order_relaxed);
}

void sluiceProgramSetThreadAsynchronous(int mode) {
  threadAsynchronous = mode < 0 ? -1 : mode != 0;
}

uint32_t sluiceProgramTakeEvents(SluiceEvent *events, SluiceQueue *queues,
                                 uint32_t capacity) {
  auto count = static_cast<uint32_t>(handedOff.size());
  for (uint32_t i = 0; i < count && i < capacity; ++i) {
    returnEvent(std::move(handedOff[i].first), events ? &events[i] : nullptr);
    if (queues)
      queues[i] = wrap(handedOff[i].second);
  }
  handedOff.clear();
  return count;
}

} // extern "C"
