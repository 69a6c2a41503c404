//===- Pipelines.cpp - Sluice's named pass pipelines ----------------------===//

#include "sluice/Pipelines/Pipelines.h"
#include "sluice/Conversion/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

// Passes are named by their flags so that a pipeline reads the same here, in
// tests and in `--mlir-print-ir-after-all` output.

LogicalResult
sluice::buildLowerToKernelsPipeline(OpPassManager &pm,
                                    const KernelPipelineOptions &options) {
  std::string text =
      "convert-usm-to-linalg,canonicalize,convert-linalg-to-kernels{"
      "workgroup-size=" +
      std::to_string(options.workgroupSize) +
      "},canonicalize,cse,sluice-insert-deallocs";
  return parsePassPipeline(text, pm, llvm::errs());
}

LogicalResult
sluice::buildCompileProgramPipeline(OpPassManager &pm,
                                    const ProgramPipelineOptions &options) {
  if (failed(parsePassPipeline("usm-verify-placement,canonicalize", pm,
                               llvm::errs())))
    return failure();
  if (options.stopAfter == ProgramStage::Placed)
    return success();
  if (options.fuse &&
      failed(parsePassPipeline("usm-fuse-elementwise", pm, llvm::errs())))
    return failure();
  if (options.stopAfter == ProgramStage::Fused)
    return success();
  if (failed(buildLowerToKernelsPipeline(pm, options.kernels)))
    return failure();
  if (options.stopAfter == ProgramStage::Kernels)
    return success();
  if (failed(parsePassPipeline(
          "sluice-compile-spirv-kernels,sluice-compile-cuda-kernels{chip=" +
              options.cudaChip + "}",
          pm, llvm::errs())))
    return failure();
  if (options.stopAfter == ProgramStage::Binaries)
    return success();
  return parsePassPipeline(
      "convert-host-to-runtime,canonicalize,reconcile-unrealized-casts", pm,
      llvm::errs());
}

namespace {
struct LowerToKernelsOptions : PassPipelineOptions<LowerToKernelsOptions> {
  Option<int64_t> workgroupSize{
      *this, "workgroup-size",
      llvm::cl::desc("work-items per workgroup of GPU kernels"),
      llvm::cl::init(256)};
};

struct CompileProgramOptions : PassPipelineOptions<CompileProgramOptions> {
  Option<int64_t> workgroupSize{
      *this, "workgroup-size",
      llvm::cl::desc("work-items per workgroup of GPU kernels"),
      llvm::cl::init(256)};
  Option<bool> fuse{*this, "fuse", llvm::cl::desc("fuse elementwise groups"),
                    llvm::cl::init(true)};
  Option<std::string> cudaChip{*this, "cuda-chip",
                               llvm::cl::desc("NVIDIA chip of CUDA kernels"),
                               llvm::cl::init("sm_90")};
};
} // namespace

void sluice::registerSluicePipelines() {
  PassPipelineRegistration<LowerToKernelsOptions>(
      "sluice-lower-to-kernels",
      "Lower usm IR to memrefs in USM memory spaces and one outlined kernel "
      "per array operation",
      [](OpPassManager &pm, const LowerToKernelsOptions &opts) {
        KernelPipelineOptions options;
        options.workgroupSize = opts.workgroupSize;
        (void)buildLowerToKernelsPipeline(pm, options);
      });
  PassPipelineRegistration<CompileProgramOptions>(
      "sluice-compile-program",
      "Compile a usm program: placement checks, fusion, kernels, device "
      "binaries and host code in the LLVM dialect",
      [](OpPassManager &pm, const CompileProgramOptions &opts) {
        ProgramPipelineOptions options;
        options.kernels.workgroupSize = opts.workgroupSize;
        options.fuse = opts.fuse;
        options.cudaChip = opts.cudaChip;
        (void)buildCompileProgramPipeline(pm, options);
      });
}
