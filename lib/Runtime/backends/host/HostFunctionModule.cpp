//===- HostFunctionModule.cpp - Functions of this process as kernels ------===//
#include "HostFunctionModule.h"

#include "HostModule.h"

#include "sluice/Runtime/ErrorState.h"

namespace sluice::rt::host {

SluiceStatus HostFunctionModule::createKernel(const std::string &name,
                                              std::unique_ptr<Kernel> &out) {
  auto it = functions.find(name);
  if (it == functions.end())
    return fail(SLUICE_ERROR_KERNEL_NOT_FOUND,
                "no kernel named '" + name + "' among the module's " +
                    std::to_string(functions.size()) + " host functions");
  out = std::make_unique<HostKernel>(*this, name, it->second);
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt::host
