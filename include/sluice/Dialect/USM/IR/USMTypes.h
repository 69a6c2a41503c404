//===- USMTypes.h - usm dialect attributes and types ------------*- C++ -*-===//

#ifndef SLUICE_DIALECT_USM_IR_USMTYPES_H
#define SLUICE_DIALECT_USM_IR_USMTYPES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include "sluice/Dialect/USM/IR/USMEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "sluice/Dialect/USM/IR/USMAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "sluice/Dialect/USM/IR/USMTypes.h.inc"

namespace sluice::usm {

/// A shape the way NumPy prints it, for messages: (4,3), (5,), (), ? for a
/// dynamic extent.
std::string formatShape(llvm::ArrayRef<int64_t> shape);
/// A queue for messages: "opencl:cpu:0", "opencl:cpu:0" (queue "q1"), or
/// unplaced.
std::string formatQueue(QueueAttr queue);

/// True for the element types an array may hold: i1, i8-i64, ui8-ui64, f16,
/// bf16, f32, f64.
bool isValidElementType(mlir::Type type);
/// Bits of one element: an integer's or float's width, twice the part's
/// width for a complex number (defined in USMComplex.cpp).
unsigned getElementBitWidth(mlir::Type type);

/// True if a scalar of type `scalar` can stand for an element of type
/// `element`: the same type, or a signless integer of the same width for an
/// unsigned element type.
bool isCompatibleScalar(mlir::Type scalar, mlir::Type element);

/// The coerced USM kind of two kinds: device < shared < host, smallest wins.
inline USMKind coerceKinds(USMKind a, USMKind b) {
  return static_cast<unsigned>(a) < static_cast<unsigned>(b) ? a : b;
}

/// Normalises a dpctl filter string naming one device to
/// `backend:type:index` (`*` for a missing backend or type, 0 for a missing
/// index). Returns false and sets `error` if the string is malformed.
bool normalizeFilterString(llvm::StringRef filter, std::string &normalized,
                           std::string &error);

} // namespace sluice::usm

#endif // SLUICE_DIALECT_USM_IR_USMTYPES_H
