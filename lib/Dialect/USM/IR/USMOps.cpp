//===- USMOps.cpp - usm dialect operations: verifiers ---------------------===//

#include "sluice/Dialect/USM/IR/USMOps.h"
#include "USMDetail.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace sluice::usm;
namespace ud = sluice::usm::detail;
using ud::formatShape;

#define GET_OP_CLASSES
#include "sluice/Dialect/USM/IR/USMOps.cpp.inc"

/// One `index` operand per dynamic dimension of `type`.
static LogicalResult verifyDynamicSizes(Operation *op, ArrayType type,
                                        ValueRange sizes) {
  int64_t expected = type.getNumDynamicDims();
  if (static_cast<int64_t>(sizes.size()) != expected)
    return op->emitOpError("expects ")
           << expected
           << " size operand(s), one per dynamic dimension of the result, got "
           << sizes.size();
  return success();
}

/// Shapes agree where both are static; ranks agree.
static bool compatibleShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b))
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return false;
  return true;
}

static LogicalResult verifySamePlacement(Operation *op, ArrayType in,
                                         ArrayType out) {
  if (!in.samePlacement(out))
    return op->emitOpError("result placement (")
           << ud::formatQueue(out.getQueue()) << ", "
           << stringifyUSMKind(out.getKind()) << ") differs from the input's ("
           << ud::formatQueue(in.getQueue()) << ", "
           << stringifyUSMKind(in.getKind())
           << "); only usm.to_device changes placement";
  return success();
}

