//===- USMIndexingOps.cpp - usm dialect indexing ops: verifiers -----------===//

#include "USMDetail.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace sluice::usm;
namespace ud = sluice::usm::detail;

LogicalResult GatherOp::verify() {
  ArrayType source = getSource().getType();
  ArrayType indices = getIndices().getType();
  ArrayType result = getType();
  auto indexType = dyn_cast<IntegerType>(indices.getElementType());
  if (!indexType || indexType.getWidth() == 1)
    return emitOpError("indices must be an array of integers, not of ")
           << indices.getElementType();
  if (result.getElementType() != source.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " differs from the source's "
           << source.getElementType();
  if (result.getShape() != indices.getShape())
    return emitOpError("result shape ")
           << ud::formatShape(result.getShape())
           << " differs from the shape of the indices "
           << ud::formatShape(indices.getShape());
  if (!source.samePlacement(result))
    return emitOpError("result placement (")
           << ud::formatQueue(result.getQueue()) << ", "
           << stringifyUSMKind(result.getKind())
           << ") differs from the source's ("
           << ud::formatQueue(source.getQueue()) << ", "
           << stringifyUSMKind(source.getKind()) << ")";
  if (indices.getQueue() != source.getQueue())
    return emitOpError("indices are on ")
           << ud::formatQueue(indices.getQueue()) << " and the source on "
           << ud::formatQueue(source.getQueue())
           << "; a gather runs on one queue";
  return success();
}

LogicalResult StridedViewOp::verify() {
  ArrayType base = getBase().getType();
  ArrayType result = getType();
  if (base.getRank() != 1)
    return emitOpError("base must be a 1-D array, not of shape ")
           << ud::formatShape(base.getShape());
  if (result.getElementType() != base.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " differs from the base's "
           << base.getElementType();
  if (!base.samePlacement(result))
    return emitOpError("result placement (")
           << ud::formatQueue(result.getQueue()) << ", "
           << stringifyUSMKind(result.getKind())
           << ") differs from the base's (" << ud::formatQueue(base.getQueue())
           << ", " << stringifyUSMKind(base.getKind()) << ")";
  int64_t rank = result.getRank();
  if (static_cast<int64_t>(getSizes().size()) != rank ||
      static_cast<int64_t>(getStrides().size()) != rank)
    return emitOpError("needs one size and one stride per result dimension (")
           << rank << "), got " << getSizes().size() << " sizes and "
           << getStrides().size() << " strides";
  return success();
}

LogicalResult StridedInsertOp::verify() {
  ArrayType value = getValue().getType();
  ArrayType dest = getDest().getType();
  if (value.getElementType() != dest.getElementType())
    return emitOpError("value element type ")
           << value.getElementType() << " differs from the destination's "
           << dest.getElementType();
  if (!value.samePlacement(dest))
    return emitOpError("value placement (")
           << ud::formatQueue(value.getQueue()) << ", "
           << stringifyUSMKind(value.getKind())
           << ") differs from the destination's ("
           << ud::formatQueue(dest.getQueue()) << ", "
           << stringifyUSMKind(dest.getKind()) << ")";
  int64_t rank = value.getRank();
  if (static_cast<int64_t>(getSizes().size()) != rank ||
      static_cast<int64_t>(getStrides().size()) != rank)
    return emitOpError("needs one size and one stride per value dimension (")
           << rank << "), got " << getSizes().size() << " sizes and "
           << getStrides().size() << " strides";
  // Constant operands: the value's static sizes and the window's bounds.
  bool allConstant = true;
  std::optional<int64_t> offset = getConstantIntValue(getOffset());
  allConstant &= offset.has_value();
  int64_t lo = offset.value_or(0), hi = lo, count = 1;
  for (int64_t i = 0; i < rank; ++i) {
    std::optional<int64_t> size = getConstantIntValue(getSizes()[i]);
    std::optional<int64_t> stride = getConstantIntValue(getStrides()[i]);
    int64_t d = value.getDimSize(i);
    if (size && *size < 0)
      return emitOpError("size ") << i << " is negative (" << *size << ")";
    if (size && !ShapedType::isDynamic(d) && d != *size)
      return emitOpError("value dimension ")
             << i << " has size " << d << " but the window's is " << *size;
    allConstant &= size.has_value() && stride.has_value();
    if (!size || !stride)
      continue;
    count *= *size;
    if (*size > 1) {
      int64_t reach = (*size - 1) * *stride;
      (reach < 0 ? lo : hi) += reach;
    }
  }
  if (!allConstant || count == 0 || !dest.hasStaticShape())
    return success();
  int64_t elements = dest.getNumElements();
  if (lo < 0 || hi >= elements)
    return emitOpError("window reaches positions ")
           << lo << " to " << hi << ", outside the destination's " << elements
           << " elements";
  return success();
}

LogicalResult ScatterOp::verify() {
  ArrayType value = getValue().getType();
  ArrayType dest = getDest().getType();
  ArrayType positions = getPositions().getType();
  auto indexType = dyn_cast<IntegerType>(positions.getElementType());
  if (!indexType || indexType.getWidth() == 1)
    return emitOpError("positions must be an array of integers, not of ")
           << positions.getElementType();
  if (value.getElementType() != dest.getElementType())
    return emitOpError("value element type ")
           << value.getElementType() << " differs from the destination's "
           << dest.getElementType();
  if (value.getShape() != positions.getShape())
    return emitOpError("value shape ")
           << ud::formatShape(value.getShape())
           << " differs from the shape of the positions "
           << ud::formatShape(positions.getShape());
  if (!value.samePlacement(dest))
    return emitOpError("value placement (")
           << ud::formatQueue(value.getQueue()) << ", "
           << stringifyUSMKind(value.getKind())
           << ") differs from the destination's ("
           << ud::formatQueue(dest.getQueue()) << ", "
           << stringifyUSMKind(dest.getKind()) << ")";
  if (positions.getQueue() != dest.getQueue())
    return emitOpError("positions are on ")
           << ud::formatQueue(positions.getQueue())
           << " and the destination on " << ud::formatQueue(dest.getQueue())
           << "; a scatter runs on one queue";
  if (dest.hasStaticShape() && dest.getNumElements() == 0 &&
      positions.hasStaticShape() && positions.getNumElements() > 0)
    return emitOpError("scatters ")
           << positions.getNumElements() << " values into an empty destination";
  return success();
}
