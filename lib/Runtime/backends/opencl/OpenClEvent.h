//===- OpenClEvent.h - A cl_event as a Sluice event -------------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_OPENCL_OPENCLEVENT_H
#define SLUICE_LIB_RUNTIME_OPENCL_OPENCLEVENT_H

#include "sluice/Runtime/Event.h"

#include <CL/cl.h>

namespace sluice::rt::opencl {

class OpenClEvent final : public Event {
public:
  /// Takes over the reference to `event`.
  OpenClEvent(cl_context context, cl_event event) : ctx(context), ev(event) {}
  ~OpenClEvent() override;

  cl_context context() const { return ctx; }
  cl_event handle() const { return ev; }

  SluiceBackend backend() const override { return SLUICE_BACKEND_OPENCL; }
  SluiceEventStatus status() override;
  SluiceStatus wait() override;
  SluiceStatus profiling(uint64_t &submit, uint64_t &start,
                         uint64_t &end) override;
  void whenComplete(std::function<void(bool ok)> fn) override;

private:
  cl_context ctx;
  cl_event ev;
};

/// Builds a wait list for a command in `context`: events of that context are
/// used directly; any other event is bridged by a user event that its
/// completion sets. The caller releases `bridges` after enqueueing.
void makeWaitList(cl_context context, const EventList &deps,
                  std::vector<cl_event> &waitList,
                  std::vector<cl_event> &bridges);

} // namespace sluice::rt::opencl

#endif // SLUICE_LIB_RUNTIME_OPENCL_OPENCLEVENT_H
