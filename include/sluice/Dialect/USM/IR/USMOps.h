//===- USMOps.h - usm dialect operations ------------------------*- C++ -*-===//

#ifndef SLUICE_DIALECT_USM_IR_USMOPS_H
#define SLUICE_DIALECT_USM_IR_USMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"

namespace sluice::usm {

namespace OpTrait {
/// Ops that apply a scalar function to each element of broadcast operands.
template <typename ConcreteType>
class Elementwise : public mlir::OpTrait::TraitBase<ConcreteType, Elementwise> {
};
/// Reductions over axes.
template <typename ConcreteType>
class Reduction : public mlir::OpTrait::TraitBase<ConcreteType, Reduction> {};
} // namespace OpTrait

/// Element-type rules of elementwise ops (see USMOps.td).
enum class ElementRule {
  Arith,
  ArithOrBool,
  Float,
  Compare,
  Logical,
  Select,
  Integer,
  ComplexPart,
  MakeComplex
};

/// Infers the result type of an elementwise op: the common queue, the
/// coerced USM kind, the broadcast shape and the rule's element type. Emits a
/// diagnostic at `loc` when the operands are incompatible.
llvm::LogicalResult
inferElementwiseType(std::optional<mlir::Location> loc, llvm::StringRef opName,
                     mlir::ValueRange operands, ElementRule rule,
                     llvm::SmallVectorImpl<mlir::Type> &inferred);

/// Infers the result type of a reduction over `axes` (all when null).
llvm::LogicalResult
inferReductionType(std::optional<mlir::Location> loc, llvm::StringRef opName,
                   mlir::Value input, mlir::DenseI64ArrayAttr axes,
                   bool keepdims, bool widenIntegers,
                   llvm::SmallVectorImpl<mlir::Type> &inferred);

/// Axes normalised to [0, rank), sorted; all axes when `axes` is null.
/// Assumes the axes were verified.
llvm::SmallVector<int64_t> normalizeAxes(int64_t rank,
                                         mlir::DenseI64ArrayAttr axes);

/// NumPy broadcasting of two shapes (dynamic dims allowed). Returns false
/// when static sizes conflict.
bool broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                     llvm::SmallVectorImpl<int64_t> &result);

} // namespace sluice::usm

#define GET_OP_CLASSES
#include "sluice/Dialect/USM/IR/USMOps.h.inc"

#endif // SLUICE_DIALECT_USM_IR_USMOPS_H
