//===- DriverMemory.cpp - Contexts and USM allocations --------------------===//
#include "DriverState.h"

namespace sluice::zetest {

namespace {

ze_result_t ZE_APICALL contextCreate(ze_driver_handle_t driver,
                                     const ze_context_desc_t *desc,
                                     ze_context_handle_t *out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!lookup<Object>(driver, Kind::Driver, "zeContextCreate"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out)
    return misuse("zeContextCreate", "null argument",
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  *out =
      reinterpret_cast<ze_context_handle_t>(track(std::make_unique<Context>()));
  return ZE_RESULT_SUCCESS;
}

/// The objects `context` still owns, as "2 event pools, 1 module".
std::string ownedBy(Context *context) {
  State &s = state();
  std::map<std::string, size_t> counts;
  for (auto &entry : s.live) {
    Object *o = entry.second;
    Context *owner = nullptr;
    if (o->kind == Kind::CommandList)
      owner = static_cast<CommandList *>(o)->context;
    else if (o->kind == Kind::EventPool)
      owner = static_cast<EventPool *>(o)->context;
    else if (o->kind == Kind::Module)
      owner = static_cast<Module *>(o)->context;
    if (owner == context)
      counts[kindName(o->kind)]++;
  }
  for (auto &entry : s.allocations)
    if (entry.second.context == context)
      counts["allocation"]++;
  std::string list;
  for (auto &[name, count] : counts)
    list += (list.empty() ? "" : ", ") + std::to_string(count) + " " + name +
            (count == 1 ? "" : "s");
  return list;
}

ze_result_t ZE_APICALL contextDestroy(ze_context_handle_t handle) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto *context = lookup<Context>(handle, Kind::Context, "zeContextDestroy");
  if (!context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::string owned = ownedBy(context);
  if (!owned.empty())
    return misuse("zeContextDestroy", "the context still owns " + owned,
                  ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
  destroy(context);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL contextGetStatus(ze_context_handle_t handle) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (!lookup<Context>(handle, Kind::Context, "zeContextGetStatus"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return ZE_RESULT_SUCCESS;
}

bool isPowerOfTwo(size_t x) { return x && !(x & (x - 1)); }

ze_result_t allocate(const char *function, ze_context_handle_t handle,
                     ze_device_handle_t deviceHandle, ze_memory_type_t type,
                     size_t size, size_t alignment, void **out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto *context = lookup<Context>(handle, Kind::Context, function);
  if (!context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Device *device = nullptr;
  if (type != ZE_MEMORY_TYPE_HOST) {
    device = lookup<Device>(deviceHandle, Kind::Device, function);
    if (!device)
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  }
  if (!out)
    return misuse(function, "pptr is null",
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  if (size == 0)
    return misuse(function, "size is 0", ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  if (alignment && !isPowerOfTwo(alignment))
    return misuse(function,
                  "alignment " + std::to_string(alignment) +
                      " is not a power of two",
                  ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  // Like real drivers: no single allocation beyond maxMemAllocSize.
  if (size > s.info.maxAlloc)
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  SluiceUsmKind kind = type == ZE_MEMORY_TYPE_DEVICE   ? SLUICE_USM_DEVICE
                       : type == ZE_MEMORY_TYPE_SHARED ? SLUICE_USM_SHARED
                                                       : SLUICE_USM_HOST;
  // The OpenCL layer (PoCL's SVM) aligns to at most 128 bytes; larger
  // alignments are made by allocating more.
  const size_t clAlignment = 128;
  size_t extra = alignment > clAlignment ? alignment : 0;
  void *raw = nullptr;
  if (SluiceStatus status =
          s.cl->allocate(kind, size + extra, extra ? 0 : alignment, raw))
    return toResult(status);
  void *ptr = raw;
  if (extra) {
    uintptr_t p = reinterpret_cast<uintptr_t>(raw);
    ptr = reinterpret_cast<void *>((p + alignment - 1) & ~(alignment - 1));
  }
  Allocation a;
  a.raw = raw;
  a.context = context;
  a.type = type;
  a.size = size;
  a.device = device;
  a.id = s.nextAllocationId++;
  s.allocations[reinterpret_cast<uintptr_t>(ptr)] = std::move(a);
  *out = ptr;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL memAllocDevice(ze_context_handle_t context,
                                      const ze_device_mem_alloc_desc_t *,
                                      size_t size, size_t alignment,
                                      ze_device_handle_t device, void **out) {
  return allocate("zeMemAllocDevice", context, device, ZE_MEMORY_TYPE_DEVICE,
                  size, alignment, out);
}

ze_result_t ZE_APICALL memAllocShared(ze_context_handle_t context,
                                      const ze_device_mem_alloc_desc_t *,
                                      const ze_host_mem_alloc_desc_t *,
                                      size_t size, size_t alignment,
                                      ze_device_handle_t device, void **out) {
  return allocate("zeMemAllocShared", context, device, ZE_MEMORY_TYPE_SHARED,
                  size, alignment, out);
}

ze_result_t ZE_APICALL memAllocHost(ze_context_handle_t context,
                                    const ze_host_mem_alloc_desc_t *,
                                    size_t size, size_t alignment, void **out) {
  return allocate("zeMemAllocHost", context, nullptr, ZE_MEMORY_TYPE_HOST, size,
                  alignment, out);
}

ze_result_t ZE_APICALL memFree(ze_context_handle_t handle, void *ptr) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto *context = lookup<Context>(handle, Kind::Context, "zeMemFree");
  if (!context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  auto it = s.allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == s.allocations.end() || it->second.context != context)
    return misuse("zeMemFree", "not the base of a live allocation of this "
                               "context");
  prune(it->second.users);
  if (!it->second.users.empty())
    return misuse("zeMemFree",
                  std::to_string(it->second.users.size()) +
                      " pending command(s) still use the memory",
                  ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
  s.cl->deallocate(SLUICE_USM_UNKNOWN, it->second.raw);
  s.allocations.erase(it);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL memGetAllocProperties(
    ze_context_handle_t handle, const void *ptr,
    ze_memory_allocation_properties_t *props, ze_device_handle_t *device) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto *context =
      lookup<Context>(handle, Kind::Context, "zeMemGetAllocProperties");
  if (!context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!props)
    return misuse("zeMemGetAllocProperties", "pMemAllocProperties is null",
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  Allocation *a = findAllocation(ptr);
  if (a && a->context != context)
    a = nullptr;
  props->type = a ? a->type : ZE_MEMORY_TYPE_UNKNOWN;
  props->id = a ? a->id : 0;
  props->pageSize = a ? 4096 : 0;
  if (device)
    *device = a ? reinterpret_cast<ze_device_handle_t>(a->device) : nullptr;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL memGetAddressRange(ze_context_handle_t handle,
                                          const void *ptr, void **base,
                                          size_t *size) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto *context =
      lookup<Context>(handle, Kind::Context, "zeMemGetAddressRange");
  if (!context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Allocation *a = findAllocation(ptr);
  if (!a || a->context != context)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  for (auto &entry : s.allocations)
    if (&entry.second == a) {
      if (base)
        *base = reinterpret_cast<void *>(entry.first);
      if (size)
        *size = a->size;
    }
  return ZE_RESULT_SUCCESS;
}

} // namespace

void fillContextTable(ze_context_dditable_t &t) {
  t.pfnCreate = contextCreate;
  t.pfnDestroy = contextDestroy;
  t.pfnGetStatus = contextGetStatus;
}

void fillMemTable(ze_mem_dditable_t &t) {
  t.pfnAllocDevice = memAllocDevice;
  t.pfnAllocShared = memAllocShared;
  t.pfnAllocHost = memAllocHost;
  t.pfnFree = memFree;
  t.pfnGetAllocProperties = memGetAllocProperties;
  t.pfnGetAddressRange = memGetAddressRange;
}

} // namespace sluice::zetest
