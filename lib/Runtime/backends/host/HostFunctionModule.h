//===- HostFunctionModule.h - Functions of this process as kernels -*- C++ -*-//
#ifndef SLUICE_LIB_RUNTIME_HOST_HOSTFUNCTIONMODULE_H
#define SLUICE_LIB_RUNTIME_HOST_HOSTFUNCTIONMODULE_H

#include "sluice/Runtime/Module.h"

#include <map>

namespace sluice::rt::host {

/// A module whose kernels are SluiceHostKernelFn pointers handed in by the
/// caller (code linked into the program or JIT-compiled): nothing is loaded.
class HostFunctionModule final : public Module {
public:
  HostFunctionModule(Context &context,
                     std::map<std::string, SluiceHostKernelFn> functions)
      : Module(context, ""), functions(std::move(functions)) {}

protected:
  SluiceStatus createKernel(const std::string &name,
                            std::unique_ptr<Kernel> &out) override;

private:
  std::map<std::string, SluiceHostKernelFn> functions;
};

} // namespace sluice::rt::host

#endif // SLUICE_LIB_RUNTIME_HOST_HOSTFUNCTIONMODULE_H
