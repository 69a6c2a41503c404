//===- OpenClQueue.h - An in-order cl_command_queue -------------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_OPENCL_OPENCLQUEUE_H
#define SLUICE_LIB_RUNTIME_OPENCL_OPENCLQUEUE_H

#include "sluice/Runtime/Queue.h"

#include <CL/cl.h>
#include <functional>

namespace sluice::rt::opencl {

class OpenClDevice;

/// An in-order command queue with profiling enabled. Commands are flushed
/// as they are enqueued, so they progress without a wait.
class OpenClQueue final : public Queue {
public:
  static SluiceStatus create(OpenClDevice &device, Ref<Queue> &out);
  ~OpenClQueue() override;

  SluiceStatus wait() override;
  void *nativeHandle() override { return queue; }

protected:
  SluiceStatus submitCopy(void *dst, const void *src, size_t bytes,
                          const EventList &deps, Ref<Event> &out) override;
  SluiceStatus submitFill(void *dst, const void *pattern, size_t patternSize,
                          size_t bytes, const EventList &deps,
                          Ref<Event> &out) override;
  SluiceStatus submitLaunch(Kernel &kernel, const uint64_t grid[3],
                            const uint64_t local[3], KernelArgs args,
                            const EventList &deps, Ref<Event> &out) override;
  SluiceStatus submitBarrier(const EventList &deps, Ref<Event> &out) override;

private:
  OpenClQueue(OpenClDevice &device, cl_command_queue queue);
  /// Runs `enqueue(numWait, waitList, &event)` with `deps` as the wait list
  /// and wraps the resulting event.
  SluiceStatus enqueue(const char *what, const EventList &deps,
                       const std::function<cl_int(cl_uint, const cl_event *,
                                                  cl_event *)> &enqueueFn,
                       Ref<Event> &out);

  OpenClDevice &clDevice;
  cl_command_queue queue;
};

} // namespace sluice::rt::opencl

#endif // SLUICE_LIB_RUNTIME_OPENCL_OPENCLQUEUE_H
