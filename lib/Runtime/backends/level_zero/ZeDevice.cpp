//===- ZeDevice.cpp - A Level Zero device ---------------------------------===//
#include "ZeDevice.h"

#include "ZeError.h"
#include "ZeModule.h"
#include "ZeQueue.h"

#include "sluice/Runtime/ErrorState.h"
#include "sluice/Runtime/UsmKind.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace sluice::rt::level_zero {

SluiceStatus ZeDevice::createQueue(Ref<Queue> &out) {
  return ZeQueue::create(*this, out);
}

namespace {

SluiceUsmKind kindOf(ze_memory_type_t type) {
  switch (type) {
  case ZE_MEMORY_TYPE_DEVICE:
    return SLUICE_USM_DEVICE;
  case ZE_MEMORY_TYPE_SHARED:
    return SLUICE_USM_SHARED;
  case ZE_MEMORY_TYPE_HOST:
    return SLUICE_USM_HOST;
  default:
    return SLUICE_USM_UNKNOWN;
  }
}

} // namespace

SluiceUsmKind ZeDevice::pointerKind(const void *ptr) {
  ZeContext::Use use(ctx);
  if (!use)
    return SLUICE_USM_UNKNOWN;
  ze_memory_allocation_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES;
  ze_device_handle_t owner = nullptr;
  if (zeMemGetAllocProperties(ctx.handle(), ptr, &props, &owner))
    return SLUICE_USM_UNKNOWN;
  return kindOf(props.type);
}

SluiceStatus ZeDevice::allocate(SluiceUsmKind kind, size_t bytes,
                                size_t alignment, void *&out) {
  ZeContext::Use use(ctx);
  if (!use)
    return shutDownFailure();
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                        nullptr, 0, 0};
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
                                    nullptr, 0};
  out = nullptr;
  ze_result_t r;
  const char *call;
  switch (kind) {
  case SLUICE_USM_DEVICE:
    call = "zeMemAllocDevice";
    r = zeMemAllocDevice(ctx.handle(), &deviceDesc, bytes, alignment, dev,
                         &out);
    break;
  case SLUICE_USM_SHARED:
    call = "zeMemAllocShared";
    r = zeMemAllocShared(ctx.handle(), &deviceDesc, &hostDesc, bytes, alignment,
                         dev, &out);
    break;
  default:
    call = "zeMemAllocHost";
    r = zeMemAllocHost(ctx.handle(), &hostDesc, bytes, alignment, &out);
    break;
  }
  // A size beyond what the device can allocate is out of its memory, as on
  // the other backends (callers such as Python's MemoryError rely on it).
  if (r == ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
    r = kind == SLUICE_USM_HOST ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY
                                : ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  if (r != ZE_RESULT_SUCCESS || !out)
    return zeFail(r ? r : ZE_RESULT_ERROR_UNKNOWN, std::string(call) + " of " +
                                                       std::to_string(bytes) +
                                                       " bytes");
  ctx.trackAllocation(out);
  // The driver must agree on what it allocated: every later decision
  // (host access, staging) rests on the kind.
  SluiceUsmKind reported = pointerKind(out);
  if (reported != kind) {
    if (ctx.untrackAllocation(out))
      zeMemFree(ctx.handle(), out);
    out = nullptr;
    return fail(SLUICE_ERROR_BACKEND,
                std::string("Level Zero: the driver reports a new ") +
                    usmKindName(kind) + " allocation as " +
                    usmKindName(reported) +
                    " memory (zeMemGetAllocProperties)");
  }
  return SLUICE_SUCCESS;
}

void ZeDevice::deallocate(SluiceUsmKind, void *ptr) {
  ZeContext::Use use(ctx);
  if (use && ctx.untrackAllocation(ptr))
    zeMemFree(ctx.handle(), ptr);
}

SluiceStatus ZeDevice::buildModule(SluiceModuleFormat format, const void *bytes,
                                   size_t size, Ref<Module> &out,
                                   std::string &log) {
  return ZeModule::build(*this, format, bytes, size, out, log);
}

namespace {

std::string hex(uint32_t value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", value);
  return buf;
}

std::string triple(uint32_t x, uint32_t y, uint32_t z) {
  return std::to_string(x) + " x " + std::to_string(y) + " x " +
         std::to_string(z);
}

std::string versionString(uint32_t version) {
  return std::to_string(ZE_MAJOR_VERSION(version)) + "." +
         std::to_string(ZE_MINOR_VERSION(version));
}

std::string accessString(ze_memory_access_cap_flags_t caps) {
  if (!(caps & ZE_MEMORY_ACCESS_CAP_FLAG_RW))
    return "no";
  std::string s = "read/write";
  if (caps & ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC)
    s += ", atomic";
  if (caps & ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT)
    s += ", concurrent";
  return s;
}

SluiceDeviceType typeOf(ze_device_type_t type) {
  switch (type) {
  case ZE_DEVICE_TYPE_GPU:
    return SLUICE_DEVICE_TYPE_GPU;
  case ZE_DEVICE_TYPE_CPU:
    return SLUICE_DEVICE_TYPE_CPU;
  default:
    return SLUICE_DEVICE_TYPE_ACCELERATOR;
  }
}

} // namespace

