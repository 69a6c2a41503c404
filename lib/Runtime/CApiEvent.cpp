//===- CApiEvent.cpp - C API: errors and events ---------------------------===//
#include "CApi.h"

using namespace sluice::rt;

namespace sluice::rt {

SluiceStatus toEventList(uint32_t num, const SluiceEvent *events,
                         EventList &out) {
  if (num && !events)
    return fail(SLUICE_ERROR_INVALID_VALUE,
                "the dependency list is NULL but its length is " +
                    std::to_string(num));
  for (uint32_t i = 0; i < num; ++i) {
    if (!events[i])
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "dependency event " + std::to_string(i) + " is NULL");
    out.push_back(Ref<Event>::share(unwrap(events[i])));
  }
  return SLUICE_SUCCESS;
}

thread_local bool keepEventsInternal = false;

void returnEvent(Ref<Event> event, SluiceEvent *out) {
  if (!out)
    return;
  if (event && !keepEventsInternal)
    event->pin();
  *out = wrap(event.leak());
}

} // namespace sluice::rt

extern "C" {

const char *sluiceGetLastErrorMessage(void) {
  return lastErrorMessage().c_str();
}

const char *sluiceStatusString(SluiceStatus status) {
  switch (status) {
#define CASE(x)                                                                \
  case x:                                                                      \
    return #x;
    CASE(SLUICE_SUCCESS)
    CASE(SLUICE_ERROR_INVALID_VALUE)
    CASE(SLUICE_ERROR_INVALID_SELECTOR)
    CASE(SLUICE_ERROR_DEVICE_NOT_FOUND)
    CASE(SLUICE_ERROR_OUT_OF_HOST_MEMORY)
    CASE(SLUICE_ERROR_OUT_OF_DEVICE_MEMORY)
    CASE(SLUICE_ERROR_UNSUPPORTED)
    CASE(SLUICE_ERROR_BUILD_FAILED)
    CASE(SLUICE_ERROR_KERNEL_NOT_FOUND)
    CASE(SLUICE_ERROR_INVALID_POINTER)
    CASE(SLUICE_ERROR_BACKEND)
    CASE(SLUICE_ERROR_TASK_FAILED)
    CASE(SLUICE_ERROR_NOT_READY)
    CASE(SLUICE_ERROR_COMPILE_FAILED)
    CASE(SLUICE_ERROR_NOT_FOUND)
#undef CASE
  default:
    break;
  }
  return "SLUICE_ERROR_UNKNOWN";
}

SluiceStatus sluiceEventGetStatus(SluiceEvent event,
                                  SluiceEventStatus *status) {
  SLUICE_CHECK_ARG(event);
  SLUICE_CHECK_ARG(status);
  return guarded([&] {
    *status = unwrap(event)->status();
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceEventWait(SluiceEvent event) {
  SLUICE_CHECK_ARG(event);
  return guarded([&] { return unwrap(event)->wait(); });
}

SluiceStatus sluiceEventsWait(uint32_t num_events, const SluiceEvent *events) {
  return guarded([&] {
    EventList list;
    if (SluiceStatus status = toEventList(num_events, events, list))
      return status;
    SluiceStatus result = SLUICE_SUCCESS;
    for (Ref<Event> &event : list)
      if (SluiceStatus status = event->wait(); status && !result)
        result = status;
    return result;
  });
}

SluiceStatus sluiceEventGetProfilingInfo(SluiceEvent event, uint64_t *submit_ns,
                                         uint64_t *start_ns, uint64_t *end_ns) {
  SLUICE_CHECK_ARG(event);
  return guarded([&] {
    uint64_t submit = 0, start = 0, end = 0;
    if (SluiceStatus status = unwrap(event)->profiling(submit, start, end))
      return status;
    if (submit_ns)
      *submit_ns = submit;
    if (start_ns)
      *start_ns = start;
    if (end_ns)
      *end_ns = end;
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceEventRetain(SluiceEvent event) {
  SLUICE_CHECK_ARG(event);
  unwrap(event)->retain();
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceEventRelease(SluiceEvent event) {
  SLUICE_CHECK_ARG(event);
  unwrap(event)->release();
  return SLUICE_SUCCESS;
}

} // extern "C"