static LogicalResult verifySameElementType(Operation *op, ArrayType in,
                                           ArrayType out) {
  if (in.getElementType() != out.getElementType())
    return op->emitOpError("result element type ")
           << out.getElementType() << " differs from the input's "
           << in.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

LogicalResult EmptyOp::verify() {
  return verifyDynamicSizes(*this, getType(), getSizes());
}

LogicalResult FullOp::verify() {
  Type element = getType().getElementType();
  if (!isCompatibleScalar(getValue().getType(), element))
    return emitOpError("fill value of type ")
           << getValue().getType() << " does not match the element type "
           << element;
  return verifyDynamicSizes(*this, getType(), getSizes());
}

LogicalResult ArangeOp::verify() {
  ArrayType type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be 1-D, got rank ") << type.getRank();
  Type element = type.getElementType();
  if (element.isInteger(1))
    return emitOpError("does not produce i1 (boolean) arrays");
  if (isa<ComplexType>(element))
    return emitOpError("does not produce complex arrays (NumPy's arange is "
                       "real-only)");
  if (!isCompatibleScalar(getStart().getType(), element))
    return emitOpError("start of type ")
           << getStart().getType() << " does not match the element type "
           << element;
  bool dynamic = type.isDynamicDim(0);
  if (dynamic != static_cast<bool>(getSize()))
    return emitOpError(dynamic ? "needs a size operand for its dynamic length"
                               : "takes no size operand: its length is static");
  return success();
}

LogicalResult ConstantOp::verify() {
  ArrayType type = getType();
  auto valueType = dyn_cast<ShapedType>(getValue().getType());
  if (!type.hasStaticShape())
    return emitOpError("result must have a static shape, got ")
           << formatShape(type.getShape());
  if (!valueType || valueType.getShape() != type.getShape() ||
      valueType.getElementType() != type.getElementType())
    return emitOpError("value of type ")
           << getValue().getType()
           << " does not match the array's shape and element type ("
           << formatShape(type.getShape()) << ", " << type.getElementType()
           << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Host boundary and migration
//===----------------------------------------------------------------------===//

static LogicalResult verifyHostData(Operation *op, ShapedType host,
                                    ArrayType array) {
  if (host.getElementType() != array.getElementType())
    return op->emitOpError("host element type ")
           << host.getElementType() << " differs from the array's "
           << array.getElementType();
  if (!compatibleShapes(host.getShape(), array.getShape()))
    return op->emitOpError("host shape ")
           << formatShape(host.getShape()) << " differs from the array's "
           << formatShape(array.getShape());
  return success();
}

LogicalResult FromHostOp::verify() {
  return verifyHostData(*this, cast<ShapedType>(getSource().getType()),
                        getType());
}

LogicalResult ToHostOp::verify() {
  return verifyHostData(*this, cast<ShapedType>(getResult().getType()),
                        getSource().getType());
}

LogicalResult ToDeviceOp::verify() {
  ArrayType in = getSource().getType(), out = getType();
  if (!out.isPlaced())
    return emitOpError("cannot migrate to an unplaced array; name the target "
                       "queue and USM kind");
  if (failed(verifySameElementType(*this, in, out)))
    return failure();
  if (in.getShape() != out.getShape())
    return emitOpError("result shape ")
           << formatShape(out.getShape()) << " differs from the input's "
           << formatShape(in.getShape())
           << "; to_device changes placement only";
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult AstypeOp::verify() {
  ArrayType in = getOperand().getType(), out = getType();
  if (failed(verifySamePlacement(*this, in, out)))
    return failure();
  if (in.getShape() != out.getShape())
    return emitOpError("result shape ")
           << formatShape(out.getShape()) << " differs from the input's "
           << formatShape(in.getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// Shape operations
//===----------------------------------------------------------------------===//

LogicalResult BroadcastToOp::verify() {
  ArrayType in = getInput().getType(), out = getType();
  if (failed(verifySamePlacement(*this, in, out)) ||
      failed(verifySameElementType(*this, in, out)))
    return failure();
  if (out.getRank() < in.getRank())
    return emitOpError("cannot broadcast shape ")
           << formatShape(in.getShape()) << " to the lower-rank shape "
           << formatShape(out.getShape());
  int64_t offset = out.getRank() - in.getRank();
  for (int64_t i = 0; i < in.getRank(); ++i) {
    int64_t din = in.getDimSize(i), dout = out.getDimSize(i + offset);
    if (ShapedType::isDynamic(din) || ShapedType::isDynamic(dout) || din == 1 ||
        din == dout)
      continue;
    return emitOpError("cannot broadcast shape ")
           << formatShape(in.getShape()) << " to "
           << formatShape(out.getShape()) << ": input dimension " << i
           << " has size " << din << " but the target has " << dout;
  }
  return verifyDynamicSizes(*this, out, getSizes());
}

LogicalResult ReshapeOp::verify() {
  ArrayType in = getInput().getType(), out = getType();
  if (failed(verifySamePlacement(*this, in, out)) ||
      failed(verifySameElementType(*this, in, out)))
    return failure();
  if (in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() != out.getNumElements())
    return emitOpError("cannot reshape an array of ")
           << in.getNumElements() << " elements " << formatShape(in.getShape())
           << " into shape " << formatShape(out.getShape()) << " ("
           << out.getNumElements() << " elements)";
  return verifyDynamicSizes(*this, out, getSizes());
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            ValueRange operands,
                                            DictionaryAttr attrs,
                                            OpaqueProperties props, RegionRange,
                                            SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attrs, props);
  auto type = dyn_cast<ArrayType>(operands[0].getType());
  if (!type)
    return emitOptionalError(loc, "'usm.transpose' op input must be an array");
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if (static_cast<int64_t>(perm.size()) != type.getRank())
    return emitOptionalError(loc, "'usm.transpose' op permutation has ",
                             perm.size(), " entries but the array has rank ",
                             type.getRank());
  for (int64_t p : perm)
    if (p < 0)
      return emitOptionalError(loc, "'usm.transpose' op permutation entry ", p,
                               " is negative");
  if (failed(ud::checkAxes(loc, "usm.transpose", type.getRank(), perm,
                           "permutation entry")))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  inferred.push_back(type.withShape(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// Run-time checks
//===----------------------------------------------------------------------===//

LogicalResult AssertOp::verify() {
  StringRef message = getMessage();
  size_t numValues = getValues().size();
  for (size_t i = 0; i < message.size(); ++i) {
    if (message[i] != '{')
      continue;
    if (i + 1 < message.size() && message[i + 1] == '{') {
      ++i;
      continue;
    }
    size_t close = message.find('}', i);
    StringRef inner =
        close == StringRef::npos ? StringRef() : message.slice(i + 1, close);
    unsigned index;
    if (inner.empty() || inner.getAsInteger(10, index))
      return emitOpError("message has a '{' at offset ")
             << i << " that is neither a placeholder {N} nor '{{'";
    if (index >= numValues)
      return emitOpError("message refers to value {")
             << index << "} but the op has " << numValues << " values";
    i = close;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// StoreOp
//===----------------------------------------------------------------------===//

LogicalResult StoreOp::verify() {
  ArrayType value = getValue().getType(), dest = getDest().getType();
  if (value.isPlaced() && dest.isPlaced() &&
      value.getQueue() != dest.getQueue())
    return emitOpError("execution placement can not be unambiguously "
                       "inferred from input arguments: the value is on queue ")
           << ud::formatQueue(value.getQueue()) << " but the destination is on "
           << ud::formatQueue(dest.getQueue())
           << "; migrate the value with usm.to_device";
  if (!compatibleShapes(value.getShape(), dest.getShape()))
    return emitOpError("cannot store an array of shape ")
           << formatShape(value.getShape()) << " into one of shape "
           << formatShape(dest.getShape());
  return success();
}
