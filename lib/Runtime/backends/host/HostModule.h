//===- HostModule.h - Native shared objects as modules ----------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_HOST_HOSTMODULE_H
#define SLUICE_LIB_RUNTIME_HOST_HOSTMODULE_H

#include "sluice/Runtime/Module.h"

namespace sluice::rt::host {

class HostKernel final : public Kernel {
public:
  HostKernel(Module &module, std::string name, SluiceHostKernelFn fn)
      : Kernel(module, std::move(name)), fn(fn) {}
  SluiceHostKernelFn function() const { return fn; }

private:
  SluiceHostKernelFn fn;
};

/// An ELF shared object loaded from memory (through an anonymous memfd)
/// with dlopen. Kernels are its exported symbols.
class HostModule final : public Module {
public:
  static SluiceStatus load(Context &context, const void *bytes, size_t size,
                           Ref<Module> &out, std::string &log);
  ~HostModule() override;

protected:
  SluiceStatus createKernel(const std::string &name,
                            std::unique_ptr<Kernel> &out) override;

private:
  HostModule(Context &context, void *handle, int fd)
      : Module(context, ""), handle(handle), fd(fd) {}
  void *handle;
  int fd;
};

} // namespace sluice::rt::host

#endif // SLUICE_LIB_RUNTIME_HOST_HOSTMODULE_H
