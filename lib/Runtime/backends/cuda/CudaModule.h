//===- CudaModule.h - CUDA modules from PTX or CUBIN ------------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_CUDA_CUDAMODULE_H
#define SLUICE_LIB_RUNTIME_CUDA_CUDAMODULE_H

#include "CudaDriver.h"

#include "sluice/Runtime/Module.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace sluice::rt::cuda {

class CudaDevice;
class CudaContext;

class CudaKernel final : public Kernel {
public:
  CudaKernel(Module &module, std::string name, CUfunction fn)
      : Kernel(module, std::move(name)), fn(fn), serial(nextSerial()) {}
  CUfunction handle() const { return fn; }
  /// Unique among every kernel the process ever made (a CUfunction of an
  /// unloaded module may come back for another kernel).
  uint64_t id() const { return serial; }

  /// The most threads a block of this kernel may have (its register use
  /// can make this smaller than the device's limit).
  int maxThreadsPerBlock = 0;
  /// Parameter sizes in bytes, when the driver reports them (CUDA 12.4+).
  bool paramsKnown = false;
  std::vector<size_t> paramSizes;

private:
  static uint64_t nextSerial() {
    static std::atomic<uint64_t> counter{0};
    return ++counter;
  }
  CUfunction fn;
  uint64_t serial;
};

/// A CUmodule loaded into the device's primary context. PTX is compiled by
/// the driver's JIT (which keeps its own disk cache); its error log becomes
/// the build log of a failed build, its info log (registers, spills) the
/// module's build log.
class CudaModule final : public Module {
public:
  static SluiceStatus build(CudaDevice &device, SluiceModuleFormat format,
                            const void *bytes, size_t size, Ref<Module> &out,
                            std::string &log);
  ~CudaModule() override;

protected:
  SluiceStatus createKernel(const std::string &name,
                            std::unique_ptr<Kernel> &out) override;

private:
  CudaModule(CudaContext &ctx, CUmodule module, std::string log);
  CudaContext &cudaCtx;
  CUmodule module;
};

} // namespace sluice::rt::cuda

#endif // SLUICE_LIB_RUNTIME_CUDA_CUDAMODULE_H
