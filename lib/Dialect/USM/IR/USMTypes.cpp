//===- USMTypes.cpp - usm dialect types -----------------------------------===//

#include "sluice/Dialect/USM/IR/USMTypes.h"
#include "USMDetail.h"
#include "sluice/Dialect/USM/IR/USMDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace sluice::usm;

#define GET_TYPEDEF_CLASSES
#include "sluice/Dialect/USM/IR/USMTypes.cpp.inc"

bool sluice::usm::isValidElementType(Type type) {
  if (auto i = dyn_cast<IntegerType>(type)) {
    unsigned w = i.getWidth();
    if (i.isSignless())
      return w == 1 || w == 8 || w == 16 || w == 32 || w == 64;
    if (i.isUnsigned())
      return w == 8 || w == 16 || w == 32 || w == 64;
    return false; // si8...: signed integers are written i8...
  }
  if (auto c = dyn_cast<ComplexType>(type))
    return c.getElementType().isF32() || c.getElementType().isF64();
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
}

bool sluice::usm::isCompatibleScalar(Type scalar, Type element) {
  if (scalar == element)
    return true;
  auto e = dyn_cast<IntegerType>(element);
  auto s = dyn_cast<IntegerType>(scalar);
  return e && s && e.isUnsigned() && s.isSignless() &&
         e.getWidth() == s.getWidth();
}

LogicalResult ArrayType::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> shape, Type elementType,
                                QueueAttr queue, USMKind kind) {
  for (int64_t d : shape)
    if (d < 0 && !ShapedType::isDynamic(d))
      return emitError() << "array dimensions must be non-negative or '?', got "
                         << d;
  if (!isValidElementType(elementType))
    return emitError() << "unsupported array element type " << elementType
                       << "; expected i1, i8, i16, i32, i64, ui8, ui16, ui32, "
                          "ui64, f16, bf16, f32, f64, complex<f32> or "
                          "complex<f64>";
  // The static part of the size must fit in memory: at most 2^62 bytes
  // (as host arrays and the runtime allow), so no product of sizes, strides
  // and byte offsets overflows 64 bits in the code generated for it.
  {
    const uint64_t limit = uint64_t(1) << 62;
    uint64_t bytes = std::max<uint64_t>(
        1, llvm::divideCeil(getElementBitWidth(elementType), 8));
    bool empty = false, tooLarge = false;
    for (int64_t d : shape) {
      if (d == 0)
        empty = true;
      else if (!ShapedType::isDynamic(d) && !tooLarge) {
        if (bytes > limit / uint64_t(d))
          tooLarge = true;
        else
          bytes *= uint64_t(d);
      }
    }
    if (tooLarge && !empty) {
      auto diag = emitError() << "array of shape ";
      llvm::interleave(
          shape, diag,
          [&](int64_t d) {
            if (ShapedType::isDynamic(d))
              diag << "?";
            else
              diag << d;
          },
          "x");
      return diag << " and element type " << elementType
                  << " is too large: its size in bytes exceeds 2^62";
    }
  }
  if (!queue)
    return emitError() << "array type needs a queue";
  // An unplaced array has no kind; `host`, the identity of kind coercion,
  // stands for it so that unplaced operands leave the coerced kind alone.
  if (queue.isUnplaced() && kind != USMKind::host)
    return emitError() << "an unplaced array has no USM kind";
  return success();
}

Type ArrayType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  if (succeeded(parser.parseOptionalQuestion())) {
    if (parser.parseGreater())
      return {};
    return parser.getChecked<ArrayType>(
        loc, parser.getContext(), shape, elementType,
        QueueAttr::getUnplaced(parser.getContext()), USMKind::host);
  }
  QueueAttr queue;
  USMKind kind;
  if (failed(sluice::usm::detail::parsePlacement(parser, queue, kind)) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<ArrayType>(loc, parser.getContext(), shape,
                                      elementType, queue, kind);
}

void ArrayType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printDimensionList(getShape());
  if (!getShape().empty())
    printer << "x";
  printer << getElementType() << ", ";
  if (!isPlaced()) {
    printer << "?>";
    return;
  }
  getQueue().printShort(printer);
  printer << ", " << stringifyUSMKind(getKind()) << ">";
}

ArrayType ArrayType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                               Type elementType) const {
  return ArrayType::get(getContext(), shape ? *shape : getShape(),
                        elementType ? elementType : getElementType(),
                        getQueue(), getKind());
}

ArrayType ArrayType::withShape(ArrayRef<int64_t> shape) const {
  return cloneWith(shape, getElementType());
}

ArrayType ArrayType::withElementType(Type elementType) const {
  return cloneWith(getShape(), elementType);
}

ArrayType ArrayType::withPlacement(QueueAttr queue, USMKind kind) const {
  return ArrayType::get(getContext(), getShape(), getElementType(), queue,
                        queue.isUnplaced() ? USMKind::host : kind);
}

ArrayType ArrayType::unplaced() const {
  return withPlacement(QueueAttr::getUnplaced(getContext()), USMKind::host);
}

unsigned ArrayType::getElementByteWidth() const {
  unsigned bits = getElementBitWidth(getElementType());
  return bits < 8 ? 1 : bits / 8;
}

void USMDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "sluice/Dialect/USM/IR/USMTypes.cpp.inc"
      >();
}
