//===- ProgramQueue.cpp - Queues of compiled programs, device override ----===//
#include "ProgramState.h"

#include "sluice-c/Program.h"
#include "sluice/Runtime/DeviceSelectorEnv.h"
#include "sluice/Runtime/FilterSelector.h"

#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

using namespace sluice::rt;
using namespace sluice::rt::program;

namespace {

/// Every queue sluiceProgramQueue handed out, and the device override.
class QueueTable {
public:
  static QueueTable &get() {
    // Never destroyed, like the Platform: other threads may still call in
    // while static destructors run.
    static QueueTable *table = new QueueTable();
    return *table;
  }

  SluiceStatus lookup(const char *device, const char *name, Queue *&out);
  void setOverride(const char *selector);
  SluiceStatus setOverrideChecked(const char *selector);

private:
  /// Resolves (device, name) from scratch. Called with the lock held.
  SluiceStatus resolve(const std::string &device, const std::string &name,
                       Queue *&out);
  SluiceStatus namedQueue(Device &device, const std::string &name, Queue *&out);
  void forgetResolved() {
    byAddress.clear();
    byString.clear();
  }

  struct AddressEntry {
    std::string device, name;
    Queue *queue;
  };

  std::mutex mutex;
  /// First level: the addresses of the strings (static data in compiled
  /// programs), confirmed by comparing the contents.
  std::unordered_map<std::pair<const void *, const void *>, AddressEntry,
                     AddressPairHash>
      byAddress;
  /// Second level: (device, name) strings.
  std::map<std::pair<std::string, std::string>, Queue *> byString;
  /// Named queues, one per (device, name), alive for the process.
  std::map<std::pair<Device *, std::string>, Ref<Queue>> named;

  /// The override: none when `overrideSelector` is empty. `overrideDevice`
  /// is resolved on first use (or the failure kept).
  std::string overrideSelector;
  bool overrideResolved = false;
  Device *overrideDevice = nullptr;
  SluiceStatus overrideStatus = SLUICE_SUCCESS;
  std::string overrideError;
};

SluiceStatus QueueTable::lookup(const char *device, const char *name,
                                Queue *&out) {
  if (!name)
    name = "";
  std::lock_guard<std::mutex> lock(mutex);
  auto it = byAddress.find({device, name});
  if (it != byAddress.end() && it->second.device == device &&
      it->second.name == name) {
    out = it->second.queue;
    return SLUICE_SUCCESS;
  }
  std::string deviceString = device, nameString = name;
  auto key = std::make_pair(deviceString, nameString);
  auto found = byString.find(key);
  Queue *queue = nullptr;
  if (found != byString.end()) {
    queue = found->second;
  } else {
    if (SluiceStatus status = resolve(deviceString, nameString, queue))
      return status;
    byString.emplace(std::move(key), queue);
  }
  byAddress[{device, name}] =
      AddressEntry{std::move(deviceString), std::move(nameString), queue};
  out = queue;
  return SLUICE_SUCCESS;
}

SluiceStatus QueueTable::resolve(const std::string &device,
                                 const std::string &name, Queue *&out) {
  Device *target = nullptr;
  if (!overrideSelector.empty()) {
    if (!overrideResolved) {
      overrideStatus = selectOverrideDevice(overrideSelector, overrideDevice);
      overrideError = overrideStatus ? lastErrorMessage() : std::string();
      overrideResolved = true;
    }
    if (overrideStatus)
      return fail(overrideStatus, "sluiceProgramQueue: cannot place queue '" +
                                      device + "' on the device override '" +
                                      overrideSelector + "': " + overrideError);
    target = overrideDevice;
  } else if (SluiceStatus status =
                 Platform::get().selectDevice(device.c_str(), target)) {
    return fail(status, "sluiceProgramQueue: no device for queue '" + device +
                            "': " + lastErrorMessage());
  }
  if (name.empty())
    return Platform::get().canonicalQueue(*target, out);
  return namedQueue(*target, name, out);
}

SluiceStatus QueueTable::namedQueue(Device &device, const std::string &name,
                                    Queue *&out) {
  Ref<Queue> &slot = named[{&device, name}];
  if (!slot) {
    SluiceQueue created = nullptr;
    if (SluiceStatus status = sluiceQueueCreate(wrap(&device), &created)) {
      named.erase({&device, name});
      return fail(status, "sluiceProgramQueue: cannot create queue '" + name +
                              "' on " + device.filterString() + ": " +
                              lastErrorMessage());
    }
    slot = Ref<Queue>::adopt(unwrap(created));
  }
  out = slot.get();
  return SLUICE_SUCCESS;
}

void QueueTable::setOverride(const char *selector) {
  std::lock_guard<std::mutex> lock(mutex);
  overrideSelector = selector ? selector : "";
  overrideResolved = false;
  overrideDevice = nullptr;
  overrideStatus = SLUICE_SUCCESS;
  overrideError.clear();
  forgetResolved();
}

SluiceStatus QueueTable::setOverrideChecked(const char *selector) {
  std::string text = selector ? selector : "";
  Device *device = nullptr;
  if (!text.empty())
    if (SluiceStatus status = selectOverrideDevice(text, device))
      return status;
  std::lock_guard<std::mutex> lock(mutex);
  overrideSelector = std::move(text);
  overrideResolved = true;
  overrideDevice = device;
  overrideStatus = SLUICE_SUCCESS;
  overrideError.clear();
  forgetResolved();
  return SLUICE_SUCCESS;
}

} // namespace

namespace sluice::rt::program {

SluiceStatus selectOverrideDevice(const std::string &selector, Device *&out) {
  Platform &platform = Platform::get();
  std::string filterError;
  if (parseFilterSelector(selector, &filterError))
    return platform.selectDevice(selector.c_str(), out);
  std::string envError;
  std::optional<DeviceSelectorEnv> env =
      parseDeviceSelectorEnv(selector, &envError);
  if (!env)
    return fail(SLUICE_ERROR_INVALID_SELECTOR,
                "device override '" + selector +
                    "' is neither a filter selector (" + filterError +
                    ") nor a SLUICE_DEVICE_SELECTOR-style string (" + envError +
                    ")");
  if (SluiceStatus status = platform.checkUsable())
    return status;
  unsigned perBackend[SLUICE_BACKEND_COUNT] = {};
  for (Device *device : platform.devices()) {
    DeviceKey key{device->backend(), device->properties().type};
    if (env->accepts(key, perBackend[key.backend]++)) {
      out = device;
      return SLUICE_SUCCESS;
    }
  }
  return fail(SLUICE_ERROR_DEVICE_NOT_FOUND,
              "no visible device matches the device override '" + selector +
                  "'");
}

} // namespace sluice::rt::program

extern "C" {

void *sluiceProgramQueue(const char *device, const char *name) {
  Invocation &inv = Invocation::current();
  Queue *queue = nullptr;
  bool ok = run(inv, [&] {
    if (!device)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceProgramQueue: the device string is NULL");
    return QueueTable::get().lookup(device, name, queue);
  });
  return ok ? wrap(queue) : nullptr;
}

void sluiceProgramSetDeviceOverride(const char *selector) {
  (void)guarded([&] {
    QueueTable::get().setOverride(selector);
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceProgramSetDeviceOverrideChecked(const char *selector) {
  return guarded(
      [&] { return QueueTable::get().setOverrideChecked(selector); });
}

} // extern "C"
