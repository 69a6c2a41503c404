//===- Pipelines.cpp - Sluice's named pass pipelines ----------------------===//

#include "sluice/Pipelines/Pipelines.h"
#include "sluice/Conversion/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

LogicalResult
sluice::buildLowerToKernelsPipeline(OpPassManager &pm,
                                    const KernelPipelineOptions &options) {
  // Upstream passes are named by their flags so that the pipeline reads the
  // same here, in tests and in `--mlir-print-ir-after-all` output. The
  // innermost parallel dimension is tiled into workgroups and bounds are
  // guarded inside the kernel rather than with min/max, which
  // convert-parallel-loops-to-gpu needs for dynamic shapes.
  std::string text = "convert-usm-to-linalg,canonicalize,"
                     "func.func(convert-linalg-to-parallel-loops,"
                     "scf-parallel-loop-tiling{parallel-loop-tile-sizes=" +
                     std::to_string(options.workgroupSize) +
                     " no-min-max-bounds=true},"
                     "gpu-map-parallel-loops,convert-parallel-loops-to-gpu),"
                     "gpu-kernel-outlining,lower-affine,canonicalize,cse";
  return parsePassPipeline(text, pm, llvm::errs());
}

namespace {
struct LowerToKernelsOptions : PassPipelineOptions<LowerToKernelsOptions> {
  Option<int64_t> workgroupSize{
      *this, "workgroup-size",
      llvm::cl::desc("work-items per workgroup along the innermost dimension"),
      llvm::cl::init(256)};
};
} // namespace

void sluice::registerSluicePipelines() {
  PassPipelineRegistration<LowerToKernelsOptions>(
      "sluice-lower-to-kernels",
      "Lower usm IR to memrefs in USM memory spaces and one outlined GPU "
      "kernel per loop nest, tiled into workgroups",
      [](OpPassManager &pm, const LowerToKernelsOptions &opts) {
        KernelPipelineOptions options;
        options.workgroupSize = opts.workgroupSize;
        (void)buildLowerToKernelsPipeline(pm, options);
      });
}
