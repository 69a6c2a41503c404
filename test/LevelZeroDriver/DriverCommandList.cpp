//===- DriverCommandList.cpp - Immediate command lists --------------------===//
#include "DriverState.h"

#include "sluice/Runtime/ErrorState.h"
#include "sluice/Runtime/KernelArgs.h"

#include <cstring>

namespace sluice::zetest {

namespace {

ze_result_t ZE_APICALL commandListCreateImmediate(
    ze_context_handle_t contextHandle, ze_device_handle_t deviceHandle,
    const ze_command_queue_desc_t *desc, ze_command_list_handle_t *out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const char *fn = "zeCommandListCreateImmediate";
  auto *context = lookup<Context>(contextHandle, Kind::Context, fn);
  auto *device = lookup<Device>(deviceHandle, Kind::Device, fn);
  if (!context || !device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out)
    return misuse(fn, "null argument", ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  if (desc->ordinal != 0 || desc->index != 0)
    return misuse(fn, "queue group ordinal " + std::to_string(desc->ordinal) +
                          ", index " + std::to_string(desc->index) +
                          " does not exist (one group of one queue)");
  auto list = std::make_unique<CommandList>();
  list->context = context;
  list->device = device;
  for (size_t i = 0; i < s.lanes; ++i) {
    Ref<rt::Queue> queue;
    if (SluiceStatus status = s.cl->createQueue(queue))
      return toResult(status);
    list->lanes.push_back(queue);
  }
  list->tails.resize(s.lanes);
  *out = reinterpret_cast<ze_command_list_handle_t>(track(std::move(list)));
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL commandListDestroy(ze_command_list_handle_t handle) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto *list =
      lookup<CommandList>(handle, Kind::CommandList, "zeCommandListDestroy");
  if (!list)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  EventList tails;
  for (const Ref<Event> &tail : list->tails)
    if (tail)
      tails.push_back(tail);
  if (anyPending(tails))
    return misuse("zeCommandListDestroy", "commands are still running",
                  ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
  destroy(list);
  return ZE_RESULT_SUCCESS;
}

/// The checked parts of an append: the list, its signal event and what it
/// waits for.
struct Append {
  explicit Append(const char *fn) : fn(fn) {}
  const char *fn;
  CommandList *list = nullptr;
  EventObject *signal = nullptr;
  EventList deps;
  std::vector<std::shared_ptr<Incarnation>> waited;
  std::vector<Allocation *> used;
  size_t lane = 0;
};

ze_result_t begin(Append &a, ze_command_list_handle_t listHandle,
                  ze_event_handle_t signalHandle, uint32_t numWaits,
                  ze_event_handle_t *waits) {
  State &s = state();
  a.list = lookup<CommandList>(listHandle, Kind::CommandList, a.fn);
  if (!a.list)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (signalHandle) {
    a.signal = lookup<EventObject>(signalHandle, Kind::Event, a.fn);
    if (!a.signal)
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (a.signal->pool->context != a.list->context)
      return misuse(a.fn, "the signal event belongs to another context");
    Incarnation &inc = *a.signal->current;
    if (inc.source || inc.done->isFinished())
      return misuse(a.fn, "the signal event was signaled and not reset");
  }
  if (numWaits && !waits)
    return misuse(a.fn, "phWaitEvents is null", ZE_RESULT_ERROR_INVALID_SIZE);
  for (uint32_t i = 0; i < numWaits; ++i) {
    auto *event = lookup<EventObject>(waits[i], Kind::Event, a.fn);
    if (!event)
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (event->pool->context != a.list->context)
      return misuse(a.fn, "a wait event belongs to another context");
    if (event == a.signal)
      return misuse(a.fn, "the command waits for its own signal event");
    std::shared_ptr<Incarnation> inc = event->current;
    a.deps.push_back(inc->source ? inc->source : Ref<Event>(inc->done));
    a.waited.push_back(std::move(inc));
  }
  a.lane = a.list->next++ % s.lanes;
  return ZE_RESULT_SUCCESS;
}

/// Records a submitted command: signal, consumers, memory users.
ze_result_t finish(Append &a, SluiceStatus status, const Ref<Event> &out) {
  if (status != SLUICE_SUCCESS) {
    std::fprintf(stderr, "sluice-ze-test-driver: note: %s: %s\n", a.fn,
                 rt::lastErrorMessage().c_str());
    return toResult(status);
  }
  for (auto &inc : a.waited) {
    prune(inc->consumers);
    inc->consumers.push_back(out);
  }
  if (a.signal) {
    std::shared_ptr<Incarnation> inc = a.signal->current;
    inc->source = out;
    out->whenComplete([inc](bool ok) {
      inc->done->finish(ok ? std::string() : "the command failed");
    });
  }
  for (Allocation *allocation : a.used) {
    prune(allocation->users);
    allocation->users.push_back(out);
  }
  a.list->tails[a.lane] = out;
  state().commandsAppended++;
  return ZE_RESULT_SUCCESS;
}

/// Checks that [ptr, ptr + size) stays in its allocation, if it is in one.
ze_result_t useMemory(Append &a, const void *ptr, size_t size, bool mustBeUsm) {
  Allocation *allocation = findAllocation(ptr);
  if (!allocation) {
    if (mustBeUsm)
      return misuse(a.fn, "the pointer is not device-accessible memory");
    return ZE_RESULT_SUCCESS; // plain host memory, as Intel's driver allows
  }
  if (allocation->context != a.list->context)
    return misuse(a.fn, "the memory belongs to another context");
  auto &allocations = state().allocations;
  for (auto &entry : allocations)
    if (&entry.second == allocation) {
      size_t offset = reinterpret_cast<uintptr_t>(ptr) - entry.first;
      if (size > allocation->size - offset)
        return misuse(a.fn,
                      "the range of " + std::to_string(size) +
                          " bytes runs past the end of its allocation",
                      ZE_RESULT_ERROR_INVALID_SIZE);
    }
  a.used.push_back(allocation);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL commandListAppendMemoryCopy(
    ze_command_list_handle_t list, void *dst, const void *src, size_t size,
    ze_event_handle_t signal, uint32_t numWaits, ze_event_handle_t *waits) {
  std::lock_guard<std::mutex> lock(state().mutex);
  Append a("zeCommandListAppendMemoryCopy");
  if (ze_result_t r = begin(a, list, signal, numWaits, waits))
    return r;
  if (!dst || !src)
    return misuse(a.fn, "null pointer", ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  if (ze_result_t r = useMemory(a, dst, size, false))
    return r;
  if (ze_result_t r = useMemory(a, src, size, false))
    return r;
  Ref<Event> out;
  SluiceStatus status =
      a.list->lanes[a.lane]->copy(dst, src, size, a.deps, out);
  return finish(a, status, out);
}

ze_result_t ZE_APICALL commandListAppendMemoryFill(
    ze_command_list_handle_t list, void *ptr, const void *pattern,
    size_t patternSize, size_t size, ze_event_handle_t signal,
    uint32_t numWaits, ze_event_handle_t *waits) {
  std::lock_guard<std::mutex> lock(state().mutex);
  Append a("zeCommandListAppendMemoryFill");
  if (ze_result_t r = begin(a, list, signal, numWaits, waits))
    return r;
  if (!ptr || !pattern)
    return misuse(a.fn, "null pointer", ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  if (patternSize == 0 || (patternSize & (patternSize - 1)) || patternSize > 16)
    return misuse(a.fn,
                  "pattern size " + std::to_string(patternSize) +
                      " is not a power of two up to maxMemoryFillPatternSize "
                      "(16)",
                  ZE_RESULT_ERROR_INVALID_SIZE);
  if (size % patternSize)
    return misuse(a.fn, "size is not a multiple of the pattern size",
                  ZE_RESULT_ERROR_INVALID_SIZE);
  if (ze_result_t r = useMemory(a, ptr, size, true))
    return r;
  Ref<Event> out;
  SluiceStatus status =
      a.list->lanes[a.lane]->fill(ptr, pattern, patternSize, size, a.deps, out);
  return finish(a, status, out);
}

ze_result_t ZE_APICALL commandListAppendBarrier(ze_command_list_handle_t list,
                                                ze_event_handle_t signal,
                                                uint32_t numWaits,
                                                ze_event_handle_t *waits) {
  std::lock_guard<std::mutex> lock(state().mutex);
  Append a("zeCommandListAppendBarrier");
  if (ze_result_t r = begin(a, list, signal, numWaits, waits))
    return r;
  // A barrier also waits for every earlier command of the list.
  for (const Ref<Event> &tail : a.list->tails)
    if (tail)
      a.deps.push_back(tail);
  Ref<Event> out;
  SluiceStatus status = a.list->lanes[a.lane]->barrier(a.deps, out);
  return finish(a, status, out);
}

ze_result_t ZE_APICALL commandListAppendLaunchKernel(
    ze_command_list_handle_t list, ze_kernel_handle_t kernelHandle,
    const ze_group_count_t *groups, ze_event_handle_t signal, uint32_t numWaits,
    ze_event_handle_t *waits) {
  std::lock_guard<std::mutex> lock(state().mutex);
  Append a("zeCommandListAppendLaunchKernel");
  if (ze_result_t r = begin(a, list, signal, numWaits, waits))
    return r;
  auto *kernel = lookup<Kernel>(kernelHandle, Kind::Kernel, a.fn);
  if (!kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!groups)
    return misuse(a.fn, "pLaunchFuncArgs is null",
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  if (kernel->module->context != a.list->context)
    return misuse(a.fn, "the kernel's module belongs to another context");
  if (kernel->module->device != a.list->device)
    return misuse(a.fn, "the kernel's module was built for another device");
  if (!kernel->group[0])
    return misuse(a.fn, "zeKernelSetGroupSize was not called",
                  ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  rt::KernelArgs args;
  for (uint32_t i = 0; i < kernel->numArgs; ++i) {
    if (!kernel->args[i])
      return misuse(a.fn, "argument " + std::to_string(i) + " is not set");
    const std::vector<unsigned char> &value = *kernel->args[i];
    bool usm = false;
    if (value.size() == sizeof(void *)) {
      void *p;
      std::memcpy(&p, value.data(), sizeof p);
      if (Allocation *allocation = findAllocation(p)) {
        if (allocation->context != a.list->context)
          return misuse(a.fn, "argument " + std::to_string(i) +
                                  " points to memory of another context");
        a.used.push_back(allocation);
        usm = true;
      }
    }
    args.add(value.data(), value.size(), usm);
  }
  const uint64_t grid[3] = {groups->groupCountX, groups->groupCountY,
                            groups->groupCountZ};
  const uint64_t local[3] = {kernel->group[0], kernel->group[1],
                             kernel->group[2]};
  if (!grid[0] || !grid[1] || !grid[2])
    return misuse(a.fn, "a group count is 0", ZE_RESULT_ERROR_INVALID_ARGUMENT);
  Ref<Event> out;
  SluiceStatus status = a.list->lanes[a.lane]->launch(
      *kernel->kernel, grid, local, std::move(args), a.deps, out);
  return finish(a, status, out);
}

} // namespace

void fillCommandListTable(ze_command_list_dditable_t &t) {
  t.pfnCreateImmediate = commandListCreateImmediate;
  t.pfnDestroy = commandListDestroy;
  t.pfnAppendMemoryCopy = commandListAppendMemoryCopy;
  t.pfnAppendMemoryFill = commandListAppendMemoryFill;
  t.pfnAppendBarrier = commandListAppendBarrier;
  t.pfnAppendLaunchKernel = commandListAppendLaunchKernel;
}

} // namespace sluice::zetest
