//===- ZeBackend.cpp - Discovery of Level Zero drivers and devices --------===//
//
// zeInit, then one context per driver holding the devices zeDeviceGet
// reports. Which devices those are (whole cards or their tiles) is the
// driver's choice under ZE_FLAT_DEVICE_HIERARCHY; the sub-devices of a
// composite device are devices reached through it (sluiceDeviceGetSubDevices,
// filter strings "level_zero:gpu:0.1"), not visible devices.
//
//===----------------------------------------------------------------------===//
#include "ZeDevice.h"
#include "ZeError.h"

#include "sluice/Runtime/Backend.h"

#include <cstdlib>
#include <mutex>

namespace sluice::rt {

namespace {

using namespace level_zero;

/// Contexts to shut down at exit, before the loader unloads the drivers.
std::vector<ZeContext *> &liveContexts() {
  static auto *contexts = new std::vector<ZeContext *>();
  return *contexts;
}

void shutDownAtExit() {
  for (ZeContext *context : liveContexts())
    context->shutDown();
}

/// The sub-devices of a composite device (its tiles), as devices of the
/// same context that are reached through their parent.
void addSubDevices(ze_driver_handle_t driver, ZeContext &context,
                   ze_device_handle_t device, Device &parent,
                   std::vector<std::unique_ptr<Device>> &devices) {
  uint32_t count = 0;
  if (zeDeviceGetSubDevices(device, &count, nullptr) != ZE_RESULT_SUCCESS ||
      count == 0)
    return;
  std::vector<ze_device_handle_t> handles(count);
  if (zeDeviceGetSubDevices(device, &count, handles.data()) !=
      ZE_RESULT_SUCCESS)
    return;
  for (ze_device_handle_t sub : handles) {
    DeviceProperties props;
    ZeDeviceLimits limits;
    std::string reason;
    if (!queryDevice(driver, sub, props, limits, reason))
      continue;
    devices.push_back(
        std::make_unique<ZeDevice>(std::move(props), context, sub, limits));
    parent.addSubDevice(devices.back().get());
  }
}

class LevelZeroBackend final : public Backend {
public:
  SluiceBackend kind() const override { return SLUICE_BACKEND_LEVEL_ZERO; }
  void enumerate(std::vector<std::unique_ptr<Device>> &devices,
                 std::string &note) override;

private:
  std::vector<std::unique_ptr<ZeContext>> contexts;
};

void LevelZeroBackend::enumerate(std::vector<std::unique_ptr<Device>> &devices,
                                 std::string &note) {
  // Without a driver the loader reports ZE_RESULT_ERROR_UNINITIALIZED.
  if (ze_result_t r = zeInit(ZE_INIT_FLAG_GPU_ONLY)) {
    note = r == ZE_RESULT_ERROR_UNINITIALIZED
               ? "no Level Zero driver found"
               : std::string("zeInit failed with ") + zeResultName(r);
    return;
  }
  uint32_t numDrivers = 0;
  if (zeDriverGet(&numDrivers, nullptr) != ZE_RESULT_SUCCESS ||
      numDrivers == 0) {
    note = "no Level Zero driver found";
    return;
  }
  std::vector<ze_driver_handle_t> drivers(numDrivers);
  if (zeDriverGet(&numDrivers, drivers.data()) != ZE_RESULT_SUCCESS) {
    note = "zeDriverGet failed";
    return;
  }
  std::string skipped;
  for (ze_driver_handle_t driver : drivers) {
    uint32_t numDevices = 0;
    if (zeDeviceGet(driver, &numDevices, nullptr) != ZE_RESULT_SUCCESS ||
        numDevices == 0)
      continue;
    std::vector<ze_device_handle_t> handles(numDevices);
    if (zeDeviceGet(driver, &numDevices, handles.data()) != ZE_RESULT_SUCCESS)
      continue;
    ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_context_handle_t handle = nullptr;
    if (ze_result_t r = zeContextCreate(driver, &desc, &handle)) {
      note = std::string("zeContextCreate failed with ") + zeResultName(r);
      continue;
    }
    auto context = std::make_unique<ZeContext>(driver, handle);
    size_t before = devices.size();
    for (ze_device_handle_t device : handles) {
      DeviceProperties props;
      ZeDeviceLimits limits;
      std::string reason;
      if (!queryDevice(driver, device, props, limits, reason)) {
        skipped += (skipped.empty() ? "" : "; ") + reason;
        continue;
      }
      devices.push_back(std::make_unique<ZeDevice>(std::move(props), *context,
                                                   device, limits));
      addSubDevices(driver, *context, device, *devices.back(), devices);
    }
    if (devices.size() == before) {
      zeContextDestroy(handle);
      continue;
    }
    liveContexts().push_back(context.get());
    contexts.push_back(std::move(context));
  }
  if (!contexts.empty()) {
    static std::once_flag registered;
    std::call_once(registered, [] { std::atexit(shutDownAtExit); });
  }
  if (devices.empty() && note.empty())
    note = skipped.empty() ? "the Level Zero drivers have no devices"
                           : "no usable Level Zero device (" + skipped + ")";
}

} // namespace

std::unique_ptr<Backend> createLevelZeroBackend() {
  return std::make_unique<LevelZeroBackend>();
}

} // namespace sluice::rt
