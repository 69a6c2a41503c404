//===- ZeEvent.cpp - A recycled ze_event as a Sluice event ----------------===//
#include "ZeEvent.h"

#include "ZeContext.h"
#include "ZeError.h"

#include "sluice/Runtime/ErrorState.h"

namespace sluice::rt::level_zero {

namespace {
/// Waits are sliced so that shutdown is never held off for long.
constexpr uint64_t kWaitSliceNs = 100'000'000;
} // namespace

ZeEvent::~ZeEvent() {
  complete({});
  ZeContext::Use use(ctx);
  if (use)
    ctx.events().release(ev);
}

void ZeEvent::complete(std::string error) {
  EventList before;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (done)
      return;
    before = upstream;
  }
  // Upstream events finished before this command could start.
  for (const Ref<Event> &event : before)
    if (error.empty() && event->status() == SLUICE_EVENT_ERROR)
      error = "a task it depended on failed";
  EventList drop;
  std::vector<std::function<void()>> actions;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (done)
      return;
    done = true;
    failed = !error.empty();
    failure = std::move(error);
    drop.swap(held);
    upstream.clear();
    actions.swap(cleanups);
  }
  for (auto &action : actions)
    action();
}

SluiceEventStatus ZeEvent::settled() {
  std::lock_guard<std::mutex> lock(mutex);
  return failed ? SLUICE_EVENT_ERROR : SLUICE_EVENT_COMPLETE;
}

SluiceEventStatus ZeEvent::status() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (done)
      return failed ? SLUICE_EVENT_ERROR : SLUICE_EVENT_COMPLETE;
  }
  ze_result_t result;
  {
    ZeContext::Use use(ctx);
    // After shutdown every command has finished (shutdown waited for them).
    result = use ? zeEventQueryStatus(ev) : ZE_RESULT_SUCCESS;
  }
  if (result == ZE_RESULT_NOT_READY)
    return SLUICE_EVENT_SUBMITTED;
  complete(result == ZE_RESULT_SUCCESS
               ? std::string()
               : std::string("zeEventQueryStatus returned ") +
                     zeResultName(result));
  return settled();
}

SluiceStatus ZeEvent::wait() {
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (done) {
        if (failed)
          return fail(SLUICE_ERROR_TASK_FAILED,
                      "Level Zero command failed: " + failure);
        return SLUICE_SUCCESS;
      }
    }
    ze_result_t result;
    {
      ZeContext::Use use(ctx);
      result =
          use ? zeEventHostSynchronize(ev, kWaitSliceNs) : ZE_RESULT_SUCCESS;
    }
    if (result == ZE_RESULT_NOT_READY)
      continue;
    complete(result == ZE_RESULT_SUCCESS
                 ? std::string()
                 : std::string("zeEventHostSynchronize returned ") +
                       zeResultName(result));
  }
}

SluiceStatus ZeEvent::profiling(uint64_t &submit, uint64_t &start,
                                uint64_t &end) {
  if (!isFinished())
    return fail(SLUICE_ERROR_NOT_READY,
                "profiling information is available once the task finished");
  ZeContext::Use use(ctx);
  if (!use)
    return shutDownFailure();
  ze_kernel_timestamp_result_t stamps{};
  if (ze_result_t r = zeEventQueryKernelTimestamp(ev, &stamps))
    return zeFail(r, "zeEventQueryKernelTimestamp");
  uint64_t first = stamps.global.kernelStart, last = stamps.global.kernelEnd;
  if (last < first && timer.validBits < 64)
    last += uint64_t(1) << timer.validBits; // the counter wrapped
  start = static_cast<uint64_t>(double(first) * timer.nsPerTick);
  end = static_cast<uint64_t>(double(last) * timer.nsPerTick);
  // Level Zero has no submission timestamp on the device clock.
  submit = start;
  return SLUICE_SUCCESS;
}

void ZeEvent::whenComplete(std::function<void(bool ok)> fn) {
  SluiceEventStatus s = status();
  if (s == SLUICE_EVENT_COMPLETE || s == SLUICE_EVENT_ERROR) {
    fn(s == SLUICE_EVENT_COMPLETE);
    return;
  }
  ctx.watcher().add(Ref<ZeEvent>::share(this), std::move(fn));
}

void ZeEvent::hold(Ref<Event> event) {
  std::lock_guard<std::mutex> lock(mutex);
  held.push_back(std::move(event));
}

void ZeEvent::atCompletion(std::function<void()> action) {
  std::lock_guard<std::mutex> lock(mutex);
  cleanups.push_back(std::move(action));
}

void ZeEvent::addUpstream(Ref<Event> event) {
  std::lock_guard<std::mutex> lock(mutex);
  upstream.push_back(std::move(event));
}

EventList ZeEvent::upstreamEvents() {
  std::lock_guard<std::mutex> lock(mutex);
  return upstream;
}

void ZeEvent::signalFromHost() {
  ZeContext::Use use(ctx);
  if (use)
    (void)zeEventHostSignal(ev);
}

} // namespace sluice::rt::level_zero
