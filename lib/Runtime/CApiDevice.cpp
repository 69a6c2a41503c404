//===- CApiDevice.cpp - C API: devices, backends, selectors ---------------===//
#include "CApi.h"

#include "sluice/Runtime/FilterSelector.h"

#include <algorithm>
#include <cstring>

using namespace sluice::rt;

extern "C" {

SluiceStatus sluiceDeviceGetCount(uint32_t *count) {
  SLUICE_CHECK_ARG(count);
  return guarded([&] {
    Platform &platform = Platform::get();
    if (SluiceStatus status = platform.checkUsable())
      return status;
    *count = static_cast<uint32_t>(platform.devices().size());
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceDeviceGet(uint32_t index, SluiceDevice *device) {
  SLUICE_CHECK_ARG(device);
  return guarded([&] {
    Platform &platform = Platform::get();
    if (SluiceStatus status = platform.checkUsable())
      return status;
    if (index >= platform.devices().size())
      return fail(
          SLUICE_ERROR_DEVICE_NOT_FOUND,
          "device index " + std::to_string(index) + " is out of range (" +
              std::to_string(platform.devices().size()) + " visible devices)");
    *device = wrap(platform.devices()[index]);
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceDeviceSelect(const char *filter, SluiceDevice *device) {
  SLUICE_CHECK_ARG(device);
  return guarded([&] {
    Device *found = nullptr;
    if (SluiceStatus status = Platform::get().selectDevice(filter, found))
      return status;
    *device = wrap(found);
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceDeviceGetSubDevices(SluiceDevice device, uint32_t *count,
                                       SluiceDevice *devices) {
  SLUICE_CHECK_ARG(device);
  SLUICE_CHECK_ARG(count);
  const std::vector<Device *> &subs = unwrap(device)->subDevices();
  uint32_t n = static_cast<uint32_t>(subs.size());
  if (!devices) {
    *count = n;
    return SLUICE_SUCCESS;
  }
  uint32_t written = std::min(*count, n);
  for (uint32_t i = 0; i < written; ++i)
    devices[i] = wrap(subs[i]);
  *count = written;
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceDeviceGetParent(SluiceDevice device, SluiceDevice *parent) {
  SLUICE_CHECK_ARG(device);
  SLUICE_CHECK_ARG(parent);
  Device *p = unwrap(device)->parent();
  *parent = p ? wrap(p) : nullptr;
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceDeviceGetInfo(SluiceDevice device, SluiceDeviceInfo *info) {
  SLUICE_CHECK_ARG(device);
  SLUICE_CHECK_ARG(info);
  Device *d = unwrap(device);
  const DeviceProperties &p = d->properties();
  info->backend = p.backend;
  info->type = p.type;
  info->filter_string = d->filterString().c_str();
  info->name = p.name.c_str();
  info->vendor = p.vendor.c_str();
  info->driver_version = p.driverVersion.c_str();
  info->compute_units = p.computeUnits;
  info->global_memory_bytes = p.globalMemoryBytes;
  info->max_work_group_size = p.maxWorkGroupSize;
  info->has_fp16 = p.fp16;
  info->has_fp64 = p.fp64;
  info->usm_capabilities = p.usmCapabilities;
  info->module_formats = p.moduleFormats;
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceDeviceGetPropertyCount(SluiceDevice device,
                                          uint32_t *count) {
  SLUICE_CHECK_ARG(device);
  SLUICE_CHECK_ARG(count);
  *count = static_cast<uint32_t>(unwrap(device)->properties().extra.size());
  return SLUICE_SUCCESS;
}

SluiceStatus sluiceDeviceGetProperty(SluiceDevice device, uint32_t index,
                                     const char **key, const char **value) {
  SLUICE_CHECK_ARG(device);
  const auto &extra = unwrap(device)->properties().extra;
  if (index >= extra.size())
    return fail(SLUICE_ERROR_INVALID_VALUE,
                "property index " + std::to_string(index) + " out of range");
  if (key)
    *key = extra[index].first.c_str();
  if (value)
    *value = extra[index].second.c_str();
  return SLUICE_SUCCESS;
}

const char *sluiceBackendName(SluiceBackend backend) {
  return backendName(backend);
}

SluiceStatus sluiceBackendGetStatus(SluiceBackend backend, int *built_in,
                                    uint32_t *num_devices, const char **note) {
  if (backend < 0 || backend >= SLUICE_BACKEND_COUNT)
    return fail(SLUICE_ERROR_INVALID_VALUE, "unknown backend");
  return guarded([&] {
    const Platform::BackendStatus &s = Platform::get().backendStatus(backend);
    if (built_in)
      *built_in = s.builtIn;
    if (num_devices)
      *num_devices = s.numDevices;
    if (note)
      *note = s.note.c_str();
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceSelectorNormalize(const char *filter, char *buffer,
                                     size_t size, size_t *needed) {
  SLUICE_CHECK_ARG(filter);
  return guarded([&] {
    std::string error;
    std::optional<FilterSelector> selector =
        parseFilterSelector(filter, &error);
    if (!selector)
      return fail(SLUICE_ERROR_INVALID_SELECTOR, error);
    std::string text = selector->str();
    if (needed)
      *needed = text.size() + 1;
    if (buffer && size) {
      size_t n = std::min(size - 1, text.size());
      std::memcpy(buffer, text.data(), n);
      buffer[n] = '\0';
      if (n < text.size())
        return fail(SLUICE_ERROR_INVALID_VALUE,
                    "buffer too small for the normalised selector");
    }
    return SLUICE_SUCCESS;
  });
}

} // extern "C"
