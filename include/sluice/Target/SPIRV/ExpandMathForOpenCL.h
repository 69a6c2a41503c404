//===- ExpandMathForOpenCL.h - math ops OpenCL.std lacks --------*- C++ -*-===//

#ifndef SLUICE_TARGET_SPIRV_EXPANDMATHFOROPENCL_H
#define SLUICE_TARGET_SPIRV_EXPANDMATHFOROPENCL_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace sluice {

/// Rewrites the math ops of `module` that convert-math-to-spirv does not
/// lower (exp2, cbrt, erfc, trunc) or lowers inaccurately (expm1 as
/// exp(x) - 1, log1p as log(1 + x), log2 and log10 as a scaled log) into
/// ops it lowers well: expm1 and log1p by Kahan's corrections, log2 and log10
/// exact at powers of the base, cbrt by a Newton step on pow. The measured
/// error of each is in docs/accuracy.md.
void expandMathForOpenCL(mlir::gpu::GPUModuleOp module);

} // namespace sluice

#endif // SLUICE_TARGET_SPIRV_EXPANDMATHFOROPENCL_H
