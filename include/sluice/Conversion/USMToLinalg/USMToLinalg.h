//===- USMToLinalg.h - usm arrays to memrefs and linalg ---------*- C++ -*-===//

#ifndef SLUICE_CONVERSION_USMTOLINALG_USMTOLINALG_H
#define SLUICE_CONVERSION_USMTOLINALG_USMTOLINALG_H

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace sluice::usm {

class FusedOp;

/// Converts `!usm.array` to a memref with identity layout, a signless element
/// type and the placement (`#usm.placement`) as its memory space.
class USMTypeConverter : public mlir::TypeConverter {
public:
  USMTypeConverter();
};

/// The signless type that holds elements of usm element type `type`.
mlir::Type getStorageElementType(mlir::Type type);

/// The data element type of elementwise usm op `op`: that of its first array
/// operand, else its first operand's type (a scalar).
mlir::Type dataElementType(mlir::Operation *op);

/// Emits the scalar computation of elementwise usm op `op` on `args` (one
/// signless scalar per operand, in operand order). Element types and
/// signedness come from `op`'s usm types. Returns null for ops that are not
/// elementwise.
mlir::Value emitScalarOp(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Operation *op, mlir::ValueRange args);

/// Emits the conversion of one scalar from usm element type `from` to `to`
/// with NumPy `astype` semantics.
mlir::Value emitScalarCast(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value value, mlir::Type from, mlir::Type to);

/// Complex numbers (ComplexEmitter.cpp): whether `op`'s scalar function is
/// about complex numbers, its scalar function in the complex dialect, the
/// conversions to and from complex element types, the value of a complex
/// splat, and the rewrites before lowering: sums of complex arrays into sums
/// of their parts (products fail with a diagnostic; Python's prod builds a
/// tree of elementwise products, python/sluice/_complex.py), complex
/// constants that are not splats into usm.complex of two real constants.
bool isComplexScalarOp(mlir::Operation *op);
mlir::Value emitComplexScalarOp(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Operation *op, mlir::ValueRange args);
/// The elementary functions of complex numbers (ComplexFunctions.cpp):
/// null for an op that is not one.
mlir::Value emitComplexFunction(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Operation *op, mlir::ValueRange args);
mlir::Value emitComplexCast(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value value, mlir::Type from, mlir::Type to);
mlir::Value emitComplexSplat(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::DenseElementsAttr splat);
llvm::LogicalResult decomposeComplexOps(mlir::Operation *root);

/// Patterns lowering every usm op to memref allocations, copies and linalg
/// ops on memrefs (one allocation per result: arrays are values).
/// Whether a fused group is purely elementwise (one shape for its results,
/// every op elementwise): such a group lowers to one linalg.generic.
bool isElementwiseGroup(FusedOp op);

/// Whether a fused group holds one reduction and elementwise ops (every
/// result an op's): its reduction then reads its producers' chain in one
/// linalg.generic (no buffer of the reduced space), and the other ops lower
/// one by one.
bool isReductionGroup(FusedOp op);

/// One linalg.generic per elementwise fused group; one reduction generic
/// fed by its producers per reduction group.
void populateFusedGroupLoweringPatterns(USMTypeConverter &converter,
                                        mlir::RewritePatternSet &patterns);

/// One elementwise linalg.generic per reduction group over short rows (a
/// static reduced extent of at most 8) whose results all have the
/// reduction's result shape: the row unrolled (ShortRowLowering.cpp).
/// Included in populateFusedGroupLoweringPatterns, at a higher benefit.
void populateShortRowLoweringPatterns(USMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

/// Splits each reduction group over short rows that also returns values of
/// its prologue (values computed before the reduction that the program
/// uses too: `d` of `d = p[:, None] - p[None]; sqrt((d * d).sum(-1))`) into
/// an elementwise group of those values and the reduction group without
/// them, which then lowers with its rows unrolled and recomputes the
/// prologue from the inputs instead of reading the values back
/// (ShortRowLowering.cpp). Run before the conversion.
void splitShortRowGroups(mlir::Operation *root);

/// usm.gather as a linalg.generic loading from its source, usm.strided_view
/// as a strided memref view, usm.strided_insert as a copy and a strided
/// write (IndexingLowering.cpp).
void populateIndexingLoweringPatterns(USMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

/// Marks with kInPlaceAttr the usm.strided_insert and usm.scatter ops in
/// `root` whose destination's old value is dead after them and whose
/// destination's memory may be reused (see the ops' descriptions); clears
/// the mark on the others (InPlaceUpdates.cpp).
void markInPlaceUpdates(mlir::Operation *root);

/// Whether the update `op` (a strided insert or a scatter) was marked and
/// `dest`, its converted destination, is memory it may write: a function
/// argument, a buffer the program allocates, or another update's result.
bool isInPlaceUpdate(mlir::Operation *op, mlir::Value dest);

inline constexpr llvm::StringLiteral kInPlaceAttr = "usm.in_place";

/// usm.matmul (those usm-expand-contractions kept for a library) as a
/// result buffer and usm.library_matmul (ContractionLowering.cpp).
void populateContractionLoweringPatterns(USMTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);

/// The strided memref of a usm.strided_view when `v` is the cast the
/// conversion made of it (an elementwise lowering reads that in place);
/// else `v` itself.
mlir::Value lookThroughView(mlir::Value v);

/// A contiguous copy of `view` (a strided memref) of identity-layout
/// `type`, or a null value when `view` is no such view: the type
/// converter's materialization for uses of a view that read it whole.
mlir::Value contiguousCopyOfView(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::MemRefType type, mlir::Value view);

/// A gather's source (a contiguous memref) as a flat 1-D memref, and the
/// index of its last element, computed where `b` stands.
struct GatherSource {
  mlir::Value flat, last;
};
GatherSource gatherSourceOf(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value source);

/// One element of a gather, in a generic's body: `index` (an integer
/// element of the indices) clamped into the source, then loaded.
mlir::Value gatherElement(mlir::OpBuilder &b, mlir::Location loc,
                          const GatherSource &source, mlir::Value index,
                          bool unsignedIndex);

/// usm.gather into `out` (a new buffer of `outType` when null); returns
/// the buffer.
mlir::Value lowerGather(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::MemRefType outType, mlir::Value source,
                        mlir::Value indices, bool unsignedIndex,
                        mlir::Value out);

void populateUSMToLinalgConversionPatterns(USMTypeConverter &converter,
                                           mlir::RewritePatternSet &patterns);

} // namespace sluice::usm

#endif // SLUICE_CONVERSION_USMTOLINALG_USMTOLINALG_H
