//===- USMFolds.cpp - usm dialect folds and canonicalisations -------------===//
//
// Cheap folds only: migrations to the same placement vanish, chains of
// migrations collapse, shape ops that change nothing disappear, and
// arithmetic on constants is computed at compile time.
//
//===----------------------------------------------------------------------===//

#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace sluice::usm;

/// The tensor type of an array's constant value.
static RankedTensorType valueTensorType(ArrayType type) {
  return RankedTensorType::get(type.getShape(), type.getElementType());
}

/// Brings a constant operand into a form the common folders accept for a
/// result of type `resultType`: a scalar becomes a splat, a splat takes the
/// result shape; a dense value must already have it (no broadcasting here).
static Attribute asResultElements(Attribute attr, ArrayType resultType) {
  if (!attr || !resultType.hasStaticShape())
    return {};
  RankedTensorType tensorType = valueTensorType(resultType);
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return DenseElementsAttr::get(
        tensorType, ArrayRef<Attribute>(IntegerAttr::get(
                        resultType.getElementType(), i.getValue())));
  if (auto f = dyn_cast<FloatAttr>(attr))
    return DenseElementsAttr::get(tensorType, ArrayRef<Attribute>(f));
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return {};
  if (dense.isSplat())
    return DenseElementsAttr::get(tensorType, dense.getSplatValue<Attribute>());
  return dense.getType() == tensorType ? dense : Attribute();
}

template <typename FloatFn, typename IntFn>
static OpFoldResult foldBinary(ArrayType resultType, Attribute lhs,
                               Attribute rhs, FloatFn floatFn, IntFn intFn) {
  Attribute l = asResultElements(lhs, resultType);
  Attribute r = asResultElements(rhs, resultType);
  if (!l || !r)
    return {};
  Type element = resultType.getElementType();
  RankedTensorType tensorType = valueTensorType(resultType);
  if (isa<FloatType>(element))
    return constFoldBinaryOp<FloatAttr, APFloat, void>(
        {l, r}, tensorType,
        [&](const APFloat &a, const APFloat &b) { return floatFn(a, b); });
  bool isUnsigned = element.isUnsignedInteger();
  return constFoldBinaryOp<IntegerAttr, APInt, void>(
      {l, r}, tensorType,
      [&](const APInt &a, const APInt &b) { return intFn(a, b, isUnsigned); });
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getType(), adaptor.getLhs(), adaptor.getRhs(),
      [](const APFloat &a, const APFloat &b) { return a + b; },
      [](const APInt &a, const APInt &b, bool) { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getType(), adaptor.getLhs(), adaptor.getRhs(),
      [](const APFloat &a, const APFloat &b) { return a - b; },
      [](const APInt &a, const APInt &b, bool) { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getType(), adaptor.getLhs(), adaptor.getRhs(),
      [](const APFloat &a, const APFloat &b) { return a * b; },
      [](const APInt &a, const APInt &b, bool) { return a * b; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  // Floating point only (the verifier guarantees it).
  return foldBinary(
      getType(), adaptor.getLhs(), adaptor.getRhs(),
      [](const APFloat &a, const APFloat &b) { return a / b; },
      [](const APInt &a, const APInt &, bool) { return a; });
}

OpFoldResult MaximumOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getType(), adaptor.getLhs(), adaptor.getRhs(),
      [](const APFloat &a, const APFloat &b) { return llvm::maximum(a, b); },
      [](const APInt &a, const APInt &b, bool u) {
        return u ? llvm::APIntOps::umax(a, b) : llvm::APIntOps::smax(a, b);
      });
}

OpFoldResult MinimumOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getType(), adaptor.getLhs(), adaptor.getRhs(),
      [](const APFloat &a, const APFloat &b) { return llvm::minimum(a, b); },
      [](const APInt &a, const APInt &b, bool u) {
        return u ? llvm::APIntOps::umin(a, b) : llvm::APIntOps::smin(a, b);
      });
}

OpFoldResult NegativeOp::fold(FoldAdaptor adaptor) {
  Attribute value = asResultElements(adaptor.getOperand(), getType());
  if (!value)
    return {};
  RankedTensorType tensorType = valueTensorType(getType());
  if (isa<FloatType>(getType().getElementType()))
    return constFoldUnaryOp<FloatAttr, APFloat, void>(
        {value}, tensorType, [](const APFloat &a) { return -a; });
  return constFoldUnaryOp<IntegerAttr, APInt, void>(
      {value}, tensorType, [](const APInt &a) { return -a; });
}

OpFoldResult AstypeOp::fold(FoldAdaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  return {};
}

OpFoldResult ToDeviceOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType())
    return getSource();
  // A chain of migrations is one migration from the first placement.
  if (auto inner = getSource().getDefiningOp<ToDeviceOp>()) {
    if (inner.getSource().getType() == getType())
      return inner.getSource();
    getSourceMutable().assign(inner.getSource());
    return getResult();
  }
  return {};
}

/// Shape ops between identical static types change nothing.
static bool isStaticNoOp(ArrayType in, ArrayType out) {
  return in == out && in.hasStaticShape();
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor) {
  if (isStaticNoOp(getInput().getType(), getType()))
    return getInput();
  return {};
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (isStaticNoOp(getInput().getType(), getType()))
    return getInput();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    if (getType().hasStaticShape())
      return dense.reshape(valueTensorType(getType()));
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  for (auto [i, p] : llvm::enumerate(perm))
    if (static_cast<int64_t>(i) != p)
      return {};
  return getInput();
}

namespace {
/// full(constant) with a static shape -> a splat constant.
struct FullOfConstant : OpRewritePattern<FullOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FullOp op,
                                PatternRewriter &rewriter) const override {
    ArrayType type = op.getType();
    Attribute value;
    if (!type.hasStaticShape() ||
        !matchPattern(op.getValue(), m_Constant(&value)))
      return failure();
    Attribute elements = asResultElements(value, type);
    if (!elements)
      return failure();
    rewriter.replaceOpWithNewOp<ConstantOp>(op, type,
                                            cast<ElementsAttr>(elements));
    return success();
  }
};

/// reshape(reshape(x)) -> reshape(x), when the inner reshape cannot fail
/// (static shapes, checked by the verifier): the run-time check of a
/// dynamic one must stay.
struct ReshapeOfReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<ReshapeOp>();
    if (!inner || !inner.getInput().getType().hasStaticShape() ||
        !inner.getType().hasStaticShape())
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getInputMutable().assign(inner.getInput()); });
    return success();
  }
};

/// transpose(transpose(x, p), q) -> transpose(x, p o q).
struct TransposeOfTranspose : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    ArrayRef<int64_t> p = inner.getPermutation(), q = op.getPermutation();
    SmallVector<int64_t> composed;
    for (int64_t qi : q)
      composed.push_back(p[qi]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(), inner.getInput(),
                                             composed);
    return success();
  }
};
} // namespace

void FullOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<FullOfConstant>(context);
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ReshapeOfReshape>(context);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<TransposeOfTranspose>(context);
}

namespace {
/// An assertion of a constant true condition checks nothing.
struct EraseTrueAssert : OpRewritePattern<AssertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AssertOp op,
                                PatternRewriter &rewriter) const override {
    if (!matchPattern(op.getCondition(), m_One()))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void AssertOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<EraseTrueAssert>(context);
}
