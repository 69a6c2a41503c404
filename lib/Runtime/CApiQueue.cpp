//===- CApiQueue.cpp - C API: queues --------------------------------------===//
#include "CApi.h"

using namespace sluice::rt;

extern "C" {

SluiceStatus sluiceQueueGetCanonical(SluiceDevice device, SluiceQueue *queue) {
  SLUICE_CHECK_ARG(device);
  SLUICE_CHECK_ARG(queue);
  return guarded([&] {
    Queue *q = nullptr;
    if (SluiceStatus status =
            Platform::get().canonicalQueue(*unwrap(device), q))
      return status;
    *queue = wrap(q);
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceQueueCreate(SluiceDevice device, SluiceQueue *queue) {
  SLUICE_CHECK_ARG(device);
  SLUICE_CHECK_ARG(queue);
  return guarded([&] {
    Ref<Queue> q;
    if (SluiceStatus status = unwrap(device)->createQueue(q))
      return status;
    *queue = wrap(q.leak());
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceQueueRetain(SluiceQueue queue) {
  SLUICE_CHECK_ARG(queue);
  // Canonical queues live as long as the process: counting is moot.
  if (!unwrap(queue)->isCanonical())
    unwrap(queue)->retain();
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceQueueRelease(SluiceQueue queue) {
  SLUICE_CHECK_ARG(queue);
  return guarded([&] {
    if (!unwrap(queue)->isCanonical())
      unwrap(queue)->release();
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceQueueGetDevice(SluiceQueue queue, SluiceDevice *device) {
  SLUICE_CHECK_ARG(queue);
  SLUICE_CHECK_ARG(device);
  *device = wrap(&unwrap(queue)->device());
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceQueueIsCanonical(SluiceQueue queue, int *is_canonical) {
  SLUICE_CHECK_ARG(queue);
  SLUICE_CHECK_ARG(is_canonical);
  *is_canonical = unwrap(queue)->isCanonical();
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceQueueSetProfiling(SluiceQueue queue, int enable) {
  SLUICE_CHECK_ARG(queue);
  unwrap(queue)->setProfiling(enable != 0);
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceQueueGetProfiling(SluiceQueue queue, int *enabled) {
  SLUICE_CHECK_ARG(queue);
  SLUICE_CHECK_ARG(enabled);
  *enabled = unwrap(queue)->profilingEnabled();
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceQueueWait(SluiceQueue queue) {
  SLUICE_CHECK_ARG(queue);
  return guarded([&] { return unwrap(queue)->wait(); });
}

SluiceStatus sluiceQueueGetLastEvent(SluiceQueue queue, SluiceEvent *event) {
  SLUICE_CHECK_ARG(queue);
  SLUICE_CHECK_ARG(event);
  // Handed out like a task's own event: marked while it is the newest.
  returnEvent(unwrap(queue)->lastEvent(), event);
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceQueueGetNativeHandle(SluiceQueue queue, void **handle) {
  SLUICE_CHECK_ARG(queue);
  SLUICE_CHECK_ARG(handle);
  *handle = unwrap(queue)->nativeHandle();
  return SLUICE_SUCCESS;
}

} // extern "C"
