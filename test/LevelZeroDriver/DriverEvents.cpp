//===- DriverEvents.cpp - Event pools and events --------------------------===//
#include "DriverState.h"

#include <chrono>
#include <condition_variable>

namespace sluice::zetest {

namespace {

ze_result_t ZE_APICALL eventPoolCreate(ze_context_handle_t handle,
                                       const ze_event_pool_desc_t *desc,
                                       uint32_t numDevices,
                                       ze_device_handle_t *devices,
                                       ze_event_pool_handle_t *out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto *context = lookup<Context>(handle, Kind::Context, "zeEventPoolCreate");
  if (!context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out)
    return misuse("zeEventPoolCreate", "null argument",
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  if (desc->count == 0)
    return misuse("zeEventPoolCreate", "count is 0",
                  ZE_RESULT_ERROR_INVALID_SIZE);
  for (uint32_t i = 0; i < numDevices; ++i)
    if (!lookup<Device>(devices ? devices[i] : nullptr, Kind::Device,
                        "zeEventPoolCreate"))
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  auto pool = std::make_unique<EventPool>();
  pool->context = context;
  pool->flags = desc->flags;
  pool->slots.assign(desc->count, nullptr);
  *out = reinterpret_cast<ze_event_pool_handle_t>(track(std::move(pool)));
  s.eventPoolsCreated++;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL eventPoolDestroy(ze_event_pool_handle_t handle) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto *pool = lookup<EventPool>(handle, Kind::EventPool, "zeEventPoolDestroy");
  if (!pool)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  size_t alive = 0;
  for (Object *slot : pool->slots)
    alive += slot != nullptr;
  if (alive)
    return misuse("zeEventPoolDestroy",
                  std::to_string(alive) + " event(s) of the pool still exist",
                  ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
  destroy(pool);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL eventCreate(ze_event_pool_handle_t handle,
                                   const ze_event_desc_t *desc,
                                   ze_event_handle_t *out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto *pool = lookup<EventPool>(handle, Kind::EventPool, "zeEventCreate");
  if (!pool)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out)
    return misuse("zeEventCreate", "null argument",
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  if (desc->index >= pool->slots.size() || pool->slots[desc->index])
    return misuse("zeEventCreate", "index " + std::to_string(desc->index) +
                                       " is out of range or taken");
  auto event = std::make_unique<EventObject>();
  event->pool = pool;
  event->index = desc->index;
  EventObject *raw = track(std::move(event));
  pool->slots[desc->index] = raw;
  *out = reinterpret_cast<ze_event_handle_t>(raw);
  s.eventsCreated++;
  return ZE_RESULT_SUCCESS;
}

/// Whether a command will still signal the incarnation or wait for it.
std::string pendingUse(Incarnation &inc) {
  if (inc.source && !inc.done->isFinished())
    return "the command that signals it has not finished";
  prune(inc.consumers);
  if (!inc.consumers.empty())
    return std::to_string(inc.consumers.size()) +
           " pending command(s) wait for it";
  return "";
}

ze_result_t ZE_APICALL eventDestroy(ze_event_handle_t handle) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto *event = lookup<EventObject>(handle, Kind::Event, "zeEventDestroy");
  if (!event)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::string busy = pendingUse(*event->current);
  if (!busy.empty())
    return misuse("zeEventDestroy", busy, ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
  event->pool->slots[event->index] = nullptr;
  destroy(event);
  return ZE_RESULT_SUCCESS;
}

/// The live, host-visible event `handle`, or null after reporting misuse.
EventObject *hostEvent(ze_event_handle_t handle, const char *function) {
  auto *event = lookup<EventObject>(handle, Kind::Event, function);
  if (event && !(event->pool->flags & ZE_EVENT_POOL_FLAG_HOST_VISIBLE)) {
    misuse(function, "the event's pool is not host-visible");
    return nullptr;
  }
  return event;
}

ze_result_t ZE_APICALL eventHostSignal(ze_event_handle_t handle) {
  std::shared_ptr<Incarnation> inc;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    EventObject *event = hostEvent(handle, "zeEventHostSignal");
    if (!event)
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    inc = event->current;
    if (inc->source)
      return misuse("zeEventHostSignal",
                    "a command was appended to signal this event");
  }
  if (!inc->done->isFinished())
    inc->done->finish();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL eventHostSynchronize(ze_event_handle_t handle,
                                            uint64_t timeout) {
  std::shared_ptr<Incarnation> inc;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    EventObject *event = hostEvent(handle, "zeEventHostSynchronize");
    if (!event)
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    inc = event->current;
  }
  Ref<rt::SignalEvent> done = inc->done;
  if (done->isFinished())
    return ZE_RESULT_SUCCESS;
  if (timeout == 0)
    return ZE_RESULT_NOT_READY;
  if (timeout == UINT64_MAX) {
    (void)done->wait();
    return ZE_RESULT_SUCCESS;
  }
  struct Waiter {
    std::mutex mutex;
    std::condition_variable cv;
    bool finished = false;
  };
  auto waiter = std::make_shared<Waiter>();
  done->whenComplete([waiter](bool) {
    std::lock_guard<std::mutex> lock(waiter->mutex);
    waiter->finished = true;
    waiter->cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(waiter->mutex);
  bool finished = waiter->cv.wait_for(lock, std::chrono::nanoseconds(timeout),
                                      [&] { return waiter->finished; });
  return finished ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL eventQueryStatus(ze_event_handle_t handle) {
  std::lock_guard<std::mutex> lock(state().mutex);
  EventObject *event = hostEvent(handle, "zeEventQueryStatus");
  if (!event)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return event->current->done->isFinished() ? ZE_RESULT_SUCCESS
                                            : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL eventHostReset(ze_event_handle_t handle) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto *event = lookup<EventObject>(handle, Kind::Event, "zeEventHostReset");
  if (!event)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::string busy = pendingUse(*event->current);
  if (!busy.empty())
    return misuse("zeEventHostReset", busy,
                  ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
  event->current = std::make_shared<Incarnation>();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL eventQueryKernelTimestamp(
    ze_event_handle_t handle, ze_kernel_timestamp_result_t *result) {
  std::shared_ptr<Incarnation> inc;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    auto *event =
        lookup<EventObject>(handle, Kind::Event, "zeEventQueryKernelTimestamp");
    if (!event)
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!(event->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP))
      return misuse("zeEventQueryKernelTimestamp",
                    "the event's pool has no ZE_EVENT_POOL_FLAG_KERNEL_"
                    "TIMESTAMP");
    if (!result)
      return misuse("zeEventQueryKernelTimestamp", "dstptr is null",
                    ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    inc = event->current;
  }
  if (!inc->done->isFinished())
    return ZE_RESULT_NOT_READY;
  uint64_t submit = 0, start = 0, end = 0;
  Event &timed = inc->source ? *inc->source : *inc->done;
  if (timed.profiling(submit, start, end) != SLUICE_SUCCESS)
    return ZE_RESULT_NOT_READY;
  result->global = {start, end};
  result->context = {start, end};
  return ZE_RESULT_SUCCESS;
}

} // namespace

void fillEventPoolTable(ze_event_pool_dditable_t &t) {
  t.pfnCreate = eventPoolCreate;
  t.pfnDestroy = eventPoolDestroy;
}

void fillEventTable(ze_event_dditable_t &t) {
  t.pfnCreate = eventCreate;
  t.pfnDestroy = eventDestroy;
  t.pfnHostSignal = eventHostSignal;
  t.pfnHostSynchronize = eventHostSynchronize;
  t.pfnQueryStatus = eventQueryStatus;
  t.pfnHostReset = eventHostReset;
  t.pfnQueryKernelTimestamp = eventQueryKernelTimestamp;
}

} // namespace sluice::zetest