namespace {

/// What Level Zero says about a device and its driver.
struct ZeQueried {
  ze_device_properties_t dev{};
  ze_device_compute_properties_t compute{};
  ze_device_module_properties_t module{};
  ze_device_memory_access_properties_t access{};
  std::string name;
  std::vector<ze_command_queue_group_properties_t> groups;
  /// The first command queue group that computes.
  int computeGroup = -1;
  std::vector<ze_device_memory_properties_t> memories;
  uint32_t numMemories = 0;
  uint32_t numSubDevices = 0;
  ze_driver_properties_t drv{};
  ze_api_version_t api = ZE_API_VERSION_1_0;

  /// Asks the driver; false with `reason` for a device Sluice cannot use.
  bool query(ze_driver_handle_t driver, ze_device_handle_t device,
             std::string &reason);
  /// The backend-independent properties.
  void fillProperties(DeviceProperties &p) const;
  /// The limits launches and fills check.
  void fillLimits(ZeDeviceLimits &limits) const;
  /// The rest, for `sluice-ls --verbose`.
  void fillExtra(const ZeDeviceLimits &limits, DeviceProperties &p) const;
};

bool ZeQueried::query(ze_driver_handle_t driver, ze_device_handle_t device,
                      std::string &reason) {
  dev.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  access.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES;
  if (ze_result_t r = zeDeviceGetProperties(device, &dev)) {
    reason =
        std::string("zeDeviceGetProperties failed with ") + zeResultName(r);
    return false;
  }
  name.assign(dev.name, strnlen(dev.name, sizeof dev.name));
  if (ze_result_t r = zeDeviceGetComputeProperties(device, &compute)) {
    reason = "'" + name + "': zeDeviceGetComputeProperties failed with " +
             zeResultName(r);
    return false;
  }
  if (ze_result_t r = zeDeviceGetModuleProperties(device, &module)) {
    reason = "'" + name + "': zeDeviceGetModuleProperties failed with " +
             zeResultName(r);
    return false;
  }
  if (module.spirvVersionSupported == 0) {
    reason = "'" + name + "' loads no SPIR-V";
    return false;
  }
  if (ze_result_t r = zeDeviceGetMemoryAccessProperties(device, &access)) {
    reason = "'" + name + "': zeDeviceGetMemoryAccessProperties failed with " +
             zeResultName(r);
    return false;
  }
  uint32_t numGroups = 0;
  zeDeviceGetCommandQueueGroupProperties(device, &numGroups, nullptr);
  groups.resize(numGroups);
  for (auto &g : groups) {
    g = {};
    g.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  }
  if (numGroups && zeDeviceGetCommandQueueGroupProperties(
                       device, &numGroups, groups.data()) != ZE_RESULT_SUCCESS)
    numGroups = 0;
  for (uint32_t i = 0; i < numGroups; ++i)
    if (groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
      computeGroup = static_cast<int>(i);
      break;
    }
  if (computeGroup < 0) {
    reason = "'" + name + "' has no compute command queue group";
    return false;
  }
  zeDeviceGetMemoryProperties(device, &numMemories, nullptr);
  memories.resize(numMemories);
  for (auto &m : memories) {
    m = {};
    m.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  }
  if (numMemories &&
      zeDeviceGetMemoryProperties(device, &numMemories, memories.data()) !=
          ZE_RESULT_SUCCESS)
    numMemories = 0;
  zeDeviceGetSubDevices(device, &numSubDevices, nullptr);
  drv.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
  zeDriverGetProperties(driver, &drv);
  zeDriverGetApiVersion(driver, &api);
  return true;
}

void ZeQueried::fillProperties(DeviceProperties &p) const {
  p.backend = SLUICE_BACKEND_LEVEL_ZERO;
  p.type = typeOf(dev.type);
  p.name = name;
  p.vendor = dev.vendorId == 0x8086 ? "Intel(R) Corporation"
                                    : "vendor " + hex(dev.vendorId);
  p.driverVersion = std::to_string(drv.driverVersion);
  p.computeUnits =
      dev.numSlices * dev.numSubslicesPerSlice * dev.numEUsPerSubslice;
  for (uint32_t i = 0; i < numMemories; ++i)
    p.globalMemoryBytes += memories[i].totalSize;
  p.maxWorkGroupSize = compute.maxTotalGroupSize;
  p.fp16 = (module.flags & ZE_DEVICE_MODULE_FLAG_FP16) != 0;
  p.fp64 = (module.flags & ZE_DEVICE_MODULE_FLAG_FP64) != 0;
  if (access.deviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW)
    p.usmCapabilities |= SLUICE_USM_CAP_DEVICE;
  if (access.sharedSingleDeviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW)
    p.usmCapabilities |= SLUICE_USM_CAP_SHARED;
  if (access.hostAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW)
    p.usmCapabilities |= SLUICE_USM_CAP_HOST;
  p.moduleFormats = 1u << SLUICE_MODULE_SPIRV;
}

void ZeQueried::fillLimits(ZeDeviceLimits &limits) const {
  limits.maxGroupSize[0] = compute.maxGroupSizeX;
  limits.maxGroupSize[1] = compute.maxGroupSizeY;
  limits.maxGroupSize[2] = compute.maxGroupSizeZ;
  limits.maxTotalGroupSize = compute.maxTotalGroupSize;
  limits.maxGroupCount[0] = compute.maxGroupCountX;
  limits.maxGroupCount[1] = compute.maxGroupCountY;
  limits.maxGroupCount[2] = compute.maxGroupCountZ;
  limits.computeOrdinal = static_cast<uint32_t>(computeGroup);
  limits.maxFillPatternSize = groups[computeGroup].maxMemoryFillPatternSize;
  // With ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES the resolution is in ns.
  limits.timer.nsPerTick =
      dev.timerResolution ? double(dev.timerResolution) : 1.0;
  limits.timer.validBits =
      dev.kernelTimestampValidBits ? dev.kernelTimestampValidBits : 64;
}

void ZeQueried::fillExtra(const ZeDeviceLimits &limits,
                          DeviceProperties &p) const {
  std::string subgroups;
  for (uint32_t i = 0;
       i < compute.numSubGroupSizes && i < ZE_SUBGROUPSIZE_COUNT; ++i)
    subgroups += (i ? ", " : "") + std::to_string(compute.subGroupSizes[i]);
  const char *hierarchy = std::getenv("ZE_FLAT_DEVICE_HIERARCHY");
  p.extra = {
      {"device id", hex(dev.deviceId)},
      {"API version", versionString(api)},
      {"sub-device", (dev.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE)
                         ? "yes (id " + std::to_string(dev.subdeviceId) + ")"
                         : "no"},
      {"sub-devices", std::to_string(numSubDevices)},
      {"device hierarchy",
       hierarchy && *hierarchy
           ? std::string(hierarchy) + " (ZE_FLAT_DEVICE_HIERARCHY)"
           : std::string("the driver's default")},
      {"integrated",
       (dev.flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED) ? "yes" : "no"},
      {"EUs", std::to_string(dev.numSlices) + " slices x " +
                  std::to_string(dev.numSubslicesPerSlice) + " subslices x " +
                  std::to_string(dev.numEUsPerSubslice)},
      {"max group size", triple(compute.maxGroupSizeX, compute.maxGroupSizeY,
                                compute.maxGroupSizeZ)},
      {"max group count", triple(compute.maxGroupCountX, compute.maxGroupCountY,
                                 compute.maxGroupCountZ)},
      {"shared local memory", std::to_string(compute.maxSharedLocalMemory)},
      {"subgroup sizes", subgroups.empty() ? "none" : subgroups},
      {"max allocation bytes", std::to_string(dev.maxMemAllocSize)},
      {"SPIR-V version", versionString(module.spirvVersionSupported)},
      {"compute queue group",
       "ordinal " + std::to_string(computeGroup) + ", " +
           std::to_string(groups[computeGroup].numQueues) + " queue(s)"},
      {"max fill pattern",
       std::to_string(limits.maxFillPatternSize) + " bytes"},
      {"timer resolution", std::to_string(dev.timerResolution) + " ns, " +
                               std::to_string(limits.timer.validBits) +
                               " kernel timestamp bits"},
      {"USM device", accessString(access.deviceAllocCapabilities)},
      {"USM shared", accessString(access.sharedSingleDeviceAllocCapabilities)},
      {"USM host", accessString(access.hostAllocCapabilities)},
  };
}

} // namespace

bool queryDevice(ze_driver_handle_t driver, ze_device_handle_t device,
                 DeviceProperties &p, ZeDeviceLimits &limits,
                 std::string &reason) {
  ZeQueried q;
  if (!q.query(driver, device, reason))
    return false;
  q.fillProperties(p);
  q.fillLimits(limits);
  q.fillExtra(limits, p);
  return true;
}

} // namespace sluice::rt::level_zero
