//===- Pipelines.h - Sluice's named pass pipelines --------------*- C++ -*-===//
//
// The pipelines are defined once here and used by every tool, the C API and
// Python, so that all of them compile a program the same way.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_PIPELINES_PIPELINES_H
#define SLUICE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace sluice {

struct KernelPipelineOptions {
  /// Work-items per workgroup along the innermost parallel dimension.
  int64_t workgroupSize = 256;
};

/// usm IR -> memrefs in USM memory spaces -> one gpu.launch_func and one
/// outlined gpu.module per kernel, tiled into workgroups. The upstream passes
/// it names must be registered.
llvm::LogicalResult
buildLowerToKernelsPipeline(mlir::OpPassManager &pm,
                            const KernelPipelineOptions &options);

/// Registers the pipelines with the global registry (`sluice-opt
/// --sluice-lower-to-kernels`).
void registerSluicePipelines();

} // namespace sluice

#endif // SLUICE_PIPELINES_PIPELINES_H
