//===- FusedLowering.cpp - One linalg.generic per elementwise group -------===//
//
// A fused group whose ops are all elementwise and whose results share one
// shape S lowers to a single linalg.generic over S: every group input is
// read at its broadcast position, the ops' scalar functions run in order in
// the body, and every result is written once. Elementwise functions commute
// with broadcasting, so evaluating intermediates at the points of S gives
// the unfused program's values without materialising them.
//
//===----------------------------------------------------------------------===//

#include "sluice/Conversion/USMToLinalg/USMToLinalg.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace sluice::usm;

namespace {

/// Whether `shape` broadcasts to `target` (NumPy rules, dynamic dimensions
/// assumed equal to what they meet).
bool broadcastsTo(ArrayRef<int64_t> shape, ArrayRef<int64_t> target) {
  if (shape.size() > target.size())
    return false;
  size_t offset = target.size() - shape.size();
  for (auto [i, d] : llvm::enumerate(shape)) {
    int64_t t = target[i + offset];
    if (d != 1 && d != t && !ShapedType::isDynamic(d) &&
        !ShapedType::isDynamic(t))
      return false;
  }
  return true;
}

} // namespace

bool sluice::usm::isElementwiseGroup(FusedOp op) {
  Block &body = op.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getNumOperands() == 0)
    return false;
  auto first = dyn_cast<ArrayType>(yield.getOperand(0).getType());
  if (!first)
    return false;
  for (Value v : yield.getOperands()) {
    auto t = dyn_cast<ArrayType>(v.getType());
    if (!t || t.getShape() != first.getShape())
      return false;
  }
  for (Operation &inner : body.without_terminator()) {
    if (isa<arith::ConstantOp>(inner))
      continue;
    if (!inner.hasTrait<sluice::usm::OpTrait::Elementwise>() ||
        inner.getNumResults() != 1)
      return false;
    auto t = dyn_cast<ArrayType>(inner.getResult(0).getType());
    if (!t || !broadcastsTo(t.getShape(), first.getShape()))
      return false;
  }
  for (Value in : op.getInputs())
    if (auto t = dyn_cast<ArrayType>(in.getType());
        t && !broadcastsTo(t.getShape(), first.getShape()))
      return false;
  return true;
}

namespace {

/// The map from S's iteration space to an operand of `shape`.
AffineMap broadcastMapTo(ArrayRef<int64_t> shape, ArrayRef<int64_t> result,
                         MLIRContext *ctx) {
  unsigned rank = result.size(), offset = rank - shape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, d] : llvm::enumerate(shape)) {
    int64_t r = result[i + offset];
    if (d == 1 && r != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(i + offset, ctx));
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

struct FusedElementwiseLowering : OpConversionPattern<FusedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FusedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementwiseGroup(op))
      return rewriter.notifyMatchFailure(op, "not an elementwise group");
    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    auto resultType = cast<ArrayType>(op.getResult(0).getType());
    ArrayRef<int64_t> shape = resultType.getShape();
    int64_t rank = shape.size();

    // Dynamic sizes of S from an input whose aligned dimension is dynamic.
    SmallVector<Value> dynamicSizes;
    for (int64_t j = 0; j < rank; ++j) {
      if (!ShapedType::isDynamic(shape[j]))
        continue;
      Value size;
      for (auto [orig, conv] : llvm::zip(op.getInputs(), adaptor.getInputs())) {
        auto a = dyn_cast<ArrayType>(orig.getType());
        if (!a)
          continue;
        int64_t i = j - (rank - a.getRank());
        if (i >= 0 && a.isDynamicDim(i)) {
          size = memref::DimOp::create(rewriter, loc, conv, i);
          break;
        }
      }
      if (!size)
        return rewriter.notifyMatchFailure(op, "no input gives a size");
      dynamicSizes.push_back(size);
    }

    SmallVector<Value> outs;
    for (Type t : op.getResultTypes()) {
      auto memref = cast<MemRefType>(getTypeConverter()->convertType(t));
      outs.push_back(memref::AllocOp::create(
          rewriter, loc, memref, dynamicSizes, rewriter.getI64IntegerAttr(64)));
    }
    SmallVector<AffineMap> maps;
    for (Value in : op.getInputs()) {
      if (auto a = dyn_cast<ArrayType>(in.getType()))
        maps.push_back(broadcastMapTo(a.getShape(), shape, ctx));
      else
        maps.push_back(AffineMap::get(rank, 0, {}, ctx));
    }
    for (size_t i = 0; i < outs.size(); ++i)
      maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    LogicalResult status = success();
    linalg::GenericOp::create(
        rewriter, loc, adaptor.getInputs(), outs, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping scalars;
          for (auto [blockArg, scalar] :
               llvm::zip(body.getArguments(),
                         args.take_front(body.getNumArguments())))
            scalars.map(blockArg, scalar);
          for (Operation &inner : body.without_terminator()) {
            if (isa<arith::ConstantOp>(inner)) {
              b.clone(inner, scalars);
              continue;
            }
            SmallVector<Value> operands;
            for (Value v : inner.getOperands())
              operands.push_back(scalars.lookup(v));
            Value v = emitScalarOp(b, inner.getLoc(), &inner, operands);
            if (!v) {
              status = failure();
              v = operands.front();
            }
            scalars.map(inner.getResult(0), v);
          }
          SmallVector<Value> results;
          for (Value v : yield.getOperands())
            results.push_back(scalars.lookup(v));
          linalg::YieldOp::create(b, l, results);
        });
    if (failed(status))
      return rewriter.notifyMatchFailure(op, "an op has no scalar form");
    rewriter.replaceOp(op, outs);
    return success();
  }
};

} // namespace

void sluice::usm::populateFusedGroupLoweringPatterns(
    USMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<FusedElementwiseLowering>(converter, patterns.getContext());
}
