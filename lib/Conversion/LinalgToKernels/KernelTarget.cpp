//===- KernelTarget.cpp - Which binary a queue's kernels need -------------===//

#include "sluice/Conversion/LinalgToKernels/KernelTarget.h"

using namespace sluice;

std::optional<KernelTarget>
sluice::kernelTargetForDevice(llvm::StringRef device) {
  llvm::StringRef backend = device.split(':').first;
  if (backend == "host")
    return KernelTarget::Host;
  if (backend == "opencl" || backend == "level_zero")
    return KernelTarget::Spirv;
  if (backend == "cuda")
    return KernelTarget::Cuda;
  return std::nullopt;
}

llvm::StringRef sluice::kernelModuleName(KernelTarget target) {
  switch (target) {
  case KernelTarget::Host:
    return "sluice_host_kernels";
  case KernelTarget::Spirv:
    return "sluice_spirv_kernels";
  case KernelTarget::Cuda:
    return "sluice_cuda_kernels";
  }
  return "";
}

std::optional<KernelTarget>
sluice::kernelTargetForModule(llvm::StringRef name) {
  for (KernelTarget t :
       {KernelTarget::Host, KernelTarget::Spirv, KernelTarget::Cuda})
    if (name == kernelModuleName(t) ||
        (name.starts_with(kernelModuleName(t)) &&
         name.drop_front(kernelModuleName(t).size()).starts_with("_")))
      return t; // "<target's name>_<part>": a target's kernels in parts
  return std::nullopt;
}
