//===- Broadcasting.h - Elementwise generics with NumPy broadcasting -*- C++
//-*-===//
//
// Internal to convert-usm-to-linalg. An elementwise computation over a
// result shape reads each operand at its broadcast position. Static sizes
// of 1 are read at index 0 through the indexing maps. A dynamic size may be
// 1 at run time while the result's is not: then the computation runs a
// second generic that reads such operands through stride-0 views, chosen at
// run time (scf.if) only when a size differs, so that arrays of equal shapes
// take the generic with identity maps (flat indexing, vectorised loops).
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_LIB_CONVERSION_USMTOLINALG_BROADCASTING_H
#define SLUICE_LIB_CONVERSION_USMTOLINALG_BROADCASTING_H

#include "RuntimeShapes.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace sluice::usm {

/// An operand of an elementwise computation: a memref (an array) or a
/// scalar, with its run-time shape (rank 0 for scalars).
struct BroadcastOperand {
  mlir::Value value;
  Shape shape;
};

/// The body of an elementwise computation: the values to store in each
/// output from one scalar per operand.
using ElementwiseBody = llvm::function_ref<llvm::SmallVector<mlir::Value>(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// Whether some operand may have to be broadcast at run time along a
/// dynamic dimension (one that is 1 while the result's is not).
bool needsRunTimeBroadcast(llvm::ArrayRef<BroadcastOperand> operands,
                           llvm::ArrayRef<mlir::OpFoldResult> result);

/// The condition under which no operand is broadcast at run time: every
/// dynamic size that could be 1 equals the result's (null when there is no
/// such size).
mlir::Value noRunTimeBroadcast(mlir::OpBuilder &b, mlir::Location loc,
                               llvm::ArrayRef<BroadcastOperand> operands,
                               llvm::ArrayRef<mlir::OpFoldResult> result);

/// A view of array operand `operand` with the sizes of the dimensions of
/// `result` it aligns with (trailing dimensions), and stride 0 along its
/// dimensions of size 1 at run time: read at the result's indices, it is
/// the operand broadcast.
mlir::Value broadcastView(mlir::OpBuilder &b, mlir::Location loc,
                          const BroadcastOperand &operand,
                          llvm::ArrayRef<mlir::OpFoldResult> result);

/// Writes `outs[k][p] = body(operands at the broadcast positions of p)[k]`
/// at every point p of `result` (the run-time shape of every output, whose
/// types have the static shape `staticResult`). The operands must already
/// be known to broadcast to `result` (see broadcastAtRunTime).
void buildBroadcastingGeneric(mlir::OpBuilder &b, mlir::Location loc,
                              llvm::ArrayRef<BroadcastOperand> operands,
                              llvm::ArrayRef<int64_t> staticResult,
                              llvm::ArrayRef<mlir::OpFoldResult> result,
                              mlir::ValueRange outs, ElementwiseBody body);

/// The second generic of buildBroadcastingGeneric alone: operands broadcast
/// at run time along a dynamic dimension are read through stride-0 views,
/// whatever their sizes. For a caller that has checked noRunTimeBroadcast
/// and is on the branch where it failed.
void buildViewedBroadcastGeneric(mlir::OpBuilder &b, mlir::Location loc,
                                 llvm::ArrayRef<BroadcastOperand> operands,
                                 llvm::ArrayRef<int64_t> staticResult,
                                 llvm::ArrayRef<mlir::OpFoldResult> result,
                                 mlir::ValueRange outs, ElementwiseBody body);

/// The same with static maps only: for operands known not to be broadcast
/// at run time (see noRunTimeBroadcast).
void buildStaticBroadcastGeneric(mlir::OpBuilder &b, mlir::Location loc,
                                 llvm::ArrayRef<BroadcastOperand> operands,
                                 llvm::ArrayRef<int64_t> staticResult,
                                 mlir::ValueRange outs, ElementwiseBody body);

/// A reduction over the iteration space `space` (static shape
/// `staticSpace`): `out`, read and written through `outMap` (a projection
/// of the space's loops), becomes `body(operand scalars..., out scalar)`
/// at every point, with `iterators` saying which loops are reduced. The
/// operands broadcast to the space as for buildBroadcastingGeneric (a
/// second generic reads through stride-0 views when a dynamic size is 1 at
/// run time), so a chain of elementwise ops feeding a reduction needs no
/// buffer of the space's size.
void buildBroadcastingReduction(
    mlir::OpBuilder &b, mlir::Location loc,
    llvm::ArrayRef<BroadcastOperand> operands,
    llvm::ArrayRef<int64_t> staticSpace,
    llvm::ArrayRef<mlir::OpFoldResult> space, mlir::Value out,
    mlir::AffineMap outMap, llvm::ArrayRef<mlir::utils::IteratorType> iterators,
    ElementwiseBody body);

/// The identity of reduction usm op `op` (sum, prod, max, min) in the
/// storage type of usm element type `element`, and one step of its
/// combiner: `acc` combined with `x` (in that order).
mlir::Value reductionIdentity(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Operation *op, mlir::Type element);
mlir::Value reductionCombine(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Operation *op, mlir::Type element,
                             mlir::Value acc, mlir::Value x);

/// Lowers reduction usm op `op` (sum, prod, max, min) of the value
/// `value(operand scalars)` over the space `domain` (the reduction input's
/// run-time shape, checked already): the empty-extent check of max and
/// min, the result's allocation, the identity fill, and the generic(s) of
/// buildBroadcastingReduction. Returns the result.
mlir::Value lowerReduction(mlir::OpBuilder &b, mlir::Operation *op,
                           const mlir::TypeConverter &converter,
                           llvm::ArrayRef<BroadcastOperand> operands,
                           llvm::ArrayRef<mlir::OpFoldResult> domain,
                           ElementwiseBody value);

/// Lowers elementwise usm op `op` on its converted operands: the run-time
/// broadcasting check, the result's allocation and the generic(s). Returns
/// the result. With `shapes` (the operands' run-time shapes and the
/// result's, already checked) no check is emitted; with `out` (a buffer of
/// the result's shape) the result is written there.
mlir::Value lowerElementwiseOp(mlir::OpBuilder &b, mlir::Operation *op,
                               mlir::ValueRange operands,
                               const mlir::TypeConverter &converter,
                               llvm::ArrayRef<Shape> operandShapes = {},
                               const Shape *resultShape = nullptr,
                               mlir::Value out = mlir::Value());

} // namespace sluice::usm

#endif // SLUICE_LIB_CONVERSION_USMTOLINALG_BROADCASTING_H
