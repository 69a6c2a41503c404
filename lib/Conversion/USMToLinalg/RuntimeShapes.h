//===- RuntimeShapes.h - Shapes and checks decided at run time --*- C++ -*-===//
//
// Internal to convert-usm-to-linalg. Dynamic dimensions are only known when
// the program runs: their NumPy broadcasting, the element count of a reshape
// and the sizes given to creation ops are computed on the host, and what
// NumPy would reject becomes a `usm.assert` whose message names the op, its
// location and the shapes.
//
// A shape is one OpFoldResult per dimension: an index attribute for a
// static size, an index value for a dynamic one.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_LIB_CONVERSION_USMTOLINALG_RUNTIMESHAPES_H
#define SLUICE_LIB_CONVERSION_USMTOLINALG_RUNTIMESHAPES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include <string>

namespace sluice::usm {

using Shape = llvm::SmallVector<mlir::OpFoldResult>;

/// The run-time shape of `value`: a memref (its dims), or a scalar (rank 0).
Shape runtimeShape(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// `static` sizes with the dynamic ones taken, in order, from `sizes`.
Shape mixedShape(mlir::OpBuilder &b, llvm::ArrayRef<int64_t> shape,
                 mlir::ValueRange sizes);

/// The dynamic sizes of `shape` (for memref.alloc).
llvm::SmallVector<mlir::Value>
dynamicSizes(llvm::ArrayRef<mlir::OpFoldResult> shape);

/// Host-side index arithmetic that folds what is static.
struct ShapeMath {
  mlir::OpBuilder &b;
  mlir::Location loc;
  mlir::Value value(mlir::OpFoldResult v);
  mlir::Value isEqual(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::Value isEqual(mlir::OpFoldResult x, int64_t y);
  mlir::Value isNegative(mlir::OpFoldResult x);
  /// !x, folded when x is a constant.
  mlir::Value negate(mlir::Value x);
  mlir::Value both(mlir::Value x, mlir::Value y);   // null = true
  mlir::Value either(mlir::Value x, mlir::Value y); // null = true
  mlir::Value select(mlir::Value c, mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult product(llvm::ArrayRef<mlir::OpFoldResult> xs);
  /// x (*) y where either may be static.
  mlir::OpFoldResult mul(mlir::OpFoldResult x, mlir::OpFoldResult y);
};

/// The text of a run-time check's message, with `{i}` placeholders for
/// dynamic sizes (see usm.assert).
class CheckMessage {
public:
  /// Starts with "<op name> at <file:line:col>: " for `op`.
  explicit CheckMessage(mlir::Operation *op);
  CheckMessage &operator<<(llvm::StringRef text);
  CheckMessage &operator<<(mlir::OpFoldResult size);
  /// A shape in NumPy's notation: "(3,)", "(2,?)" with the sizes.
  CheckMessage &shape(llvm::ArrayRef<mlir::OpFoldResult> shape);
  /// Emits `usm.assert ok` (nothing when `ok` is null, i.e. always true).
  void assertThat(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ok);

private:
  std::string text;
  llvm::SmallVector<mlir::Value> values;
};

/// NumPy broadcasting at run time: the result shape of elementwise `op`
/// whose operands have shapes `operands` (rank 0 for scalars) and whose
/// result type has static shape `result`. Emits the check that they
/// broadcast together ("operands could not be broadcast together with
/// shapes ...").
Shape broadcastAtRunTime(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Operation *op, llvm::ArrayRef<Shape> operands,
                         llvm::ArrayRef<int64_t> result);

/// Checks that the sizes a creation or shape op was given are not negative
/// ("negative dimensions are not allowed").
void checkNonNegative(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Operation *op,
                      llvm::ArrayRef<mlir::OpFoldResult> sizes);

} // namespace sluice::usm

#endif // SLUICE_LIB_CONVERSION_USMTOLINALG_RUNTIMESHAPES_H
