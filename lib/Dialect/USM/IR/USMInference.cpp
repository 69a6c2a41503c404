//===- USMInference.cpp - result types of elementwise ops and reductions --===//
//
// The placement rule of compute-follows-data lives here: array operands of
// one op share a queue; the result is on that queue with the coerced USM
// kind. Shapes follow NumPy broadcasting.
//
//===----------------------------------------------------------------------===//

#include "USMDetail.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace sluice::usm;

std::string sluice::usm::formatShape(ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      s += ",";
    s += ShapedType::isDynamic(d) ? "?" : std::to_string(d);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

std::string sluice::usm::formatQueue(QueueAttr queue) {
  if (queue.isUnplaced())
    return "unplaced";
  std::string s = "\"" + queue.getDevice().str() + "\"";
  if (!queue.isCanonical())
    s += " (queue \"" + queue.getName().str() + "\")";
  return s;
}

bool sluice::usm::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                                  SmallVectorImpl<int64_t> &result) {
  size_t rank = std::max(a.size(), b.size());
  result.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    int64_t &out = result[rank - 1 - i];
    bool dynA = ShapedType::isDynamic(da), dynB = ShapedType::isDynamic(db);
    if (dynA && dynB)
      out = ShapedType::kDynamic;
    else if (dynA)
      out = db == 1 ? ShapedType::kDynamic : db;
    else if (dynB)
      out = da == 1 ? ShapedType::kDynamic : da;
    else if (da == db || db == 1)
      out = da;
    else if (da == 1)
      out = db;
    else
      return false;
  }
  return true;
}

LogicalResult sluice::usm::detail::checkSamePlacementQueue(
    std::optional<Location> loc, StringRef opName, ValueRange operands,
    QueueAttr &queue, USMKind &kind) {
  // Unplaced operands follow the placed ones: they take no part in the queue
  // check, and their stand-in kind (host) is the identity of coercion.
  std::optional<unsigned> first;
  bool anyArray = false;
  kind = USMKind::host;
  for (auto [i, v] : llvm::enumerate(operands)) {
    auto t = dyn_cast<ArrayType>(v.getType());
    if (!t)
      continue;
    anyArray = true;
    if (!t.isPlaced())
      continue;
    if (!first) {
      first = i;
      queue = t.getQueue();
      kind = t.getKind();
      continue;
    }
    if (t.getQueue() != queue)
      return emitOptionalError(
          loc, "'", opName,
          "' op execution placement can not be unambiguously inferred from "
          "input arguments: operand #",
          *first, " is on queue ", formatQueue(queue), " but operand #", i,
          " is on queue ", formatQueue(t.getQueue()),
          "; migrate one of them with usm.to_device");
    kind = coerceKinds(kind, t.getKind());
  }
  if (!anyArray)
    return emitOptionalError(loc, "'", opName,
                             "' op needs at least one array operand");
  if (!first)
    queue = QueueAttr::getUnplaced(operands.front().getContext());
  return success();
}

