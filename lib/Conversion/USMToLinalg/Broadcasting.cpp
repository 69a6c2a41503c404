//===- Broadcasting.cpp - Elementwise generics with NumPy broadcasting ----===//

#include "Broadcasting.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace sluice::usm;

namespace {

bool isStaticOne(OpFoldResult v) {
  std::optional<int64_t> c = getConstantIntValue(v);
  return c && *c == 1;
}

/// Calls `fn(operand index, operand dim, result dim)` for every dynamic
/// dimension of an array operand that may be broadcast at run time.
template <typename Fn>
void forEachRunTimeBroadcast(ArrayRef<BroadcastOperand> operands,
                             ArrayRef<OpFoldResult> result, Fn fn) {
  int64_t rank = result.size();
  for (auto [k, operand] : llvm::enumerate(operands)) {
    if (!isa<MemRefType>(operand.value.getType()))
      continue;
    int64_t offset = rank - static_cast<int64_t>(operand.shape.size());
    for (auto [i, d] : llvm::enumerate(operand.shape)) {
      OpFoldResult r = result[i + offset];
      // Static sizes broadcast through the maps; a size that is the
      // result's own value, or meets a static 1, is never broadcast.
      if (getConstantIntValue(d) || d == r || isStaticOne(r))
        continue;
      fn(k, static_cast<int64_t>(i), i + offset);
    }
  }
}

/// The map from the result's iteration space to an operand of static shape
/// `shape`: trailing dimensions align, a static 1 that meets a result
/// dimension other than a static 1 is read at index 0.
AffineMap staticBroadcastMap(ArrayRef<int64_t> shape, ArrayRef<int64_t> result,
                             MLIRContext *ctx) {
  unsigned rank = result.size(), offset = rank - shape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d == 1 && result[i + offset] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(i + offset, ctx));
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

} // namespace

/// A view of `operand` with the sizes of the result dimensions it aligns
/// with, and stride 0 along its dimensions of size 1 (read at index 0).
Value sluice::usm::broadcastView(OpBuilder &b, Location loc,
                                 const BroadcastOperand &operand,
                                 ArrayRef<OpFoldResult> result) {
  ShapeMath m{b, loc};
  auto type = cast<MemRefType>(operand.value.getType());
  int64_t rank = type.getRank();
  int64_t offset = static_cast<int64_t>(result.size()) - rank;
  SmallVector<OpFoldResult> sizes, strides(rank);
  SmallVector<int64_t> staticSizes, staticStrides(rank);
  // A strided operand (a view read in place) keeps its own strides and
  // offset; a contiguous one has row-major strides.
  Value source = operand.value;
  OpFoldResult viewOffset = b.getIndexAttr(0);
  SmallVector<OpFoldResult> ownStrides;
  if (!type.getLayout().isIdentity()) {
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, source);
    source = meta.getBaseBuffer();
    viewOffset = meta.getOffset();
    for (Value s : meta.getStrides())
      ownStrides.push_back(s);
  }
  OpFoldResult rowMajor = b.getIndexAttr(1);
  for (int64_t i = rank - 1; i >= 0; --i) {
    OpFoldResult d = operand.shape[i];
    OpFoldResult own = ownStrides.empty() ? rowMajor : ownStrides[i];
    std::optional<int64_t> c = getConstantIntValue(d);
    if (c && *c == 1)
      strides[i] = b.getIndexAttr(0);
    else if (c)
      strides[i] = own;
    else
      strides[i] =
          m.select(m.isEqual(d, 1), OpFoldResult(b.getIndexAttr(0)), own);
    rowMajor = m.mul(rowMajor, d);
  }
  for (int64_t i = 0; i < rank; ++i) {
    sizes.push_back(result[i + offset]);
    std::optional<int64_t> size = getConstantIntValue(sizes.back());
    staticSizes.push_back(size ? *size : ShapedType::kDynamic);
    std::optional<int64_t> stride = getConstantIntValue(strides[i]);
    staticStrides[i] = stride ? *stride : ShapedType::kDynamic;
  }
  // Constants as attributes, so that the op matches its type.
  auto fold = [](OpFoldResult &v) {
    if (auto value = dyn_cast<Value>(v))
      v = getAsOpFoldResult(value);
  };
  llvm::for_each(sizes, fold);
  llvm::for_each(strides, fold);
  fold(viewOffset);
  std::optional<int64_t> staticOffset = getConstantIntValue(viewOffset);
  auto viewType = MemRefType::get(
      staticSizes, type.getElementType(),
      StridedLayoutAttr::get(
          b.getContext(), staticOffset ? *staticOffset : ShapedType::kDynamic,
          staticStrides),
      type.getMemorySpace());
  return memref::ReinterpretCastOp::create(b, loc, viewType, source, viewOffset,
                                           sizes, strides);
}

bool sluice::usm::needsRunTimeBroadcast(ArrayRef<BroadcastOperand> operands,
                                        ArrayRef<OpFoldResult> result) {
  bool any = false;
  forEachRunTimeBroadcast(operands, result,
                          [&](size_t, int64_t, int64_t) { any = true; });
  return any;
}

