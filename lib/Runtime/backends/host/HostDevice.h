//===- HostDevice.h - The CPU that runs the program -------------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_HOST_HOSTDEVICE_H
#define SLUICE_LIB_RUNTIME_HOST_HOSTDEVICE_H

#include "sluice/Runtime/Device.h"

namespace sluice::rt::host {

class HostContext final : public Context {};

/// The host CPU: every USM kind is ordinary host memory, modules are
/// native shared objects, workgroups run on the shared thread pool.
class HostDevice final : public Device {
public:
  HostDevice();

  Context &context() override { return ctx; }
  SluiceStatus createQueue(Ref<Queue> &out) override;
  SluiceStatus allocate(SluiceUsmKind kind, size_t bytes, size_t alignment,
                        void *&out) override;
  void deallocate(SluiceUsmKind kind, void *ptr) override;
  bool hostAccessible(SluiceUsmKind) const override { return true; }
  /// Any memory of the process: the claimed kind (host if none).
  SluiceStatus describeForeign(void *ptr, size_t bytes, SluiceUsmKind &kind,
                               void *&base, size_t &size) override {
    if (kind == SLUICE_USM_UNKNOWN)
      kind = SLUICE_USM_HOST;
    base = ptr;
    size = bytes;
    return SLUICE_SUCCESS;
  }
  SluiceStatus buildModule(SluiceModuleFormat format, const void *bytes,
                           size_t size, Ref<Module> &out,
                           std::string &log) override;
  SluiceStatus createFunctionModule(
      const std::vector<std::pair<std::string, SluiceHostKernelFn>> &functions,
      Ref<Module> &out) override;

private:
  HostContext ctx;
};

} // namespace sluice::rt::host

#endif // SLUICE_LIB_RUNTIME_HOST_HOSTDEVICE_H