LogicalResult
sluice::usm::inferElementwiseType(std::optional<Location> loc, StringRef opName,
                                  ValueRange operands, ElementRule rule,
                                  SmallVectorImpl<Type> &inferred) {
  QueueAttr queue;
  USMKind kind;
  if (failed(
          detail::checkSamePlacementQueue(loc, opName, operands, queue, kind)))
    return failure();

  // Broadcast shapes; scalars are rank 0.
  SmallVector<int64_t> shape;
  std::string shapes;
  bool ok = true;
  for (Value v : operands) {
    auto t = dyn_cast<ArrayType>(v.getType());
    ArrayRef<int64_t> s = t ? t.getShape() : ArrayRef<int64_t>();
    shapes += " " + detail::formatShape(s);
    SmallVector<int64_t> next;
    if (ok && !broadcastShapes(shape, s, next))
      ok = false;
    else
      shape = next;
  }
  if (!ok)
    return emitOptionalError(loc, "'", opName,
                             "' op operands could not be broadcast together "
                             "with shapes",
                             shapes);

  auto elementOf = [](Value v) {
    Type t = v.getType();
    if (auto a = dyn_cast<ArrayType>(t))
      return a.getElementType();
    return t;
  };
  // The data operands: all but where's condition.
  ValueRange data = operands;
  if (rule == ElementRule::Select) {
    Type c = elementOf(operands[0]);
    if (!c.isInteger(1))
      return emitOptionalError(loc, "'", opName,
                               "' op condition must have element type i1, "
                               "got ",
                               c);
    data = operands.drop_front();
  }
  // The element type comes from the first array among the data operands,
  // else from the first scalar.
  Type element;
  for (Value v : data)
    if (auto a = dyn_cast<ArrayType>(v.getType())) {
      element = a.getElementType();
      break;
    }
  if (!element)
    element = data.front().getType();
  // Logical ops take each operand's truth value: element types may differ.
  for (auto [i, v] : llvm::enumerate(data)) {
    if (rule == ElementRule::Logical)
      break;
    unsigned index = i + (operands.size() - data.size());
    if (auto a = dyn_cast<ArrayType>(v.getType())) {
      if (a.getElementType() != element)
        return emitOptionalError(loc, "'", opName,
                                 "' op operand element types differ (", element,
                                 " and ", a.getElementType(), " at operand #",
                                 index, "); convert one with usm.astype");
    } else if (!isCompatibleScalar(v.getType(), element) &&
               !isCompatibleScalar(element, v.getType())) {
      return emitOptionalError(loc, "'", opName, "' op scalar operand #", index,
                               " of type ", v.getType(),
                               " does not match the element type ", element);
    }
  }
  if (!isValidElementType(element))
    return emitOptionalError(loc, "'", opName, "' op unsupported element type ",
                             element);

  Type resultElement = element;
  if (isa<ComplexType>(element) || rule == ElementRule::ComplexPart ||
      rule == ElementRule::MakeComplex) {
    FailureOr<Type> r = detail::inferComplexElement(loc, opName, rule, element);
    if (failed(r))
      return failure();
    inferred.push_back(
        ArrayType::get(element.getContext(), shape, *r, queue, kind));
    return success();
  }
  switch (rule) {
  case ElementRule::Arith:
    if (element.isInteger(1))
      return emitOptionalError(loc, "'", opName,
                               "' op does not accept i1 (boolean) elements; "
                               "use a logical op or usm.astype");
    break;
  case ElementRule::Float:
    if (!isa<FloatType>(element))
      return emitOptionalError(loc, "'", opName,
                               "' op requires floating-point elements, got ",
                               element, "; convert with usm.astype");
    break;
  case ElementRule::Integer:
    if (!isa<IntegerType>(element))
      return emitOptionalError(loc, "'", opName,
                               "' op requires integer or i1 elements, got ",
                               element, "; convert with usm.astype");
    break;
  case ElementRule::Compare:
  case ElementRule::Logical:
    resultElement = IntegerType::get(element.getContext(), 1);
    break;
  case ElementRule::ArithOrBool:
  case ElementRule::Select:
  case ElementRule::ComplexPart:
  case ElementRule::MakeComplex:
    break;
  }
  inferred.push_back(
      ArrayType::get(element.getContext(), shape, resultElement, queue, kind));
  return success();
}

LogicalResult sluice::usm::detail::checkAxes(std::optional<Location> loc,
                                             StringRef opName, int64_t rank,
                                             ArrayRef<int64_t> axes,
                                             StringRef what) {
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t a : axes) {
    if (a < -rank || a >= rank)
      return emitOptionalError(loc, "'", opName, "' op ", what, " ", a,
                               " is out of bounds for an array of rank ", rank);
    if (!seen.insert(a < 0 ? a + rank : a).second)
      return emitOptionalError(loc, "'", opName, "' op repeated ", what, " ",
                               a);
  }
  return success();
}

SmallVector<int64_t> sluice::usm::normalizeAxes(int64_t rank,
                                                DenseI64ArrayAttr axes) {
  SmallVector<int64_t> result;
  if (!axes) {
    for (int64_t i = 0; i < rank; ++i)
      result.push_back(i);
    return result;
  }
  for (int64_t a : axes.asArrayRef())
    result.push_back(a < 0 ? a + rank : a);
  llvm::sort(result);
  return result;
}

LogicalResult sluice::usm::inferReductionType(std::optional<Location> loc,
                                              StringRef opName, Value input,
                                              DenseI64ArrayAttr axes,
                                              bool keepdims, bool widenIntegers,
                                              SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<ArrayType>(input.getType());
  if (!type)
    return emitOptionalError(loc, "'", opName, "' op input must be an array");
  int64_t rank = type.getRank();
  if (axes &&
      failed(detail::checkAxes(loc, opName, rank, axes.asArrayRef(), "axis")))
    return failure();
  SmallVector<int64_t> reduced = normalizeAxes(rank, axes);
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (!llvm::is_contained(reduced, i))
      shape.push_back(type.getDimSize(i));
    else if (keepdims)
      shape.push_back(1);
  }
  Type element = type.getElementType();
  if (failed(detail::checkComplexReduction(loc, opName, element)))
    return failure();
  if (widenIntegers)
    if (auto i = dyn_cast<IntegerType>(element); i && i.getWidth() < 64)
      element = IntegerType::get(i.getContext(), 64,
                                 i.isUnsigned() ? IntegerType::Unsigned
                                                : IntegerType::Signless);
  inferred.push_back(type.cloneWith(shape, element));
  return success();
}
