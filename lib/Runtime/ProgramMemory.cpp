//===- ProgramMemory.cpp - Allocations and copies of compiled programs ----===//
#include "ProgramState.h"

#include "sluice-c/Program.h"

using namespace sluice::rt;
using namespace sluice::rt::program;

extern "C" {

void *sluiceProgramAlloc(void *queue, int32_t kind, uint64_t bytes) {
  Invocation &inv = Invocation::current();
  void *ptr = nullptr;
  bool ok = run(inv, [&] {
    if (!queue)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramAlloc: the queue is NULL");
    // Checked here: converting an out-of-range value to the enum is not.
    if (kind < SLUICE_USM_DEVICE || kind > SLUICE_USM_HOST)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramAlloc: unknown USM kind " +
                      std::to_string(kind));
    // The compiled code passes UINT64_MAX for a size whose byte count
    // overflows 64 bits.
    if (bytes == UINT64_MAX)
      return fail(SLUICE_ERROR_OUT_OF_HOST_MEMORY,
                  "sluiceProgramAlloc: the size of an array in bytes "
                  "overflows 64 bits; it cannot be allocated");
    if (bytes > (uint64_t(1) << 62) || !fitsSize(bytes))
      return fail(SLUICE_ERROR_OUT_OF_HOST_MEMORY,
                  "sluiceProgramAlloc: " + std::to_string(bytes) +
                      " bytes do not fit in this address space");
    // An empty array still gets a unique pointer that can be freed.
    size_t size = bytes ? static_cast<size_t>(bytes) : 64;
    return sluiceMalloc(static_cast<SluiceQueue>(queue),
                        static_cast<SluiceUsmKind>(kind), size, 64, &ptr);
  });
  return ok ? ptr : nullptr;
}

void sluiceProgramFree(void *queue, void *ptr) {
  if (!ptr)
    return;
  Invocation &inv = Invocation::current();
  // Freeing stays safe after a failure (the release waits for the work
  // that uses the memory) and avoids leaks; only the first error counts.
  SluiceStatus status = sluiceFree(static_cast<SluiceQueue>(queue), ptr);
  if (status == SLUICE_SUCCESS)
    return;
  if (inv.failed())
    inv.restoreMessage();
  else
    inv.record(status);
}

void sluiceProgramCopy(void *dstQueue, void *dst, void *srcQueue,
                       const void *src, uint64_t bytes) {
  if (!bytes)
    return;
  Invocation &inv = Invocation::current();
  run(inv, [&] {
    if (!dstQueue && !srcQueue)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramCopy: both queues are NULL");
    if (!dst || !src)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  std::string("sluiceProgramCopy: the ") +
                      (dst ? "source" : "destination") + " is NULL");
    if (!fitsSize(bytes))
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramCopy: size out of range");
    Queue *on =
        unwrap(static_cast<SluiceQueue>(dstQueue ? dstQueue : srcQueue));
    Queue *from = srcQueue ? unwrap(static_cast<SluiceQueue>(srcQueue)) : on;
    size_t onIndex = inv.slotIndex(on);
    size_t fromIndex = from == on ? onIndex : inv.slotIndex(from);
    SluiceEvent deps[3];
    uint32_t numDeps = 0;
    if (QueueSlot &s = inv.slot(onIndex); s.after)
      deps[numDeps++] = wrap(s.after.get());
    if (fromIndex != onIndex) {
      QueueSlot &s = inv.slot(fromIndex);
      if (s.last)
        deps[numDeps++] = wrap(s.last.get());
      if (s.after)
        deps[numDeps++] = wrap(s.after.get());
    }
    SluiceEvent event = nullptr;
    if (SluiceStatus status =
            sluiceMemcpy(wrap(on), dst, src, bytes, numDeps, deps, &event))
      return status;
    Ref<Event> done = Ref<Event>::adopt(unwrap(event));
    QueueSlot &onSlot = inv.slot(onIndex);
    onSlot.after = nullptr;
    if (fromIndex != onIndex)
      inv.slot(fromIndex).after = done; // later work there may overwrite src
    onSlot.last = std::move(done);
    return SLUICE_SUCCESS;
  });
}

} // extern "C"
