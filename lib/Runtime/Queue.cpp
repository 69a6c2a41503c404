//===- Queue.cpp - In-order asynchronous queue ----------------------------===//
#include "sluice/Runtime/Queue.h"
#include "sluice/Runtime/ErrorState.h"

namespace sluice::rt {

Queue::~Queue() { dev.reusableBlocks().forget(this); }

void Queue::noteSubmitted(const Ref<Event> &event) {
  std::lock_guard<std::mutex> lock(lastMutex);
  last = event;
}

Ref<Event> Queue::lastEvent() {
  std::lock_guard<std::mutex> lock(lastMutex);
  return last;
}

} // namespace sluice::rt

namespace sluice::rt {

SluiceStatus Queue::copy(void *dst, const void *src, size_t bytes,
                         const EventList &deps, Ref<Event> &out) {
  if (SluiceStatus status = submitCopy(dst, src, bytes, deps, out))
    return status;
  out->submittedOn = this;
  noteSubmitted(out);
  return SLUICE_SUCCESS;
}

SluiceStatus Queue::fill(void *dst, const void *pattern, size_t patternSize,
                         size_t bytes, const EventList &deps, Ref<Event> &out) {
  if (SluiceStatus status =
          submitFill(dst, pattern, patternSize, bytes, deps, out))
    return status;
  out->submittedOn = this;
  noteSubmitted(out);
  return SLUICE_SUCCESS;
}

SluiceStatus Queue::launch(Kernel &kernel, const uint64_t grid[3],
                           const uint64_t local[3], KernelArgs args,
                           const EventList &deps, Ref<Event> &out) {
  if (SluiceStatus status =
          submitLaunch(kernel, grid, local, std::move(args), deps, out))
    return status;
  out->submittedOn = this;
  noteSubmitted(out);
  return SLUICE_SUCCESS;
}

SluiceStatus Queue::matmul(const MatmulDesc &desc, const EventList &deps,
                           Ref<Event> &out) {
  if (SluiceStatus status = submitMatmul(desc, deps, out))
    return status;
  noteSubmitted(out);
  return SLUICE_SUCCESS;
}

SluiceStatus Queue::submitMatmul(const MatmulDesc &, const EventList &,
                                 Ref<Event> &) {
  return fail(SLUICE_ERROR_UNSUPPORTED,
              "matrix products by a library are not available on " +
                  device().filterString() +
                  " (compile the product as a kernel)");
}

SluiceStatus Queue::launchCounter(void *&out) {
  out = nullptr;
  return fail(SLUICE_ERROR_UNSUPPORTED,
              "queues of " + device().filterString() +
                  " have no launch counter: only kernels compiled for CUDA "
                  "use one, and they run on CUDA devices only");
}

SluiceStatus Queue::barrier(const EventList &deps, Ref<Event> &out) {
  if (SluiceStatus status = submitBarrier(deps, out))
    return status;
  out->submittedOn = this;
  noteSubmitted(out);
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt
