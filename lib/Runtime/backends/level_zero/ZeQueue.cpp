//===- ZeQueue.cpp - An in-order immediate command list -------------------===//
#include "ZeQueue.h"

#include "ZeContext.h"
#include "ZeDevice.h"
#include "ZeError.h"
#include "ZeModule.h"

#include "sluice/Runtime/ErrorState.h"

#include <cstring>
#include <limits>

namespace sluice::rt::level_zero {

SluiceStatus ZeQueue::create(ZeDevice &device, Ref<Queue> &out) {
  ZeContext &ctx = device.zeContext();
  ZeContext::Use use(ctx);
  if (!use)
    return shutDownFailure();
  ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                               nullptr,
                               device.limits().computeOrdinal,
                               0,
                               0,
                               ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                               ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_list_handle_t list = nullptr;
  if (ze_result_t r = zeCommandListCreateImmediate(
          ctx.handle(), device.handle(), &desc, &list))
    return zeFail(r, "zeCommandListCreateImmediate");
  out = Ref<Queue>::adopt(new ZeQueue(device, list));
  return SLUICE_SUCCESS;
}

ZeQueue::ZeQueue(ZeDevice &device, ze_command_list_handle_t list)
    : Queue(device), zeDevice(device), ctx(device.zeContext()), list(list) {
  ctx.track(this);
}

ZeQueue::~ZeQueue() {
  Ref<ZeEvent> last;
  {
    std::lock_guard<std::mutex> lock(mutex);
    last = tail;
  }
  if (last)
    (void)last->wait();
  ZeContext::Use use(ctx);
  ctx.untrack(this);
  std::lock_guard<std::mutex> lock(mutex);
  if (use && list)
    zeCommandListDestroy(list);
  list = nullptr;
}

SluiceStatus ZeQueue::newEvent(Ref<ZeEvent> &out) {
  ze_event_handle_t event = nullptr;
  if (SluiceStatus status = ctx.events().acquire(event))
    return status;
  out = makeRef<ZeEvent>(ctx, event, zeDevice.limits().timer);
  return SLUICE_SUCCESS;
}

void ZeQueue::reap() {
  while (!inFlight.empty()) {
    SluiceEventStatus s = inFlight.front()->status();
    if (s == SLUICE_EVENT_ERROR)
      failedSinceWait = true;
    else if (s != SLUICE_EVENT_COMPLETE)
      return;
    inFlight.pop_front();
  }
}

SluiceStatus ZeQueue::submit(const char *what, const EventList &deps,
                             const AppendFn &append, Ref<Event> &out,
                             const std::function<void(ZeEvent &)> &prepare) {
  Ref<ZeEvent> signal;
  if (SluiceStatus status = newEvent(signal))
    return status;
  std::vector<ze_event_handle_t> waits;
  for (const Ref<Event> &dep : deps) {
    if (!dep)
      continue;
    auto *own = dynamic_cast<ZeEvent *>(dep.get());
    SluiceEventStatus s = dep->status();
    if (s == SLUICE_EVENT_COMPLETE)
      continue;
    if (s == SLUICE_EVENT_ERROR) {
      signal->addUpstream(dep);
      continue;
    }
    if (own && &own->context() == &ctx) {
      // The command waits for the event itself; keep its slot until then.
      waits.push_back(own->handle());
      signal->hold(dep);
      for (Ref<Event> &up : own->upstreamEvents())
        signal->addUpstream(std::move(up));
      continue;
    }
    // A foreign event (another backend or context): a host-signaled event
    // of this context stands in for it.
    Ref<ZeEvent> bridge;
    if (SluiceStatus status = newEvent(bridge))
      return status;
    waits.push_back(bridge->handle());
    signal->hold(bridge);
    signal->addUpstream(dep);
    dep->whenComplete([bridge](bool) { bridge->signalFromHost(); });
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (!list)
    return shutDownFailure();
  if (tail) {
    SluiceEventStatus s = tail->status();
    if (s != SLUICE_EVENT_COMPLETE && s != SLUICE_EVENT_ERROR) {
      waits.push_back(tail->handle());
      signal->hold(tail);
    }
  }
  if (prepare)
    prepare(*signal);
  if (ze_result_t r =
          append(signal->handle(), static_cast<uint32_t>(waits.size()),
                 waits.empty() ? nullptr : waits.data()))
    return zeFail(r, what);
  tail = signal;
  inFlight.push_back(signal);
  reap();
  out = signal;
  return SLUICE_SUCCESS;
}

SluiceStatus ZeQueue::wait() {
  Ref<ZeEvent> last;
  {
    ZeContext::Use use(ctx);
    if (!use)
      return SLUICE_SUCCESS; // shutdown waited for everything
    std::lock_guard<std::mutex> lock(mutex);
    last = tail;
  }
  if (last)
    (void)last->wait(); // a failure is reported below, once
  bool failed;
  {
    ZeContext::Use use(ctx);
    std::lock_guard<std::mutex> lock(mutex);
    if (use)
      reap();
    failed = failedSinceWait;
    failedSinceWait = false;
  }
  if (failed)
    return fail(SLUICE_ERROR_TASK_FAILED,
                "a task on queue " + device().filterString() + " failed");
  return SLUICE_SUCCESS;
}

bool ZeQueue::drainForShutDown(std::chrono::steady_clock::time_point deadline) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!tail || !list)
    return true;
  auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  deadline - std::chrono::steady_clock::now())
                  .count();
  uint64_t timeout = left > 0 ? static_cast<uint64_t>(left) : 0;
  return zeEventHostSynchronize(tail->handle(), timeout) == ZE_RESULT_SUCCESS;
}

