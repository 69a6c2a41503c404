//===- OpenClQueue.cpp - An in-order cl_command_queue ---------------------===//
#include "OpenClQueue.h"

#include "OpenClDevice.h"
#include "OpenClError.h"
#include "OpenClEvent.h"
#include "OpenClModule.h"

#include "sluice/Runtime/ErrorState.h"

namespace sluice::rt::opencl {

SluiceStatus OpenClQueue::create(OpenClDevice &device, Ref<Queue> &out) {
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
                                 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueueWithProperties(
      device.clContext().handle(), device.handle(), props, &err);
  if (!q)
    return clFail(err, "clCreateCommandQueueWithProperties");
  out = Ref<Queue>::adopt(new OpenClQueue(device, q));
  return SLUICE_SUCCESS;
}

OpenClQueue::OpenClQueue(OpenClDevice &device, cl_command_queue queue)
    : Queue(device), clDevice(device), queue(queue) {}

OpenClQueue::~OpenClQueue() {
  clFinish(queue);
  clReleaseCommandQueue(queue);
}

SluiceStatus OpenClQueue::wait() {
  if (cl_int err = clFinish(queue))
    return clFail(err, "clFinish");
  Ref<Event> last = lastEvent();
  if (last && last->status() == SLUICE_EVENT_ERROR)
    return fail(SLUICE_ERROR_TASK_FAILED, "the last task on queue " +
                                              device().filterString() +
                                              " failed");
  return SLUICE_SUCCESS;
}

SluiceStatus OpenClQueue::enqueue(
    const char *what, const EventList &deps,
    const std::function<cl_int(cl_uint, const cl_event *, cl_event *)>
        &enqueueFn,
    Ref<Event> &out) {
  std::vector<cl_event> waitList, bridges;
  makeWaitList(clDevice.clContext().handle(), deps, waitList, bridges);
  cl_event event = nullptr;
  cl_int err = enqueueFn(static_cast<cl_uint>(waitList.size()),
                         waitList.empty() ? nullptr : waitList.data(), &event);
  for (cl_event bridge : bridges)
    clReleaseEvent(bridge);
  if (err != CL_SUCCESS)
    return clFail(err, what);
  clFlush(queue);
  out = makeRef<OpenClEvent>(clDevice.clContext().handle(), event);
  return SLUICE_SUCCESS;
}

SluiceStatus OpenClQueue::submitCopy(void *dst, const void *src, size_t bytes,
                                     const EventList &deps, Ref<Event> &out) {
  const IntelUsm &usm = clDevice.clContext().intelUsm();
  if (clDevice.usm().intel)
    return enqueue(
        "clEnqueueMemcpyINTEL", deps,
        [&](cl_uint n, const cl_event *w, cl_event *e) {
          return usm.enqueueMemcpy(queue, CL_FALSE, dst, src, bytes, n, w, e);
        },
        out);
  return enqueue(
      "clEnqueueSVMMemcpy", deps,
      [&](cl_uint n, const cl_event *w, cl_event *e) {
        return clEnqueueSVMMemcpy(queue, CL_FALSE, dst, src, bytes, n, w, e);
      },
      out);
}

SluiceStatus OpenClQueue::submitFill(void *dst, const void *pattern,
                                     size_t patternSize, size_t bytes,
                                     const EventList &deps, Ref<Event> &out) {
  const IntelUsm &usm = clDevice.clContext().intelUsm();
  if (clDevice.usm().intel)
    return enqueue(
        "clEnqueueMemFillINTEL", deps,
        [&](cl_uint n, const cl_event *w, cl_event *e) {
          return usm.enqueueMemFill(queue, dst, pattern, patternSize, bytes, n,
                                    w, e);
        },
        out);
  return enqueue(
      "clEnqueueSVMMemFill", deps,
      [&](cl_uint n, const cl_event *w, cl_event *e) {
        return clEnqueueSVMMemFill(queue, dst, pattern, patternSize, bytes, n,
                                   w, e);
      },
      out);
}

SluiceStatus OpenClQueue::submitLaunch(Kernel &kernel, const uint64_t grid[3],
                                       const uint64_t local[3], KernelArgs args,
                                       const EventList &deps, Ref<Event> &out) {
  auto &k = static_cast<OpenClKernel &>(kernel);
  const IntelUsm &usm = clDevice.clContext().intelUsm();
  size_t globalSize[3], localSize[3];
  for (int d = 0; d < 3; ++d) {
    globalSize[d] = static_cast<size_t>(grid[d] * local[d]);
    localSize[d] = static_cast<size_t>(local[d]);
  }
  // Arguments live in the cl_kernel: set and enqueue under its lock.
  std::lock_guard<std::mutex> lock(k.mutex());
  for (size_t i = 0; i < args.size(); ++i) {
    cl_uint index = static_cast<cl_uint>(i);
    cl_int err;
    if (args.isUsmPointer(i)) {
      void *p = *static_cast<void *const *>(args.value(i));
      err = clDevice.usm().intel
                ? usm.setKernelArgMemPointer(k.handle(), index, p)
                : clSetKernelArgSVMPointer(k.handle(), index, p);
    } else {
      err = clSetKernelArg(k.handle(), index, args.valueSize(i), args.value(i));
    }
    if (err != CL_SUCCESS)
      return clFail(err, "setting argument " + std::to_string(i) +
                             " of kernel '" + kernel.name() + "'");
  }
  return enqueue(
      "clEnqueueNDRangeKernel", deps,
      [&](cl_uint n, const cl_event *w, cl_event *e) {
        return clEnqueueNDRangeKernel(queue, k.handle(), 3, nullptr, globalSize,
                                      localSize, n, w, e);
      },
      out);
}

SluiceStatus OpenClQueue::submitBarrier(const EventList &deps,
                                        Ref<Event> &out) {
  return enqueue(
      "clEnqueueMarkerWithWaitList", deps,
      [&](cl_uint n, const cl_event *w, cl_event *e) {
        return clEnqueueMarkerWithWaitList(queue, n, w, e);
      },
      out);
}

} // namespace sluice::rt::opencl
