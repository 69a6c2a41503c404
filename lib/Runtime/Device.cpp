//===- Device.cpp - A device and its default context ----------------------===//
#include "sluice/Runtime/Device.h"

#include "sluice/Runtime/ErrorState.h"

namespace sluice::rt {

SluiceStatus Device::createFunctionModule(
    const std::vector<std::pair<std::string, SluiceHostKernelFn>> &,
    Ref<Module> &) {
  return fail(SLUICE_ERROR_UNSUPPORTED,
              "device " + filterString() +
                  " cannot run host functions as kernels (only host "
                  "devices can)");
}

SluiceStatus Device::describeForeign(void *, size_t, SluiceUsmKind &, void *&,
                                     size_t &) {
  return fail(SLUICE_ERROR_UNSUPPORTED,
              "device " + filterString() +
                  " cannot import memory that another library allocated "
                  "(only host and cuda devices can)");
}

} // namespace sluice::rt
