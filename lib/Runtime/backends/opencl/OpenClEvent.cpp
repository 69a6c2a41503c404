//===- OpenClEvent.cpp - A cl_event as a Sluice event ---------------------===//
#include "OpenClEvent.h"

#include "OpenClError.h"

#include "sluice/Runtime/ErrorState.h"

namespace sluice::rt::opencl {

OpenClEvent::~OpenClEvent() { clReleaseEvent(ev); }

SluiceEventStatus OpenClEvent::status() {
  cl_int s = CL_COMPLETE;
  if (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s,
                     nullptr) != CL_SUCCESS)
    return SLUICE_EVENT_ERROR;
  switch (s) {
  case CL_QUEUED:
    return SLUICE_EVENT_QUEUED;
  case CL_SUBMITTED:
    return SLUICE_EVENT_SUBMITTED;
  case CL_RUNNING:
    return SLUICE_EVENT_RUNNING;
  case CL_COMPLETE:
    return SLUICE_EVENT_COMPLETE;
  default:
    return SLUICE_EVENT_ERROR;
  }
}

SluiceStatus OpenClEvent::wait() {
  cl_int err = clWaitForEvents(1, &ev);
  cl_int s = CL_COMPLETE;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr);
  if (err != CL_SUCCESS || s < 0)
    return fail(SLUICE_ERROR_TASK_FAILED,
                std::string("OpenCL command failed: ") +
                    clErrorName(s < 0 ? s : err));
  return SLUICE_SUCCESS;
}

SluiceStatus OpenClEvent::profiling(uint64_t &submit, uint64_t &start,
                                    uint64_t &end) {
  if (!isFinished())
    return fail(SLUICE_ERROR_NOT_READY,
                "profiling information is available once the task finished");
  cl_ulong values[3] = {0, 0, 0};
  const cl_profiling_info what[3] = {CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START,
                                     CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 3; ++i)
    if (cl_int err = clGetEventProfilingInfo(ev, what[i], sizeof(cl_ulong),
                                             &values[i], nullptr))
      return clFail(err, "clGetEventProfilingInfo");
  submit = values[0];
  start = values[1];
  end = values[2];
  return SLUICE_SUCCESS;
}

namespace {
void CL_CALLBACK trampoline(cl_event, cl_int status, void *data) {
  auto *fn = static_cast<std::function<void(bool)> *>(data);
  (*fn)(status == CL_COMPLETE);
  delete fn;
}
} // namespace

void OpenClEvent::whenComplete(std::function<void(bool ok)> fn) {
  auto *heap = new std::function<void(bool)>(std::move(fn));
  if (clSetEventCallback(ev, CL_COMPLETE, trampoline, heap) != CL_SUCCESS) {
    // Fall back to waiting here; rare, and still correct.
    bool ok = wait() == SLUICE_SUCCESS;
    (*heap)(ok);
    delete heap;
  }
}

void makeWaitList(cl_context context, const EventList &deps,
                  std::vector<cl_event> &waitList,
                  std::vector<cl_event> &bridges) {
  for (const Ref<Event> &dep : deps) {
    auto *own = dynamic_cast<OpenClEvent *>(dep.get());
    if (own && own->context() == context) {
      waitList.push_back(own->handle());
      continue;
    }
    if (dep->status() == SLUICE_EVENT_COMPLETE)
      continue;
    cl_int err = CL_SUCCESS;
    cl_event bridge = clCreateUserEvent(context, &err);
    if (!bridge) {
      // Cannot bridge: wait now (blocking, but correct).
      (void)dep->wait();
      continue;
    }
    clRetainEvent(bridge); // for the callback
    dep->whenComplete([bridge](bool ok) {
      clSetUserEventStatus(bridge, ok ? CL_COMPLETE : -1);
      clReleaseEvent(bridge);
    });
    waitList.push_back(bridge);
    bridges.push_back(bridge);
  }
}

} // namespace sluice::rt::opencl
