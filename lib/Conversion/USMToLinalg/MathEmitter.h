//===- MathEmitter.h - scalar lowering of the table's functions -*- C++ -*-===//

#ifndef SLUICE_LIB_CONVERSION_USMTOLINALG_MATHEMITTER_H
#define SLUICE_LIB_CONVERSION_USMTOLINALG_MATHEMITTER_H

#include "mlir/IR/Builders.h"

namespace sluice::usm {

/// Emits the scalar body of an op of the function table (USMMathOps.td) on
/// signless `args`; `element` is the operands' usm element type (it carries
/// signedness). Returns null when `op` is not one of the table's.
mlir::Value emitMathFunction(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Operation *op, mlir::Type element,
                             mlir::ValueRange args);

} // namespace sluice::usm

#endif // SLUICE_LIB_CONVERSION_USMTOLINALG_MATHEMITTER_H
