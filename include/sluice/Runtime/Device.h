//===- Device.h - A device and its default context --------------*- C++ -*-===//
#ifndef SLUICE_RUNTIME_DEVICE_H
#define SLUICE_RUNTIME_DEVICE_H

#include "sluice-c/Runtime.h"
#include "sluice/Runtime/MemoryPool.h"
#include "sluice/Runtime/RefCounted.h"
#include "sluice/Runtime/ReusableBlocks.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sluice::rt {

class Module;
class Queue;

/// What a backend reports about one of its devices.
struct DeviceProperties {
  SluiceBackend backend = SLUICE_BACKEND_HOST;
  SluiceDeviceType type = SLUICE_DEVICE_TYPE_CPU;
  std::string name, vendor, driverVersion;
  uint32_t computeUnits = 0;
  uint64_t globalMemoryBytes = 0;
  uint64_t maxWorkGroupSize = 1;
  bool fp16 = false, fp64 = false;
  uint32_t usmCapabilities = 0; // SLUICE_USM_CAP_* bits
  uint32_t moduleFormats = 0;   // 1u << SluiceModuleFormat
  /// Backend-specific extras shown by `sluice-ls --verbose`.
  std::vector<std::pair<std::string, std::string>> extra;
};

/// A backend context: the scope of allocations, modules and canonical
/// queues. Each device belongs to one default context.
class Context {
public:
  virtual ~Context() = default;
};

/// One device of a backend. Devices live as long as the process.
class Device {
public:
  explicit Device(DeviceProperties props) : props(std::move(props)) {}
  virtual ~Device() = default;

  const DeviceProperties &properties() const { return props; }
  SluiceBackend backend() const { return props.backend; }
  /// "backend:type:index", assigned once the visible devices are known.
  const std::string &filterString() const { return filter; }
  void setFilterString(std::string s) { filter = std::move(s); }

  /// Sub-devices (the tiles of a composite Level Zero device), in the
  /// driver's order; filter strings "<parent>.<i>". Not visible devices.
  const std::vector<Device *> &subDevices() const { return subs; }
  /// The device this one is a sub-device of, or null.
  Device *parent() const { return parentDevice; }
  void addSubDevice(Device *sub) {
    sub->parentDevice = this;
    subs.push_back(sub);
  }

  virtual Context &context() = 0;
  /// A new in-order queue.
  virtual SluiceStatus createQueue(Ref<Queue> &out) = 0;
  /// The caching allocator sluiceMalloc and sluiceFree go through.
  MemoryPool &memoryPool() { return pool; }
  /// Blocks freed while their queue's tasks may still use them, for that
  /// queue's next allocations (stream-ordered reuse).
  ReusableBlocks &reusableBlocks() { return reusable; }
  /// Allocates USM memory from the backend (the pool calls it on a miss);
  /// `alignment` is 0 or a power of two.
  virtual SluiceStatus allocate(SluiceUsmKind kind, size_t bytes,
                                size_t alignment, void *&out) = 0;
  /// Gives memory back to the backend at once; the caller guarantees
  /// nothing uses it.
  virtual void deallocate(SluiceUsmKind kind, void *ptr) = 0;
  /// Whether host code may read and write memory of `kind` directly.
  virtual bool hostAccessible(SluiceUsmKind kind) const = 0;
  /// Checks memory another library allocated before sluiceUsmImport makes
  /// it USM memory of this device: `kind` is the caller's claim
  /// (SLUICE_USM_UNKNOWN: ask the backend) and comes back as the kind it
  /// is; [base, base + size) is the range to register, the whole underlying
  /// allocation where the backend knows it (it contains [ptr, ptr + bytes)).
  /// The default refuses: only backends that can check the memory (host,
  /// cuda) import it.
  virtual SluiceStatus describeForeign(void *ptr, size_t bytes,
                                       SluiceUsmKind &kind, void *&base,
                                       size_t &size);
  /// Builds a module for this device's context. On failure returns
  /// SLUICE_ERROR_BUILD_FAILED (or another status) and fills `log`.
  virtual SluiceStatus buildModule(SluiceModuleFormat format, const void *bytes,
                                   size_t size, Ref<Module> &out,
                                   std::string &log) = 0;
  /// A module whose kernels are functions of this process, called with the
  /// host kernel ABI. Only the host backend runs them; the default fails
  /// with SLUICE_ERROR_UNSUPPORTED.
  virtual SluiceStatus createFunctionModule(
      const std::vector<std::pair<std::string, SluiceHostKernelFn>> &functions,
      Ref<Module> &out);

private:
  DeviceProperties props;
  std::string filter;
  std::vector<Device *> subs;
  Device *parentDevice = nullptr;
  MemoryPool pool{*this};
  ReusableBlocks reusable{*this};
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_DEVICE_H