void ZeQueue::destroyForShutDown() {
  std::lock_guard<std::mutex> lock(mutex);
  if (list)
    zeCommandListDestroy(list);
  list = nullptr;
}

SluiceStatus ZeQueue::submitCopy(void *dst, const void *src, size_t bytes,
                                 const EventList &deps, Ref<Event> &out) {
  ZeContext::Use use(ctx);
  if (!use)
    return shutDownFailure();
  return submit(
      "zeCommandListAppendMemoryCopy", deps,
      [&](ze_event_handle_t signal, uint32_t n, ze_event_handle_t *waits) {
        return zeCommandListAppendMemoryCopy(list, dst, src, bytes, signal, n,
                                             waits);
      },
      out);
}

SluiceStatus ZeQueue::submitFill(void *dst, const void *pattern,
                                 size_t patternSize, size_t bytes,
                                 const EventList &deps, Ref<Event> &out) {
  ZeContext::Use use(ctx);
  if (!use)
    return shutDownFailure();
  const unsigned char *p = static_cast<const unsigned char *>(pattern);
  if (patternSize <= zeDevice.limits().maxFillPatternSize) {
    // The pattern must stay readable until the fill has run.
    auto copy =
        std::make_shared<std::vector<unsigned char>>(p, p + patternSize);
    return submit(
        "zeCommandListAppendMemoryFill", deps,
        [&](ze_event_handle_t signal, uint32_t n, ze_event_handle_t *waits) {
          return zeCommandListAppendMemoryFill(
              list, dst, copy->data(), patternSize, bytes, signal, n, waits);
        },
        out, [&](ZeEvent &event) { event.atCompletion([copy] {}); });
  }
  // Longer patterns than the device fills: expand the pattern into host
  // memory and copy that.
  ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr,
                                0};
  void *staging = nullptr;
  if (ze_result_t r = zeMemAllocHost(ctx.handle(), &desc, bytes, 64, &staging))
    return zeFail(r, "zeMemAllocHost of " + std::to_string(bytes) +
                         " bytes for a fill pattern of " +
                         std::to_string(patternSize) + " bytes");
  ctx.trackAllocation(staging);
  for (size_t offset = 0; offset < bytes; offset += patternSize)
    std::memcpy(static_cast<char *>(staging) + offset, p, patternSize);
  ZeContext *context = &ctx;
  auto release = [context, staging] {
    ZeContext::Use inner(*context);
    if (inner && context->untrackAllocation(staging))
      zeMemFree(context->handle(), staging);
  };
  bool handedOver = false;
  SluiceStatus status = submit(
      "zeCommandListAppendMemoryCopy", deps,
      [&](ze_event_handle_t signal, uint32_t n, ze_event_handle_t *waits) {
        return zeCommandListAppendMemoryCopy(list, dst, staging, bytes, signal,
                                             n, waits);
      },
      out,
      [&](ZeEvent &event) {
        event.atCompletion(release);
        handedOver = true;
      });
  if (!handedOver)
    release();
  return status;
}

