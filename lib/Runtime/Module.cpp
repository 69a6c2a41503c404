//===- Module.cpp - Loaded device binaries and their kernels --------------===//
#include "sluice/Runtime/Module.h"

namespace sluice::rt {

SluiceStatus Module::getKernel(const std::string &name, Kernel *&out) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = kernels.find(name);
  if (it == kernels.end()) {
    std::unique_ptr<Kernel> kernel;
    if (SluiceStatus status = createKernel(name, kernel))
      return status;
    it = kernels.emplace(name, std::move(kernel)).first;
  }
  out = it->second.get();
  return SLUICE_SUCCESS;
}

} // namespace sluice::rt
