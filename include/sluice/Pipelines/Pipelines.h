//===- Pipelines.h - Sluice's named pass pipelines --------------*- C++ -*-===//
//
// The pipelines are defined once here and used by every tool, the C API and
// Python, so that all of them compile a program the same way.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_PIPELINES_PIPELINES_H
#define SLUICE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

#include <string>

namespace sluice {

struct KernelPipelineOptions {
  /// Work-items per workgroup of GPU kernels.
  int64_t workgroupSize = 256;
};

/// usm IR -> memrefs in USM memory spaces -> one gpu.launch_func (two for a
/// reduction) per linalg op, kernels outlined into one gpu.module per target
/// family, temporaries freed after their last use.
llvm::LogicalResult
buildLowerToKernelsPipeline(mlir::OpPassManager &pm,
                            const KernelPipelineOptions &options);

/// How far the whole-program pipeline goes.
enum class ProgramStage {
  /// Nothing run yet: usm IR as parsed or built.
  Input,
  /// Placement verified and canonicalised.
  Placed,
  /// Elementwise groups fused (when fusion is on).
  Fused,
  /// Kernels formed (gpu.launch_func + gpu.module), still on memrefs.
  Kernels,
  /// Device kernels compiled to binaries (gpu.binary).
  Binaries,
  /// Everything in the LLVM dialect, ready for the JIT or an object file.
  LLVM,
};

/// The name of `stage` ("input", "placed", "fused", "kernels", "binaries",
/// "llvm"): sluice-compile's --stop-after and the C API's messages (whose
/// SluiceCompileStage numbers the stages in the same order).
const char *programStageName(ProgramStage stage);

struct ProgramPipelineOptions {
  bool fuse = true;
  KernelPipelineOptions kernels;
  /// NVIDIA chip for CUDA kernels.
  std::string cudaChip = "sm_90";
  /// LLVM optimisation level (0-3) of CUDA kernels before PTX (the driver's
  /// PTX compiler optimises again when it loads them).
  unsigned cudaOptLevel = 3;
  /// SPIR-V kernels compute f16 as half (Float16 capability; devices with
  /// cl_khr_fp16) instead of in f32.
  bool spirvNativeF16 = false;
  /// The stages after `startAfter` up to `stopAfter` run: a module already
  /// compiled to `startAfter` continues from there.
  ProgramStage startAfter = ProgramStage::Input;
  ProgramStage stopAfter = ProgramStage::LLVM;
};

/// The whole compiler: usm IR in, LLVM dialect with runtime calls, embedded
/// device binaries and host kernels out (or the IR of an earlier stage).
llvm::LogicalResult
buildCompileProgramPipeline(mlir::OpPassManager &pm,
                            const ProgramPipelineOptions &options);

/// Registers the pipelines with the global registry (`sluice-opt
/// --sluice-lower-to-kernels`, `--sluice-compile-program`).
void registerSluicePipelines();

} // namespace sluice

#endif // SLUICE_PIPELINES_PIPELINES_H
