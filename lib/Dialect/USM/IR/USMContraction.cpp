//===- USMContraction.cpp - result type of usm.matmul ---------------------===//
//
// The batched matrix product: (..., M, K) x (..., K, N) -> (..., M, N) with
// NumPy broadcasting of the batch axes, on the operands' common queue.
//
//===----------------------------------------------------------------------===//

#include "USMDetail.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace sluice::usm;

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         ValueRange operands, DictionaryAttr,
                                         OpaqueProperties, RegionRange,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  QueueAttr queue;
  USMKind kind;
  if (failed(detail::checkSamePlacementQueue(loc, name, operands, queue, kind)))
    return failure();
  auto lhs = cast<ArrayType>(operands[0].getType());
  auto rhs = cast<ArrayType>(operands[1].getType());
  if (lhs.getRank() < 2 || rhs.getRank() < 2)
    return emitOptionalError(loc, "'", name,
                             "' op needs operands of rank 2 or more, got "
                             "shapes ",
                             detail::formatShape(lhs.getShape()), " and ",
                             detail::formatShape(rhs.getShape()),
                             "; reshape a vector to a matrix first");
  Type element = lhs.getElementType();
  if (rhs.getElementType() != element)
    return emitOptionalError(
        loc, "'", name, "' op operand element types differ (", element, " and ",
        rhs.getElementType(), "); convert one with usm.astype");
  if (element.isInteger(1))
    return emitOptionalError(loc, "'", name,
                             "' op does not accept i1 (boolean) elements; "
                             "use usm.astype");
  ArrayRef<int64_t> a = lhs.getShape(), b = rhs.getShape();
  int64_t k1 = a[a.size() - 1], k2 = b[b.size() - 2];
  if (!ShapedType::isDynamic(k1) && !ShapedType::isDynamic(k2) && k1 != k2)
    return emitOptionalError(
        loc, "'", name, "' op contracted sizes differ: shapes ",
        detail::formatShape(a), " and ", detail::formatShape(b),
        " (the last axis of the first operand must match the second-to-last "
        "of the second)");
  SmallVector<int64_t> shape;
  if (!broadcastShapes(a.drop_back(2), b.drop_back(2), shape))
    return emitOptionalError(loc, "'", name,
                             "' op batch axes could not be broadcast together "
                             "with shapes ",
                             detail::formatShape(a.drop_back(2)), " and ",
                             detail::formatShape(b.drop_back(2)));
  shape.push_back(a[a.size() - 2]);
  shape.push_back(b[b.size() - 1]);
  inferred.push_back(
      ArrayType::get(element.getContext(), shape, element, queue, kind));
  return success();
}

LogicalResult LibraryMatmulOp::verify() {
  auto lhs = cast<MemRefType>(getLhs().getType());
  auto rhs = cast<MemRefType>(getRhs().getType());
  auto out = cast<MemRefType>(getOut().getType());
  if (!lhs.hasStaticShape() || !rhs.hasStaticShape() || !out.hasStaticShape())
    return emitOpError("needs static shapes");
  if (lhs.getRank() < 2 || rhs.getRank() < 2 || out.getRank() < 2)
    return emitOpError("needs operands of rank 2 or more");
  Type element = out.getElementType();
  if (lhs.getElementType() != element || rhs.getElementType() != element)
    return emitOpError("operand element types differ");
  ArrayRef<int64_t> a = lhs.getShape(), b = rhs.getShape(), c = out.getShape();
  int64_t r = c.size();
  if (a[a.size() - 1] != b[b.size() - 2] || a[a.size() - 2] != c[r - 2] ||
      b[b.size() - 1] != c[r - 1])
    return emitOpError("shapes ")
           << detail::formatShape(a) << " x " << detail::formatShape(b)
           << " do not give " << detail::formatShape(c);
  auto batchOk = [&](ArrayRef<int64_t> s) {
    ArrayRef<int64_t> batch = s.drop_back(2), outBatch = c.drop_back(2);
    return batch == outBatch ||
           llvm::all_of(batch, [](int64_t d) { return d == 1; });
  };
  if (!batchOk(a) || !batchOk(b))
    return emitOpError("each operand's batch axes must be the result's or "
                       "all of size 1");
  if (!isa_and_nonnull<PlacementAttr>(out.getMemorySpace()))
    return emitOpError("result buffer has no placement (memory space)");
  return success();
}
