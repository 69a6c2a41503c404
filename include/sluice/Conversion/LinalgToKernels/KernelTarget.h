//===- KernelTarget.h - Which binary a queue's kernels need ----*- C++ -*-===//
//
// A queue's backend decides the kind of binary its kernels compile to. The
// kernel-formation pass groups kernels by this family into one gpu.module
// each, and the later stages find the family again from the module's name.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_CONVERSION_LINALGTOKERNELS_KERNELTARGET_H
#define SLUICE_CONVERSION_LINALGTOKERNELS_KERNELTARGET_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace sluice {

enum class KernelTarget { Host, Spirv, Cuda };

/// The family of a normalised device string ("backend:type:index"), or none
/// when the backend is unknown or left open ("*").
std::optional<KernelTarget> kernelTargetForDevice(llvm::StringRef device);

/// The gpu.module holding the kernels of a family, and back.
llvm::StringRef kernelModuleName(KernelTarget target);
std::optional<KernelTarget> kernelTargetForModule(llvm::StringRef name);

/// Name of the attribute on gpu.launch_func naming the queue it runs on.
inline constexpr llvm::StringLiteral kLaunchQueueAttrName = "sluice.queue";

/// Name of the attribute on gpu.launch_func giving the kernel operand (an
/// index, the operand an `!llvm.ptr` placeholder) that receives the launch
/// queue's counter word (sluiceProgramLaunchCounter): a CUDA reduction to
/// one output counts its finished workgroups there.
inline constexpr llvm::StringLiteral kLaunchCounterAttrName =
    "sluice.launch_counter";

/// Marks a host kernel (gpu.func, then its LLVM functions as a passthrough
/// attribute) whose vector stores are to be non-temporal: the host
/// optimisation pipeline (sluice::exec::makeHostOptimizingTransformer) makes
/// its aligned vector stores bypass the caches and fences them.
inline constexpr llvm::StringLiteral kNontemporalStoresAttrName =
    "sluice-nontemporal-stores";

/// Marks a module in the LLVM dialect whose host code only launches kernels
/// of devices and calls the runtime (it holds no host kernel): it is
/// compiled without optimisation (IR and code generation at -O0), which
/// costs a fraction of the compile time and nothing measurable per call.
inline constexpr llvm::StringLiteral kLaunchCodeOnlyAttrName =
    "sluice.launch_code_only";

} // namespace sluice

#endif // SLUICE_CONVERSION_LINALGTOKERNELS_KERNELTARGET_H
