//===- Backend.h - The interface every backend implements -------*- C++ -*-===//
//
// A backend (host, opencl, and later level_zero, cuda) is an implementation
// of `Backend` listed in BackendRegistry.cpp. It discovers its devices; the
// devices create queues, allocate USM memory and build modules; queues
// submit copies, fills and launches that complete `Event`s.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_RUNTIME_BACKEND_H
#define SLUICE_RUNTIME_BACKEND_H

#include "sluice/Runtime/Device.h"

#include <memory>
#include <string>
#include <vector>

namespace sluice::rt {

class Backend {
public:
  virtual ~Backend() = default;
  virtual SluiceBackend kind() const = 0;
  /// Discovers the backend's devices (called once per process). Where it
  /// finds none, `note` says why (no driver, no platform, ...). Must not
  /// fail in any other way.
  virtual void enumerate(std::vector<std::unique_ptr<Device>> &devices,
                         std::string &note) = 0;
};

/// Every backend built into this runtime, in listing order.
std::vector<std::unique_ptr<Backend>> createBackends();

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_BACKEND_H
