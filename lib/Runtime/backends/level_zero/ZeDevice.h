//===- ZeDevice.h - A Level Zero device -------------------------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEDEVICE_H
#define SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEDEVICE_H

#include "ZeContext.h"
#include "ZeEvent.h"

#include "sluice/Runtime/Device.h"

namespace sluice::rt::level_zero {

/// What launches and commands on a device must respect.
struct ZeDeviceLimits {
  uint32_t maxGroupSize[3] = {1, 1, 1};
  uint32_t maxTotalGroupSize = 1;
  uint32_t maxGroupCount[3] = {1, 1, 1};
  /// The command queue group that runs kernels (and copies).
  uint32_t computeOrdinal = 0;
  size_t maxFillPatternSize = 1;
  ZeTimer timer;
};

class ZeDevice final : public Device {
public:
  ZeDevice(DeviceProperties props, ZeContext &context, ze_device_handle_t dev,
           ZeDeviceLimits limits)
      : Device(std::move(props)), ctx(context), dev(dev), lim(limits) {}

  ze_device_handle_t handle() const { return dev; }
  ZeContext &zeContext() { return ctx; }
  const ZeDeviceLimits &limits() const { return lim; }

  Context &context() override { return ctx; }
  SluiceStatus createQueue(Ref<Queue> &out) override;
  SluiceStatus allocate(SluiceUsmKind kind, size_t bytes, size_t alignment,
                        void *&out) override;
  void deallocate(SluiceUsmKind kind, void *ptr) override;
  bool hostAccessible(SluiceUsmKind kind) const override {
    return kind == SLUICE_USM_SHARED || kind == SLUICE_USM_HOST;
  }
  SluiceStatus buildModule(SluiceModuleFormat format, const void *bytes,
                           size_t size, Ref<Module> &out,
                           std::string &log) override;

  /// The USM kind the driver reports for `ptr` in this device's context
  /// (zeMemGetAllocProperties); SLUICE_USM_UNKNOWN for other memory.
  SluiceUsmKind pointerKind(const void *ptr);

private:
  ZeContext &ctx;
  ze_device_handle_t dev;
  ZeDeviceLimits lim;
};

/// Reads a device's properties and limits. False (with the reason) when the
/// device cannot run Sluice's kernels (no SPIR-V, no compute queue group).
bool queryDevice(ze_driver_handle_t driver, ze_device_handle_t device,
                 DeviceProperties &props, ZeDeviceLimits &limits,
                 std::string &reason);

} // namespace sluice::rt::level_zero

#endif // SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEDEVICE_H