SluiceStatus ZeQueue::submitLaunch(Kernel &kernel, const uint64_t grid[3],
                                   const uint64_t local[3], KernelArgs args,
                                   const EventList &deps, Ref<Event> &out) {
  const ZeDeviceLimits &lim = zeDevice.limits();
  static const char dims[] = "xyz";
  for (int d = 0; d < 3; ++d) {
    if (local[d] > lim.maxGroupSize[d])
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "launch of '" + kernel.name() + "': local size " +
                      std::to_string(local[d]) + " in " + dims[d] +
                      " exceeds the device maximum of " +
                      std::to_string(lim.maxGroupSize[d]));
    if (grid[d] > lim.maxGroupCount[d])
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "launch of '" + kernel.name() +
                      "': " + std::to_string(grid[d]) + " workgroups in " +
                      dims[d] + " exceed the device maximum of " +
                      std::to_string(lim.maxGroupCount[d]));
  }
  if (local[0] * local[1] * local[2] > lim.maxTotalGroupSize)
    return fail(SLUICE_ERROR_INVALID_VALUE,
                "launch of '" + kernel.name() + "': workgroup of " +
                    std::to_string(local[0] * local[1] * local[2]) +
                    " work-items exceeds the device maximum of " +
                    std::to_string(lim.maxTotalGroupSize));
  ZeContext::Use use(ctx);
  if (!use)
    return shutDownFailure();
  auto &k = static_cast<ZeKernel &>(kernel);
  ze_kernel_handle_t handle = nullptr;
  uint32_t numArgs = 0;
  if (SluiceStatus status = k.handleFor(zeDevice, handle, numArgs))
    return status;
  if (args.size() != numArgs)
    return fail(SLUICE_ERROR_INVALID_VALUE,
                "launch of '" + kernel.name() + "': the kernel takes " +
                    std::to_string(numArgs) + " arguments, " +
                    std::to_string(args.size()) + " were given");
  // Arguments and group size live in the kernel object until the append
  // copies them: set and append under the kernel's lock.
  std::lock_guard<std::mutex> lock(k.mutex());
  if (ze_result_t r = zeKernelSetGroupSize(
          handle, static_cast<uint32_t>(local[0]),
          static_cast<uint32_t>(local[1]), static_cast<uint32_t>(local[2])))
    return zeFail(r, "zeKernelSetGroupSize for '" + kernel.name() + "'");
  for (size_t i = 0; i < args.size(); ++i)
    if (ze_result_t r = zeKernelSetArgumentValue(
            handle, static_cast<uint32_t>(i), args.valueSize(i), args.value(i)))
      return zeFail(r, "setting argument " + std::to_string(i) +
                           " of kernel '" + kernel.name() + "'");
  ze_group_count_t groups{static_cast<uint32_t>(grid[0]),
                          static_cast<uint32_t>(grid[1]),
                          static_cast<uint32_t>(grid[2])};
  return submit(
      "zeCommandListAppendLaunchKernel", deps,
      [&](ze_event_handle_t signal, uint32_t n, ze_event_handle_t *waits) {
        return zeCommandListAppendLaunchKernel(list, handle, &groups, signal, n,
                                               waits);
      },
      out);
}

SluiceStatus ZeQueue::submitBarrier(const EventList &deps, Ref<Event> &out) {
  ZeContext::Use use(ctx);
  if (!use)
    return shutDownFailure();
  return submit(
      "zeCommandListAppendBarrier", deps,
      [&](ze_event_handle_t signal, uint32_t n, ze_event_handle_t *waits) {
        return zeCommandListAppendBarrier(list, signal, n, waits);
      },
      out);
}

} // namespace sluice::rt::level_zero
