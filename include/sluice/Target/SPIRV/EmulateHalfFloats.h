//===- EmulateHalfFloats.h - f16 and bf16 kernels in f32 --------*- C++ -*-===//

#ifndef SLUICE_TARGET_SPIRV_EMULATEHALFFLOATS_H
#define SLUICE_TARGET_SPIRV_EMULATEHALFFLOATS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"

namespace sluice {

/// Whether any value, argument or memref element in `module` is bf16 or,
/// unless `bf16Only`, f16.
bool usesHalfFloats(mlir::gpu::GPUModuleOp module, bool bf16Only = false);

/// Rewrites the kernels of `module` so that no bf16 (and, unless
/// `bf16Only`, no f16) type is left: such data is kept as its bits (i16
/// buffers and scalar arguments) and computed in f32, each result rounded
/// to the nearest value of its type (ties to even). The kernels' results
/// are those of hardware that computes every op in f32 and rounds once, as
/// NumPy and LLVM do for these types.
mlir::LogicalResult emulateHalfFloats(mlir::gpu::GPUModuleOp module,
                                      bool bf16Only = false);

} // namespace sluice

#endif // SLUICE_TARGET_SPIRV_EMULATEHALFFLOATS_H
