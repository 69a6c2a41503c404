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
/// Entries running on this thread (Begin without its End yet).
thread_local int entryDepth = 0;
} // namespace

bool insideWaitingEntry() {
  return entryDepth > 0 && !asynchronous.load(std::memory_order_relaxed);
}

SluiceStatus Invocation::finish() {
  for (QueueSlot &slot : slots) {
    if (asynchronous.load(std::memory_order_relaxed))
      break;
    // Wait even after a failure: nothing of the invocation runs once End
    // has returned.
    SluiceStatus s = guarded([&] { return slot.queue->wait(); });
    record(s);
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

} // extern "C"
