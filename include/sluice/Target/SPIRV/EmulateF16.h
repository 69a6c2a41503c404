//===- EmulateF16.h - f16 kernels without the Float16 capability -*- C++
//-*-===//

#ifndef SLUICE_TARGET_SPIRV_EMULATEF16_H
#define SLUICE_TARGET_SPIRV_EMULATEF16_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"

namespace sluice {

/// Whether any value, argument or memref element in `module` is f16.
bool usesF16(mlir::gpu::GPUModuleOp module);

/// Rewrites the kernels of `module` so that no f16 type is left: f16 data
/// is kept as its bits (i16 buffers and scalar arguments) and computed in
/// f32, each f16 result rounded to the nearest f16 (ties to even). The
/// kernels' results are those of native f16 arithmetic that computes every
/// op in f32 and rounds once, as NumPy and LLVM's half do.
mlir::LogicalResult emulateF16(mlir::gpu::GPUModuleOp module);

} // namespace sluice

#endif // SLUICE_TARGET_SPIRV_EMULATEF16_H
