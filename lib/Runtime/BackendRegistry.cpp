//===- BackendRegistry.cpp - The backends built into this runtime ---------===//
//
// Adding a backend: implement sluice::rt::Backend under backends/<name>/,
// declare its factory here and append it in listing order.
//
//===----------------------------------------------------------------------===//
#include "sluice/Runtime/Backend.h"

namespace sluice::rt {

#ifdef SLUICE_HAVE_LEVEL_ZERO
std::unique_ptr<Backend> createLevelZeroBackend();
#endif
#ifdef SLUICE_HAVE_OPENCL
std::unique_ptr<Backend> createOpenClBackend();
#endif
#ifdef SLUICE_HAVE_CUDA
std::unique_ptr<Backend> createCudaBackend();
#endif
std::unique_ptr<Backend> createHostBackend();

std::vector<std::unique_ptr<Backend>> createBackends() {
  std::vector<std::unique_ptr<Backend>> backends;
#ifdef SLUICE_HAVE_LEVEL_ZERO
  backends.push_back(createLevelZeroBackend());
#endif
#ifdef SLUICE_HAVE_OPENCL
  backends.push_back(createOpenClBackend());
#endif
#ifdef SLUICE_HAVE_CUDA
  backends.push_back(createCudaBackend());
#endif
  backends.push_back(createHostBackend());
  return backends;
}

} // namespace sluice::rt
