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
      "},canonicalize,cse,sluice-insert-deallocs,"
      "sluice-expand-complex";
  return parsePassPipeline(text, pm, llvm::errs());
}

LogicalResult
sluice::buildCompileProgramPipeline(OpPassManager &pm,
                                    const ProgramPipelineOptions &options) {
  // The stages after startAfter, up to and including stopAfter.
  auto wanted = [&](ProgramStage stage) {
    return stage > options.startAfter && stage <= options.stopAfter;
  };
  auto add = [&](StringRef text) {
    return parsePassPipeline(text, pm, llvm::errs());
  };
  if (wanted(ProgramStage::Placed) &&
      failed(add("usm-verify-placement,usm-expand-contractions,canonicalize")))
    return failure();
  if (wanted(ProgramStage::Fused) && options.fuse &&
      failed(add("usm-fuse-elementwise")))
    return failure();
  if (wanted(ProgramStage::Kernels) &&
      failed(buildLowerToKernelsPipeline(pm, options.kernels)))
    return failure();
  std::string binaries =
      std::string("sluice-compile-spirv-kernels{native-f16=") +
      (options.spirvNativeF16 ? "true" : "false") +
      "},sluice-compile-cuda-kernels{chip=" + options.cudaChip +
      " opt-level=" + std::to_string(options.cudaOptLevel) + "}";
  if (wanted(ProgramStage::Binaries) && failed(add(binaries)))
    return failure();
  if (wanted(ProgramStage::LLVM) &&
      failed(add("convert-host-to-runtime,canonicalize,"
                 "reconcile-unrealized-casts")))
    return failure();
  return success();
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
  Option<unsigned> cudaOptLevel{
      *this, "cuda-opt-level",
      llvm::cl::desc("LLVM optimisation level of CUDA kernels (0-3)"),
      llvm::cl::init(3)};
  Option<bool> spirvNativeF16{
      *this, "spirv-native-f16",
      llvm::cl::desc("SPIR-V kernels compute f16 as half (devices with "
                     "cl_khr_fp16)"),
      llvm::cl::init(false)};
};
} // namespace

const char *sluice::programStageName(ProgramStage stage) {
  switch (stage) {
  case ProgramStage::Input:
    return "input";
  case ProgramStage::Placed:
    return "placed";
  case ProgramStage::Fused:
    return "fused";
  case ProgramStage::Kernels:
    return "kernels";
  case ProgramStage::Binaries:
    return "binaries";
  case ProgramStage::LLVM:
    return "llvm";
  }
  return "?";
}

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
        options.cudaOptLevel = opts.cudaOptLevel;
        options.spirvNativeF16 = opts.spirvNativeF16;
        (void)buildCompileProgramPipeline(pm, options);
      });
}
