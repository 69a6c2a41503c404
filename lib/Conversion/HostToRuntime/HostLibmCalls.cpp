//===- HostLibmCalls.cpp - libm for what math-to-llvm rounds badly --------===//
//
// convert-math-to-llvm lowers math.expm1 to exp(x) - 1, which loses every
// digit near 0; host kernels call libm's expm1 instead (which the vector
// math library maps to its vector variant, HostVectorMath.def).
//
//===----------------------------------------------------------------------===//

#include "HostToRuntime.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

void sluice::host::callLibmForInexactMath(func::FuncOp f) {
  SmallVector<Operation *> ops;
  f.walk([&](math::ExpM1Op op) { ops.push_back(op); });
  if (ops.empty())
    return;
  RewritePatternSet patterns(f.getContext());
  populateMathToLibmConversionPatterns(patterns);
  (void)applyOpPatternsGreedily(ops, std::move(patterns));
}
