//===- Platform.h - The process-wide runtime state --------------*- C++ -*-===//
#ifndef SLUICE_RUNTIME_PLATFORM_H
#define SLUICE_RUNTIME_PLATFORM_H

#include "sluice/Runtime/Backend.h"
#include "sluice/Runtime/DeferredFree.h"
#include "sluice/Runtime/ModuleCache.h"
#include "sluice/Runtime/Queue.h"
#include "sluice/Runtime/UsmRegistry.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sluice::rt {

/// Backends, visible devices, canonical queues, the USM table, deferred
/// frees and the module cache. Created on first use and never destroyed
/// (worker threads may still be running at exit).
class Platform {
public:
  static Platform &get();

  /// Fails with SLUICE_ERROR_INVALID_SELECTOR when SLUICE_DEVICE_SELECTOR
  /// is malformed (every device query then fails with that message).
  SluiceStatus checkUsable();
  const std::vector<Device *> &devices() const { return visible; }
  SluiceStatus selectDevice(const char *filter, Device *&out);
  Device *defaultDevice();
  SluiceStatus canonicalQueue(Device &device, Queue *&out);

  struct BackendStatus {
    bool builtIn = false;
    uint32_t numDevices = 0;
    std::string note;
  };
  const BackendStatus &backendStatus(SluiceBackend backend) const {
    return statuses[backend];
  }

  UsmRegistry &usm() { return usmTable; }
  DeferredFree &deferred() { return deferredFree; }
  ModuleCache &modules() { return moduleCache; }

private:
  Platform();
  void enumerate();

  std::vector<std::unique_ptr<Backend>> backends;
  std::vector<std::unique_ptr<Device>> allDevices;
  std::vector<Device *> visible;
  BackendStatus statuses[SLUICE_BACKEND_COUNT];
  std::string envError;

  std::mutex queueMutex;
  std::map<std::pair<Context *, Device *>, Ref<Queue>> canonical;

  UsmRegistry usmTable;
  DeferredFree deferredFree;
  ModuleCache moduleCache;
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_PLATFORM_H
