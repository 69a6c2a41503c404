//===- DriverDevice.cpp - zeInit, the driver and its devices --------------===//
#include "DriverState.h"

#include <cstring>

namespace sluice::zetest {

namespace {

/// The count/array protocol of zeDriverGet, zeDeviceGet & co.
template <typename T>
ze_result_t listOut(const std::vector<T> &items, uint32_t *count, T *out) {
  if (!count)
    return misuse("list query", "pCount is null",
                  ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  if (*count == 0 || !out) {
    *count = static_cast<uint32_t>(items.size());
    return ZE_RESULT_SUCCESS;
  }
  uint32_t n = std::min<uint32_t>(*count, static_cast<uint32_t>(items.size()));
  for (uint32_t i = 0; i < n; ++i)
    out[i] = items[i];
  *count = n;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL init(ze_init_flags_t flags) {
  if (flags == ZE_INIT_FLAG_VPU_ONLY)
    return ZE_RESULT_ERROR_UNINITIALIZED;
  return initialize();
}

ze_result_t ZE_APICALL driverGet(uint32_t *count, ze_driver_handle_t *out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::vector<ze_driver_handle_t> drivers;
  if (s.initResult == ZE_RESULT_SUCCESS)
    drivers.push_back(reinterpret_cast<ze_driver_handle_t>(&s.driver));
  return listOut(drivers, count, out);
}

bool isDriver(ze_driver_handle_t handle, const char *function) {
  return lookup<Object>(handle, Kind::Driver, function) != nullptr;
}

ze_result_t ZE_APICALL driverGetApiVersion(ze_driver_handle_t driver,
                                           ze_api_version_t *version) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (!isDriver(driver, "zeDriverGetApiVersion"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  *version = ZE_API_VERSION_1_4;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driverGetProperties(ze_driver_handle_t driver,
                                           ze_driver_properties_t *props) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (!isDriver(driver, "zeDriverGetProperties"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::memset(props->uuid.id, 0, sizeof props->uuid.id);
  std::memcpy(props->uuid.id, "sluice-ze-test", 14);
  props->driverVersion = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driverGetIpcProperties(ze_driver_handle_t driver,
                                              ze_driver_ipc_properties_t *p) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (!isDriver(driver, "zeDriverGetIpcProperties"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  p->flags = 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
driverGetExtensionProperties(ze_driver_handle_t driver, uint32_t *count,
                             ze_driver_extension_properties_t *) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (!isDriver(driver, "zeDriverGetExtensionProperties"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  *count = 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL deviceGet(ze_driver_handle_t driver, uint32_t *count,
                                 ze_device_handle_t *out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!isDriver(driver, "zeDeviceGet"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::vector<ze_device_handle_t> devices;
  for (Device *d : s.topLevel)
    devices.push_back(reinterpret_cast<ze_device_handle_t>(d));
  return listOut(devices, count, out);
}

Device *device(ze_device_handle_t handle, const char *function) {
  return lookup<Device>(handle, Kind::Device, function);
}

ze_result_t ZE_APICALL deviceGetSubDevices(ze_device_handle_t handle,
                                           uint32_t *count,
                                           ze_device_handle_t *out) {
  std::lock_guard<std::mutex> lock(state().mutex);
  Device *d = device(handle, "zeDeviceGetSubDevices");
  if (!d)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::vector<ze_device_handle_t> subs;
  for (Device *sub : d->subDevices)
    subs.push_back(reinterpret_cast<ze_device_handle_t>(sub));
  return listOut(subs, count, out);
}

ze_result_t ZE_APICALL deviceGetProperties(ze_device_handle_t handle,
                                           ze_device_properties_t *p) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  Device *d = device(handle, "zeDeviceGetProperties");
  if (!d)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const DeviceInfo &info = s.info;
  p->type = ZE_DEVICE_TYPE_GPU;
  p->vendorId = 0;
  p->deviceId = d->id;
  p->flags = d->isSubDevice ? ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE : 0;
  p->subdeviceId = d->subDeviceId;
  p->coreClockRate = 1000;
  p->maxMemAllocSize = info.maxAlloc;
  p->maxHardwareContexts = 1;
  p->maxCommandQueuePriority = 0;
  p->numThreadsPerEU = 1;
  p->physicalEUSimdWidth = 1;
  p->numEUsPerSubslice = info.computeUnits;
  p->numSubslicesPerSlice = 1;
  p->numSlices = 1;
  p->timerResolution = 1; // ns (ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES)
  p->timestampValidBits = 64;
  p->kernelTimestampValidBits = 64;
  std::memset(p->uuid.id, 0, sizeof p->uuid.id);
  p->uuid.id[0] = static_cast<uint8_t>(d->id);
  std::string name = info.name;
  if (d->isTile)
    name += " (tile " + std::to_string(d->subDeviceId) + ")";
  std::snprintf(p->name, sizeof p->name, "%s", name.c_str());
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL deviceGetComputeProperties(
    ze_device_handle_t handle, ze_device_compute_properties_t *p) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!device(handle, "zeDeviceGetComputeProperties"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  p->maxTotalGroupSize = s.info.maxTotalGroupSize;
  p->maxGroupSizeX = s.info.maxGroupSize[0];
  p->maxGroupSizeY = s.info.maxGroupSize[1];
  p->maxGroupSizeZ = s.info.maxGroupSize[2];
  p->maxGroupCountX = p->maxGroupCountY = p->maxGroupCountZ = UINT32_MAX;
  p->maxSharedLocalMemory = static_cast<uint32_t>(s.info.localMemory);
  p->numSubGroupSizes = 1;
  p->subGroupSizes[0] = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL deviceGetModuleProperties(
    ze_device_handle_t handle, ze_device_module_properties_t *p) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!device(handle, "zeDeviceGetModuleProperties"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  p->spirvVersionSupported = ZE_MAKE_VERSION(1, 2);
  p->flags = (s.info.fp16 ? ZE_DEVICE_MODULE_FLAG_FP16 : 0) |
             (s.info.fp64 ? ZE_DEVICE_MODULE_FLAG_FP64 : 0) |
             ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  const ze_device_fp_flags_t fp = ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST |
                                  ZE_DEVICE_FP_FLAG_INF_NAN |
                                  ZE_DEVICE_FP_FLAG_DENORM;
  p->fp16flags = s.info.fp16 ? fp : 0;
  p->fp32flags = fp;
  p->fp64flags = s.info.fp64 ? fp : 0;
  p->maxArgumentsSize = 1024;
  p->printfBufferSize = 0;
  std::memset(&p->nativeKernelSupported, 0, sizeof p->nativeKernelSupported);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
deviceGetCommandQueueGroupProperties(ze_device_handle_t handle, uint32_t *count,
                                     ze_command_queue_group_properties_t *p) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (!device(handle, "zeDeviceGetCommandQueueGroupProperties"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (*count == 0 || !p) {
    *count = 1;
    return ZE_RESULT_SUCCESS;
  }
  *count = 1;
  p->flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
             ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
  // Smaller than Sluice's largest fill pattern (128 bytes), so that the
  // backend's path for long patterns runs too.
  p->maxMemoryFillPatternSize = 16;
  p->numQueues = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
deviceGetMemoryProperties(ze_device_handle_t handle, uint32_t *count,
                          ze_device_memory_properties_t *p) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!device(handle, "zeDeviceGetMemoryProperties"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (*count == 0 || !p) {
    *count = 1;
    return ZE_RESULT_SUCCESS;
  }
  *count = 1;
  p->flags = 0;
  p->maxClockRate = 0;
  p->maxBusWidth = 0;
  p->totalSize = s.info.globalMemory;
  std::snprintf(p->name, sizeof p->name, "%s", "host memory (PoCL)");
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL deviceGetMemoryAccessProperties(
    ze_device_handle_t handle, ze_device_memory_access_properties_t *p) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (!device(handle, "zeDeviceGetMemoryAccessProperties"))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const ze_memory_access_cap_flags_t all = ZE_MEMORY_ACCESS_CAP_FLAG_RW |
                                           ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC |
                                           ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT;
  p->hostAllocCapabilities = all;
  p->deviceAllocCapabilities = all;
  p->sharedSingleDeviceAllocCapabilities = all;
  p->sharedCrossDeviceAllocCapabilities = 0;
  p->sharedSystemAllocCapabilities = 0;
  return ZE_RESULT_SUCCESS;
}

} // namespace

void fillGlobalTable(ze_global_dditable_t &t) { t.pfnInit = init; }

void fillDriverTable(ze_driver_dditable_t &t) {
  t.pfnGet = driverGet;
  t.pfnGetApiVersion = driverGetApiVersion;
  t.pfnGetProperties = driverGetProperties;
  t.pfnGetIpcProperties = driverGetIpcProperties;
  t.pfnGetExtensionProperties = driverGetExtensionProperties;
}

void fillDeviceTable(ze_device_dditable_t &t) {
  t.pfnGet = deviceGet;
  t.pfnGetSubDevices = deviceGetSubDevices;
  t.pfnGetProperties = deviceGetProperties;
  t.pfnGetComputeProperties = deviceGetComputeProperties;
  t.pfnGetModuleProperties = deviceGetModuleProperties;
  t.pfnGetCommandQueueGroupProperties = deviceGetCommandQueueGroupProperties;
  t.pfnGetMemoryProperties = deviceGetMemoryProperties;
  t.pfnGetMemoryAccessProperties = deviceGetMemoryAccessProperties;
}

} // namespace sluice::zetest