Value sluice::usm::noRunTimeBroadcast(OpBuilder &b, Location loc,
                                      ArrayRef<BroadcastOperand> operands,
                                      ArrayRef<OpFoldResult> result) {
  ShapeMath m{b, loc};
  Value same;
  forEachRunTimeBroadcast(
      operands, result, [&](size_t k, int64_t i, int64_t j) {
        same = m.both(same, m.isEqual(operands[k].shape[i], result[j]));
      });
  return same;
}

namespace {

/// One generic over the result; operands marked in `viewed` are read
/// through broadcast views, the others through their static maps.
/// Reductions pass `outMap` (the outputs' map from the loops) and their
/// `iterators`, and their body gets the outputs' scalars too.
void buildGeneric(OpBuilder &b, Location loc,
                  ArrayRef<BroadcastOperand> operands,
                  ArrayRef<int64_t> staticResult, ArrayRef<OpFoldResult> result,
                  ValueRange outs, ElementwiseBody body, ArrayRef<bool> viewed,
                  AffineMap outMap = AffineMap(),
                  ArrayRef<utils::IteratorType> reductionIterators = {}) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = staticResult.size();
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  for (auto [k, operand] : llvm::enumerate(operands)) {
    auto type = dyn_cast<MemRefType>(operand.value.getType());
    if (!type) {
      ins.push_back(operand.value);
      maps.push_back(AffineMap::get(rank, 0, {}, ctx));
    } else if (!viewed.empty() && viewed[k]) {
      ins.push_back(broadcastView(b, loc, operand, result));
      maps.push_back(AffineMap::getMinorIdentityMap(rank, type.getRank(), ctx));
    } else {
      ins.push_back(operand.value);
      maps.push_back(staticBroadcastMap(type.getShape(), staticResult, ctx));
    }
  }
  bool reduction = !reductionIterators.empty();
  for (size_t i = 0; i < outs.size(); ++i)
    maps.push_back(outMap ? outMap
                          : AffineMap::getMultiDimIdentityMap(rank, ctx));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  if (reduction)
    iterators.assign(reductionIterators.begin(), reductionIterators.end());
  linalg::GenericOp::create(
      b, loc, ins, outs, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        SmallVector<Value> values =
            body(nb, l, reduction ? args : args.take_front(operands.size()));
        linalg::YieldOp::create(nb, l, values);
      });
}

} // namespace

void sluice::usm::buildStaticBroadcastGeneric(
    OpBuilder &b, Location loc, ArrayRef<BroadcastOperand> operands,
    ArrayRef<int64_t> staticResult, ValueRange outs, ElementwiseBody body) {
  buildGeneric(b, loc, operands, staticResult, {}, outs, body, {});
}

void sluice::usm::buildBroadcastingGeneric(OpBuilder &b, Location loc,
                                           ArrayRef<BroadcastOperand> operands,
                                           ArrayRef<int64_t> staticResult,
                                           ArrayRef<OpFoldResult> result,
                                           ValueRange outs,
                                           ElementwiseBody body) {
  SmallVector<bool> viewed(operands.size(), false);
  forEachRunTimeBroadcast(
      operands, result, [&](size_t k, int64_t, int64_t) { viewed[k] = true; });
  Value same = noRunTimeBroadcast(b, loc, operands, result);
  if (!same) {
    buildGeneric(b, loc, operands, staticResult, result, outs, body, {});
    return;
  }
  scf::IfOp::create(
      b, loc, same,
      [&](OpBuilder &nb, Location l) {
        buildGeneric(nb, l, operands, staticResult, result, outs, body, {});
        scf::YieldOp::create(nb, l);
      },
      [&](OpBuilder &nb, Location l) {
        buildGeneric(nb, l, operands, staticResult, result, outs, body, viewed);
        scf::YieldOp::create(nb, l);
      });
}

void sluice::usm::buildViewedBroadcastGeneric(
    OpBuilder &b, Location loc, ArrayRef<BroadcastOperand> operands,
    ArrayRef<int64_t> staticResult, ArrayRef<OpFoldResult> result,
    ValueRange outs, ElementwiseBody body) {
  SmallVector<bool> viewed(operands.size(), false);
  forEachRunTimeBroadcast(
      operands, result, [&](size_t k, int64_t, int64_t) { viewed[k] = true; });
  buildGeneric(b, loc, operands, staticResult, result, outs, body, viewed);
}

void sluice::usm::buildBroadcastingReduction(
    OpBuilder &b, Location loc, ArrayRef<BroadcastOperand> operands,
    ArrayRef<int64_t> staticSpace, ArrayRef<OpFoldResult> space, Value out,
    AffineMap outMap, ArrayRef<utils::IteratorType> iterators,
    ElementwiseBody body) {
  SmallVector<bool> viewed(operands.size(), false);
  forEachRunTimeBroadcast(
      operands, space, [&](size_t k, int64_t, int64_t) { viewed[k] = true; });
  Value same = noRunTimeBroadcast(b, loc, operands, space);
  auto build = [&](OpBuilder &nb, Location l, ArrayRef<bool> views) {
    buildGeneric(nb, l, operands, staticSpace, space, out, body, views, outMap,
                 iterators);
  };
  if (!same) {
    build(b, loc, {});
    return;
  }
  scf::IfOp::create(
      b, loc, same,
      [&](OpBuilder &nb, Location l) {
        build(nb, l, {});
        scf::YieldOp::create(nb, l);
      },
      [&](OpBuilder &nb, Location l) {
        build(nb, l, viewed);
        scf::YieldOp::create(nb, l);
      });
}
