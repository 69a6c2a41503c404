//===- Platform.cpp - The process-wide runtime state ----------------------===//
#include "sluice/Runtime/Platform.h"

#include "sluice/Runtime/DeviceSelectorEnv.h"
#include "sluice/Runtime/ErrorState.h"
#include "sluice/Runtime/FilterSelector.h"

#include <cstdlib>

namespace sluice::rt {

Platform &Platform::get() {
  // Never destroyed: queue and pool threads may outlive static destructors.
  static Platform *platform = new Platform();
  return *platform;
}

Platform::Platform() { enumerate(); }

void Platform::enumerate() {
  backends = createBackends();
  for (auto &backend : backends) {
    BackendStatus &status = statuses[backend->kind()];
    status.builtIn = true;
    std::vector<std::unique_ptr<Device>> found;
    backend->enumerate(found, status.note);
    for (auto &device : found)
      allDevices.push_back(std::move(device));
  }
  for (int b = 0; b < SLUICE_BACKEND_COUNT; ++b)
    if (!statuses[b].builtIn)
      statuses[b].note = "backend not built into this runtime";

  std::optional<DeviceSelectorEnv> env;
  // An empty variable counts as unset.
  const char *text = std::getenv("SLUICE_DEVICE_SELECTOR");
  if (text && *text) {
    env = parseDeviceSelectorEnv(text, &envError);
    if (!env)
      return; // checkUsable() reports envError; no device is visible.
  }
  unsigned perBackend[SLUICE_BACKEND_COUNT] = {};
  for (auto &device : allDevices) {
    if (device->parent())
      continue; // reached through its parent
    DeviceKey key{device->backend(), device->properties().type};
    unsigned index = perBackend[key.backend]++;
    if (env && !env->accepts(key, index))
      continue;
    visible.push_back(device.get());
  }
  // Filter strings number the visible devices per backend and type.
  for (Device *device : visible) {
    unsigned index = 0;
    for (Device *other : visible) {
      if (other == device)
        break;
      if (other->backend() == device->backend() &&
          other->properties().type == device->properties().type)
        ++index;
    }
    FilterTerm term{device->backend(), device->properties().type, index,
                    std::nullopt};
    device->setFilterString(term.str());
    statuses[device->backend()].numDevices++;
    const std::vector<Device *> &subs = device->subDevices();
    for (unsigned i = 0; i < subs.size(); ++i) {
      term.subIndex = i;
      subs[i]->setFilterString(term.str());
    }
  }
  if (env)
    for (auto &status : statuses)
      if (status.builtIn && status.numDevices == 0 && status.note.empty())
        status.note = "all devices hidden by SLUICE_DEVICE_SELECTOR";
}

SluiceStatus Platform::checkUsable() {
  if (!envError.empty())
    return fail(SLUICE_ERROR_INVALID_SELECTOR, envError);
  return SLUICE_SUCCESS;
}

Device *Platform::defaultDevice() {
  for (Device *device : visible)
    if (device->properties().type == SLUICE_DEVICE_TYPE_GPU)
      return device;
  for (Device *device : visible)
    if (device->backend() == SLUICE_BACKEND_HOST)
      return device;
  return visible.empty() ? nullptr : visible.front();
}

SluiceStatus Platform::selectDevice(const char *filter, Device *&out) {
  if (SluiceStatus status = checkUsable())
    return status;
  if (!filter || !*filter) {
    out = defaultDevice();
    if (!out)
      return fail(SLUICE_ERROR_DEVICE_NOT_FOUND, "no device is visible");
    return SLUICE_SUCCESS;
  }
  std::string error;
  std::optional<FilterSelector> selector = parseFilterSelector(filter, &error);
  if (!selector)
    return fail(SLUICE_ERROR_INVALID_SELECTOR, error);
  std::vector<DeviceKey> keys;
  for (Device *device : visible)
    keys.push_back({device->backend(), device->properties().type});
  // The first term that selects a device (and, for "index.sub", a
  // sub-device of it) wins.
  for (const FilterTerm &term : selector->terms) {
    int index = rt::selectDevice(FilterSelector{{term}}, keys);
    if (index < 0)
      continue;
    Device *device = visible[index];
    if (term.subIndex) {
      if (*term.subIndex >= device->subDevices().size())
        continue;
      device = device->subDevices()[*term.subIndex];
    }
    out = device;
    return SLUICE_SUCCESS;
  }
  {
    std::string message = "no visible device matches the selector '" +
                          std::string(filter) + "' (" + selector->str() + ")";
    // Say why the backends the selector names have no devices.
    bool named[SLUICE_BACKEND_COUNT] = {};
    for (const FilterTerm &term : selector->terms)
      if (term.backend && !named[*term.backend] &&
          statuses[*term.backend].numDevices == 0) {
        named[*term.backend] = true;
        const std::string &note = statuses[*term.backend].note;
        message += std::string("; ") + backendName(*term.backend) + ": " +
                   (note.empty() ? "no devices" : note);
      }
    return fail(SLUICE_ERROR_DEVICE_NOT_FOUND, message);
  }
}

SluiceStatus Platform::canonicalQueue(Device &device, Queue *&out) {
  std::lock_guard<std::mutex> lock(queueMutex);
  Ref<Queue> &slot = canonical[{&device.context(), &device}];
  if (!slot) {
    Ref<Queue> queue;
    if (SluiceStatus status = device.createQueue(queue))
      return status;
    queue->setCanonical();
    slot = queue;
  }
  out = slot.get();
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt
