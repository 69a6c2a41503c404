//===- UsmAccess.h - Which memory a queue can reach -------------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_USMACCESS_H
#define SLUICE_LIB_RUNTIME_USMACCESS_H

#include "sluice/Runtime/UsmRegistry.h"

namespace sluice::rt {

/// Whether a copy on `queue` may read or write `a` directly: the queue's
/// own context's memory, or anything host code can touch (plain host memory
/// when `a` is null, host-accessible USM of any device).
inline bool copyReaches(Queue &queue, const Allocation *a) {
  return !a || &a->device->context() == &queue.device().context() ||
         a->device->hostAccessible(a->kind);
}

/// Whether fills and kernels on `queue` may use `a`: the queue's own
/// context's memory; host queues also reach any host-accessible memory.
inline bool kernelReaches(Queue &queue, const Allocation *a) {
  if (a && &a->device->context() == &queue.device().context())
    return true;
  return queue.device().backend() == SLUICE_BACKEND_HOST &&
         (!a || a->device->hostAccessible(a->kind));
}

} // namespace sluice::rt

#endif // SLUICE_LIB_RUNTIME_USMACCESS_H
