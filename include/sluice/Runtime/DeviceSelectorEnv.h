//===- DeviceSelectorEnv.h - SLUICE_DEVICE_SELECTOR grammar -----*- C++ -*-===//
//
// The ONEAPI_DEVICE_SELECTOR grammar that SLUICE_DEVICE_SELECTOR uses to
// filter the visible devices:
//
//   selector := term (';' term)*
//   term     := ['!'] backend ':' device (',' device)*
//   backend  := level_zero | opencl | cuda | host | native_cpu | '*'
//   device   := gpu | cpu | accelerator | fpga | <index> | '*'
//
// An index counts the devices of that backend (all types). A device is
// visible if some accepting term matches it (or there are only discard
// terms) and no discard (`!`) term matches it. Pure C++, no backends.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_RUNTIME_DEVICESELECTORENV_H
#define SLUICE_RUNTIME_DEVICESELECTORENV_H

#include "sluice/Runtime/FilterSelector.h"

namespace sluice::rt {

struct DeviceSelectorEnv {
  struct Device {
    enum Kind { Any, Type, Index } kind = Any;
    SluiceDeviceType type = SLUICE_DEVICE_TYPE_GPU;
    unsigned index = 0;
  };
  struct Term {
    bool discard = false;
    std::optional<SluiceBackend> backend; // nullopt = '*'
    std::vector<Device> devices;
  };
  std::vector<Term> terms;

  /// Whether a device survives the filter. `indexInBackend` counts the
  /// devices of its backend before filtering.
  bool accepts(const DeviceKey &device, unsigned indexInBackend) const;
};

/// Parses an ONEAPI_DEVICE_SELECTOR-style string; std::nullopt and a message
/// naming the bad part when malformed.
std::optional<DeviceSelectorEnv>
parseDeviceSelectorEnv(std::string_view text, std::string *error = nullptr);

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_DEVICESELECTORENV_H
