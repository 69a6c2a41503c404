//===- USMTypes.td - usm dialect types ---------------------*- tablegen -*-===//

#ifndef SLUICE_DIALECT_USM_IR_USMTYPES_TD
#define SLUICE_DIALECT_USM_IR_USMTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "sluice/Dialect/USM/IR/USMDialect.td"
include "sluice/Dialect/USM/IR/USMAttrs.td"
include "sluice/Dialect/USM/IR/USMEnums.td"

def USM_ArrayType : TypeDef<USM_Dialect, "Array", [ShapedTypeInterface]> {
  let mnemonic = "array";
  let summary = "a ranked array in a USM allocation bound to a queue";
  let description = [{
    `!usm.array<shape x element, queue, kind>` is a ranked array of static or
    dynamic (`?`) dimensions. The element type is one of `i1`, `i8`-`i64`
    (signed), `ui8`-`ui64`, `f16`, `bf16`, `f32`, `f64`. The placement is the
    queue, written as a filter string optionally followed by a queue name in
    parentheses, and the USM kind.

    ```mlir
    !usm.array<1024xf32, "opencl:cpu:0", device>
    !usm.array<?x3xi64, "level_zero:gpu:1", shared>
    !usm.array<f64, "host:cpu:0"("worker"), host>    // rank 0, named queue
    !usm.array<4xf32, ?>                             // unplaced
    ```

    An *unplaced* array, written with `?` in place of the queue and the USM
    kind, has no queue yet: host data brought in without a `device` keyword,
    as a NumPy array is before it meets a USM array. Operations accept
    unplaced operands next to placed ones (the unplaced ones follow the
    placed ones, as in dpctl) and give an unplaced result only when every
    array operand is unplaced. `usm-infer-placement` gives every unplaced
    array the queue and the USM kind of the arrays it meets; nothing but
    that pass removes the `?`.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "dimensions">:$shape,
    "::mlir::Type":$elementType,
    "::sluice::usm::QueueAttr":$queue,
    "::sluice::usm::USMKind":$kind);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    // ShapedTypeInterface.
    using ::mlir::ShapedType::Trait<ArrayType>::getRank;
    using ::mlir::ShapedType::Trait<ArrayType>::getNumElements;
    using ::mlir::ShapedType::Trait<ArrayType>::isDynamicDim;
    using ::mlir::ShapedType::Trait<ArrayType>::hasStaticShape;
    using ::mlir::ShapedType::Trait<ArrayType>::getNumDynamicDims;
    using ::mlir::ShapedType::Trait<ArrayType>::getDimSize;
    using ::mlir::ShapedType::Trait<ArrayType>::getDynamicDimIndex;
    bool hasRank() const { return true; }
    ArrayType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                        ::mlir::Type elementType) const;

    /// The same array with another shape / element type / placement. An
    /// unplaced queue drops the kind.
    ArrayType withShape(::llvm::ArrayRef<int64_t> shape) const;
    ArrayType withElementType(::mlir::Type elementType) const;
    ArrayType withPlacement(QueueAttr queue, USMKind kind) const;
    /// False for an unplaced array (`?`: no queue and no USM kind yet).
    bool isPlaced() const { return !getQueue().isUnplaced(); }
    /// The same array, unplaced.
    ArrayType unplaced() const;
    /// True if both types have the same queue and kind.
    bool samePlacement(ArrayType other) const {
      return getQueue() == other.getQueue() && getKind() == other.getKind();
    }
    /// Size of one element in bytes (i1 takes one byte).
    unsigned getElementByteWidth() const;
  }];
}

#endif // SLUICE_DIALECT_USM_IR_USMTYPES_TD
