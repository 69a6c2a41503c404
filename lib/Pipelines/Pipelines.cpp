//===- Pipelines.cpp - Sluice's named pass pipelines ----------------------===//

#include "sluice/Pipelines/Pipelines.h"
#include "sluice/Conversion/Passes.h"
#include "sluice/Dialect/USM/Transforms/Passes.h"
#include "sluice/Pipelines/CompileOptions.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

// The pipelines are built from the passes' typed options (their
// TableGen'd create functions); `--mlir-print-ir-after-all` and the pass
// statistics name each pass by its flag.

LogicalResult
sluice::buildLowerToKernelsPipeline(OpPassManager &pm,
                                    const KernelPipelineOptions &options) {
  pm.addPass(createConvertUSMToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  ConvertLinalgToKernelsPassOptions kernels;
  kernels.workgroupSize = options.workgroupSize;
  kernels.hostStreamingStores = true;
  pm.addPass(createConvertLinalgToKernelsPass(kernels));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createInsertDeallocsPass());
  pm.addPass(createExpandComplexPass());
  return success();
}

LogicalResult
sluice::buildCompileProgramPipeline(OpPassManager &pm,
                                    const ProgramPipelineOptions &options) {
  // The stages after startAfter, up to and including stopAfter.
  auto wanted = [&](ProgramStage stage) {
    return stage > options.startAfter && stage <= options.stopAfter;
  };
  if (wanted(ProgramStage::Placed)) {
    pm.addPass(usm::createUSMVerifyPlacementPass());
    pm.addPass(usm::createUSMExpandContractionsPass());
    pm.addPass(createCanonicalizerPass());
  }
  if (wanted(ProgramStage::Fused) && options.fuse)
    pm.addPass(usm::createUSMFuseElementwisePass());
  if (wanted(ProgramStage::Kernels) &&
      failed(buildLowerToKernelsPipeline(pm, options.kernels)))
    return failure();
  if (wanted(ProgramStage::Binaries)) {
    CompileSPIRVKernelsPassOptions spirv;
    spirv.nativeF16 = options.spirvNativeF16;
    pm.addPass(createCompileSPIRVKernelsPass(spirv));
    CompileCUDAKernelsPassOptions cuda;
    cuda.chip = options.cudaChip;
    cuda.optLevel = options.cudaOptLevel;
    pm.addPass(createCompileCUDAKernelsPass(cuda));
  }
  if (wanted(ProgramStage::LLVM)) {
    pm.addPass(createConvertHostToRuntimePass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createReconcileUnrealizedCastsPass());
  }
  return success();
}

namespace {
// The pipelines' options as sluice-opt takes them; their defaults are
// CompileOptions' (one set of defaults for every tool and the C API).
const sluice::CompileOptions defaults;

struct LowerToKernelsOptions : PassPipelineOptions<LowerToKernelsOptions> {
  Option<int64_t> workgroupSize{
      *this, "workgroup-size",
      llvm::cl::desc("work-items per workgroup of GPU kernels"),
      llvm::cl::init(sluice::KernelPipelineOptions().workgroupSize)};
};

struct CompileProgramOptions : PassPipelineOptions<CompileProgramOptions> {
  Option<int64_t> workgroupSize{
      *this, "workgroup-size",
      llvm::cl::desc("work-items per workgroup of GPU kernels"),
      llvm::cl::init(defaults.workgroupSize)};
  Option<bool> fuse{*this, "fuse", llvm::cl::desc("fuse elementwise groups"),
                    llvm::cl::init(defaults.fuse)};
  Option<std::string> cudaChip{*this, "cuda-chip",
                               llvm::cl::desc("NVIDIA chip of CUDA kernels"),
                               llvm::cl::init(defaults.cudaChip)};
  Option<unsigned> cudaOptLevel{
      *this, "cuda-opt-level",
      llvm::cl::desc("LLVM optimisation level of CUDA kernels (0-3)"),
      llvm::cl::init(defaults.optLevel)};
  Option<bool> spirvNativeF16{
      *this, "spirv-native-f16",
      llvm::cl::desc("SPIR-V kernels compute f16 as half (devices with "
                     "cl_khr_fp16)"),
      llvm::cl::init(defaults.spirvNativeF16)};
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
        CompileOptions options;
        options.workgroupSize = opts.workgroupSize;
        options.fuse = opts.fuse;
        options.cudaChip = opts.cudaChip;
        options.optLevel = opts.cudaOptLevel;
        options.spirvNativeF16 = opts.spirvNativeF16;
        (void)buildCompileProgramPipeline(pm, options.pipelineOptions());
      });
}
