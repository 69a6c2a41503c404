//===- ZeModule.h - Level Zero modules built from SPIR-V --------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEMODULE_H
#define SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEMODULE_H

#include "sluice/Runtime/Module.h"

#include <level_zero/ze_api.h>
#include <map>
#include <mutex>
#include <vector>

namespace sluice::rt::level_zero {

class ZeContext;
class ZeDevice;

/// A kernel of a ZeModule: one ze_kernel per device it was launched on.
class ZeKernel final : public Kernel {
public:
  ZeKernel(Module &module, std::string name)
      : Kernel(module, std::move(name)) {}
  ~ZeKernel() override;

  /// The kernel object for `device` (made on first use) and its number of
  /// arguments.
  SluiceStatus handleFor(ZeDevice &device, ze_kernel_handle_t &out,
                         uint32_t &numArgs);
  /// Serialises argument setting + append across threads.
  std::mutex &mutex() { return launchMutex; }
  /// Destroys the kernel objects (module teardown).
  void destroyHandles();

private:
  struct PerDevice {
    ze_kernel_handle_t handle = nullptr;
    uint32_t numArgs = 0;
  };
  std::mutex handlesMutex, launchMutex;
  std::map<ZeDevice *, PerDevice> handles;
};

/// A SPIR-V module of a context. Level Zero builds modules per device, so
/// the module is built for the device it was created on and, on first
/// launch there, for any other device of the context (the module cache
/// keys modules by context, as for every backend). A failed build returns
/// the driver's build log.
class ZeModule final : public Module {
public:
  static SluiceStatus build(ZeDevice &device, SluiceModuleFormat format,
                            const void *bytes, size_t size, Ref<Module> &out,
                            std::string &log);
  ~ZeModule() override;

  /// The module built for `device` (built on first use).
  SluiceStatus handleFor(ZeDevice &device, ze_module_handle_t &out);
  /// Shutdown, with the context's exclusive lock held: destroys the kernel
  /// and module objects.
  void destroyForShutDown();

protected:
  SluiceStatus createKernel(const std::string &name,
                            std::unique_ptr<Kernel> &out) override;

private:
  ZeModule(ZeContext &context, ZeDevice &device, ze_module_handle_t module,
           std::vector<unsigned char> spirv, std::string log);
  void destroyHandles();

  ZeContext &ctx;
  ZeDevice &first;
  std::vector<unsigned char> spirv;
  std::mutex mutex;
  std::map<ZeDevice *, ze_module_handle_t> built;
  std::vector<ZeKernel *> kernels;
};

/// Builds `spirv` for `device`; on failure the log says why.
SluiceStatus buildZeModule(ZeDevice &device, const void *bytes, size_t size,
                           ze_module_handle_t &out, std::string &log);

} // namespace sluice::rt::level_zero

#endif // SLUICE_LIB_RUNTIME_LEVEL_ZERO_ZEMODULE_H
