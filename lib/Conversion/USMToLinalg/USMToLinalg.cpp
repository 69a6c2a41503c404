//===- USMToLinalg.cpp - usm arrays to memrefs and linalg -----------------===//
//
// Arrays are immutable values, so every usm op that produces an array
// allocates a fresh buffer in the array's placement (the memref memory space
// is the `#usm.placement`) and fills it: elementwise ops and reductions with
// linalg.generic, migrations and host boundaries with memref.copy, reshape
// with a view of the (contiguous) input. Nothing is written twice, so no
// bufferization analysis is needed.
//
//===----------------------------------------------------------------------===//

#include "sluice/Conversion/USMToLinalg/USMToLinalg.h"
#include "Broadcasting.h"
#include "RuntimeShapes.h"
#include "StoreLowering.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "sluice/Conversion/Passes.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace sluice::usm;

USMTypeConverter::USMTypeConverter() {
  addConversion([](Type t) { return t; });
  // Unsigned scalars (arguments of unsigned element type) become signless,
  // like the elements of arrays: arith takes only signless integers, and the
  // ops' signedness comes from their usm types.
  addConversion([](IntegerType t) -> Type { return getStorageElementType(t); });
  // Host data of unsigned elements (from_host sources, to_host results)
  // holds signless elements too.
  addConversion([](MemRefType t) -> Type {
    return t.cloneWith(std::nullopt, getStorageElementType(t.getElementType()));
  });
  addConversion([](RankedTensorType t) -> Type {
    return t.clone(getStorageElementType(t.getElementType()));
  });
  addConversion([](ArrayType t) -> Type {
    auto space = PlacementAttr::get(t.getContext(), t.getQueue(), t.getKind());
    return MemRefType::get(t.getShape(),
                           getStorageElementType(t.getElementType()),
                           MemRefLayoutAttrInterface(), space);
  });
  // A usm.strided_view used other than by an elementwise lowering that
  // reads it in place: a contiguous copy.
  addTargetMaterialization(
      [](OpBuilder &b, Type type, ValueRange inputs, Location loc) -> Value {
        auto memref = dyn_cast<MemRefType>(type);
        if (!memref || inputs.size() != 1)
          return Value();
        return contiguousCopyOfView(b, loc, memref, inputs.front());
      });
}

namespace {

/// Alignment of every array allocation: a cache line, enough for any vector
/// load on the backends Sluice targets.
constexpr int64_t kArrayAlignment = 64;

Value allocArray(OpBuilder &b, Location loc, MemRefType type,
                 ValueRange dynamicSizes) {
  return memref::AllocOp::create(b, loc, type, dynamicSizes,
                                 b.getI64IntegerAttr(kArrayAlignment));
}

/// The run-time shapes of an op's operands (rank 0 for scalars).
SmallVector<Shape> operandShapes(OpBuilder &b, Location loc,
                                 ValueRange operands) {
  SmallVector<Shape> shapes;
  for (Value v : operands)
    shapes.push_back(runtimeShape(b, loc, v));
  return shapes;
}

SmallVector<BroadcastOperand> broadcastOperands(ValueRange operands,
                                                ArrayRef<Shape> shapes) {
  SmallVector<BroadcastOperand> out;
  for (auto [v, s] : llvm::zip(operands, shapes))
    out.push_back({v, s});
  return out;
}

} // namespace

Value sluice::usm::lowerElementwiseOp(OpBuilder &b, Operation *op,
                                      ValueRange operands,
                                      const TypeConverter &converter,
                                      ArrayRef<Shape> knownShapes,
                                      const Shape *resultShape, Value out) {
  Location loc = op->getLoc();
  auto result = cast<ArrayType>(op->getResult(0).getType());
  SmallVector<Shape> shapes(knownShapes);
  if (shapes.empty())
    shapes = operandShapes(b, loc, operands);
  Shape shape = resultShape
                    ? *resultShape
                    : broadcastAtRunTime(b, loc, op, shapes, result.getShape());
  if (!out) {
    auto outType = cast<MemRefType>(converter.convertType(result));
    out = allocArray(b, loc, outType, dynamicSizes(shape));
  }
  buildBroadcastingGeneric(
      b, loc, broadcastOperands(operands, shapes), result.getShape(), shape,
      out, [&](OpBuilder &nb, Location l, ValueRange args) {
        return SmallVector<Value>{emitScalarOp(nb, l, op, args)};
      });
  return out;
}

namespace {

/// All elementwise ops: one generic computing the op's scalar function
/// (two, chosen at run time, when a dynamic size may broadcast).
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(const TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchTraitOpTypeTag(),
                          TypeID::get<sluice::usm::OpTrait::Elementwise>(), 1,
                          ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> converted,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    // Views (usm.strided_view) are read in place.
    SmallVector<Value> operands;
    for (Value v : converted)
      operands.push_back(lookThroughView(v));
    SmallVector<Shape> shapes = operandShapes(rewriter, loc, operands);
    Shape shape = broadcastAtRunTime(
        rewriter, loc, op, shapes,
        cast<ArrayType>(op->getResult(0).getType()).getShape());
    Value dest = storeDestination(rewriter, op, op->getResult(0), shape);
    Value out = lowerElementwiseOp(rewriter, op, operands, *getTypeConverter(),
                                   shapes, &shape, dest);
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// broadcast_to: the target sizes must not be negative, and every input
/// size must be 1 or the target's.
struct BroadcastToLowering : OpConversionPattern<BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayType resultType = op.getType();
    auto outType =
        cast<MemRefType>(getTypeConverter()->convertType(resultType));
    Shape target =
        mixedShape(rewriter, resultType.getShape(), adaptor.getSizes());
    Shape input = runtimeShape(rewriter, loc, adaptor.getInput());
    checkNonNegative(rewriter, loc, op, target);
    ShapeMath m{rewriter, loc};
    Value ok;
    int64_t offset = target.size() - input.size();
    for (auto [i, d] : llvm::enumerate(input)) {
      OpFoldResult t = target[i + offset];
      std::optional<int64_t> cd = getConstantIntValue(d);
      if ((cd && *cd == 1) || (cd && getConstantIntValue(t)))
        continue; // static: the verifier checked it
      ok = m.both(ok, m.either(m.isEqual(d, 1), m.isEqual(d, t)));
    }
    CheckMessage message(op);
    message << "cannot broadcast shape ";
    message.shape(input) << " to ";
    message.shape(target);
    message.assertThat(rewriter, loc, ok);

    Value out = allocArray(rewriter, loc, outType, dynamicSizes(target));
    buildBroadcastingGeneric(rewriter, loc,
                             {BroadcastOperand{adaptor.getInput(), input}},
                             resultType.getShape(), target, out,
                             [](OpBuilder &, Location, ValueRange args) {
                               return SmallVector<Value>{args[0]};
                             });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

/// The identity of a reduction over usm element type `element`.
Value sluice::usm::reductionIdentity(OpBuilder &b, Location loc, Operation *op,
                                     Type element) {
  Type storage = getStorageElementType(element);
  bool isUnsigned = element.isUnsignedInteger() || element.isInteger(1);
  if (auto ft = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    APFloat v = isa<SumOp>(op)    ? APFloat::getZero(sem)
                : isa<ProdOp>(op) ? APFloat(sem, 1)
                : isa<MaxOp>(op)  ? APFloat::getInf(sem, /*Negative=*/true)
                                  : APFloat::getInf(sem, /*Negative=*/false);
    return arith::ConstantOp::create(b, loc, storage,
                                     b.getFloatAttr(storage, v));
  }
  unsigned w = storage.getIntOrFloatBitWidth();
  APInt v =
      isa<SumOp>(op)    ? APInt::getZero(w)
      : isa<ProdOp>(op) ? APInt(w, 1)
      : isa<MaxOp>(op)
          ? (isUnsigned ? APInt::getMinValue(w) : APInt::getSignedMinValue(w))
          : (isUnsigned ? APInt::getMaxValue(w) : APInt::getSignedMaxValue(w));
  return arith::ConstantOp::create(b, loc, storage,
                                   b.getIntegerAttr(storage, v));
}

Value sluice::usm::reductionCombine(OpBuilder &b, Location loc, Operation *op,
                                    Type element, Value acc, Value x) {
  bool isFloat = isa<FloatType>(element);
  bool isUnsigned = element.isUnsignedInteger() || element.isInteger(1);
  if (isa<SumOp>(op))
    return isFloat ? arith::AddFOp::create(b, loc, acc, x).getResult()
                   : arith::AddIOp::create(b, loc, acc, x).getResult();
  if (isa<ProdOp>(op))
    return isFloat ? arith::MulFOp::create(b, loc, acc, x).getResult()
                   : arith::MulIOp::create(b, loc, acc, x).getResult();
  if (isa<MaxOp>(op))
    return isFloat      ? arith::MaximumFOp::create(b, loc, acc, x).getResult()
           : isUnsigned ? arith::MaxUIOp::create(b, loc, acc, x).getResult()
                        : arith::MaxSIOp::create(b, loc, acc, x).getResult();
  return isFloat      ? arith::MinimumFOp::create(b, loc, acc, x).getResult()
         : isUnsigned ? arith::MinUIOp::create(b, loc, acc, x).getResult()
                      : arith::MinSIOp::create(b, loc, acc, x).getResult();
}

Value sluice::usm::lowerReduction(OpBuilder &b, Operation *op,
                                  const TypeConverter &converter,
                                  ArrayRef<BroadcastOperand> operands,
                                  ArrayRef<OpFoldResult> domain,
                                  ElementwiseBody value) {
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  auto inType = cast<ArrayType>(op->getOperand(0).getType());
  auto result = cast<ArrayType>(op->getResult(0).getType());
  auto outType = cast<MemRefType>(converter.convertType(result));
  int64_t rank = inType.getRank();
  auto axesAttr = op->getAttrOfType<DenseI64ArrayAttr>("axes");
  SmallVector<int64_t> reduced = normalizeAxes(rank, axesAttr);
  bool keepdims = op->hasAttr("keepdims");
  ShapeMath m{b, loc};

  // Result sizes: the kept input dimensions (1 for reduced with keepdims).
  SmallVector<Value> sizes;
  SmallVector<AffineExpr> outExprs;
  SmallVector<int64_t> collapsedShape;
  for (int64_t i = 0; i < rank; ++i) {
    bool isReduced = llvm::is_contained(reduced, i);
    if (!isReduced) {
      outExprs.push_back(getAffineDimExpr(i, ctx));
      collapsedShape.push_back(inType.getDimSize(i));
      if (inType.isDynamicDim(i))
        sizes.push_back(m.value(domain[i]));
    }
  }
  // NumPy has no maximum or minimum of nothing: a reduced extent of 0
  // is an error (even with no output element).
  if (isa<MaxOp, MinOp>(op)) {
    SmallVector<OpFoldResult> reducedSizes;
    for (int64_t i : reduced)
      reducedSizes.push_back(domain[i]);
    OpFoldResult extent = m.product(reducedSizes);
    Value ok = m.negate(m.isEqual(extent, 0));
    CheckMessage message(op);
    message << "zero-size array to reduction operation "
            << (isa<MaxOp>(op) ? "maximum" : "minimum")
            << " which has no identity";
    message.assertThat(b, loc, ok);
  }
  Value out = allocArray(b, loc, outType, sizes);
  Value target = out;
  if (keepdims &&
      outType.getRank() != static_cast<int64_t>(collapsedShape.size())) {
    // Collapse the unit dimensions into their neighbours for the generic.
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices pending;
    for (int64_t i = 0; i < rank; ++i) {
      pending.push_back(i);
      if (!llvm::is_contained(reduced, i)) {
        groups.push_back(pending);
        pending.clear();
      }
    }
    if (!pending.empty()) {
      if (groups.empty())
        groups.push_back({});
      groups.back().append(pending.begin(), pending.end());
    }
    if (collapsedShape.empty())
      groups.clear();
    target = memref::CollapseShapeOp::create(b, loc, out, groups);
  }
  Type element = inType.getElementType();
  Type accElement = result.getElementType();
  Value identity = reductionIdentity(b, loc, op, accElement);
  linalg::FillOp::create(b, loc, identity, target);

  SmallVector<utils::IteratorType> iterators;
  for (int64_t i = 0; i < rank; ++i)
    iterators.push_back(llvm::is_contained(reduced, i)
                            ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);
  size_t n = operands.size();
  buildBroadcastingReduction(
      b, loc, operands, inType.getShape(), domain, target,
      AffineMap::get(rank, 0, outExprs, ctx), iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value v = value(nb, l, args.take_front(n)).front();
        Value x = emitScalarCast(nb, l, v, element, accElement);
        return SmallVector<Value>{
            reductionCombine(nb, l, op, accElement, args[n], x)};
      });
  return out;
}

namespace {

/// Reductions: fill the result with the identity, then one generic whose
/// reduced dimensions are reduction iterators. With keepdims the generic
/// writes a view of the result without its unit dimensions.
struct ReductionLowering : ConversionPattern {
  ReductionLowering(const TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchTraitOpTypeTag(),
                          TypeID::get<sluice::usm::OpTrait::Reduction>(), 1,
                          ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Shape domain = runtimeShape(rewriter, op->getLoc(), operands[0]);
    Value out = lowerReduction(rewriter, op, *getTypeConverter(),
                               {BroadcastOperand{operands[0], domain}}, domain,
                               [](OpBuilder &, Location, ValueRange args) {
                                 return SmallVector<Value>{args[0]};
                               });
    rewriter.replaceOp(op, out);
    return success();
  }
};

struct EmptyLowering : OpConversionPattern<EmptyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EmptyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    checkNonNegative(
        rewriter, op.getLoc(), op,
        mixedShape(rewriter, op.getType().getShape(), adaptor.getSizes()));
    rewriter.replaceOp(
        op, allocArray(rewriter, op.getLoc(), type, adaptor.getSizes()));
    return success();
  }
};

struct FullLowering : OpConversionPattern<FullOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FullOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    checkNonNegative(
        rewriter, op.getLoc(), op,
        mixedShape(rewriter, op.getType().getShape(), adaptor.getSizes()));
    Value out = allocArray(rewriter, op.getLoc(), type, adaptor.getSizes());
    linalg::FillOp::create(rewriter, op.getLoc(), adaptor.getValue(), out);
    rewriter.replaceOp(op, out);
    return success();
  }
};

struct ArangeLowering : OpConversionPattern<ArangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    SmallVector<Value> sizes;
    if (adaptor.getSize()) {
      sizes.push_back(adaptor.getSize());
      checkNonNegative(rewriter, loc, op, OpFoldResult(adaptor.getSize()));
    }
    Value out = allocArray(rewriter, loc, type, sizes);
    Type element = type.getElementType();
    Value start = adaptor.getStart(), step = adaptor.getStep();
    bool isUnsigned = op.getType().getElementType().isUnsignedInteger();
    linalg::GenericOp::create(
        rewriter, loc, ValueRange{}, ValueRange{out},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(1)},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
        [&](OpBuilder &b, Location l, ValueRange) {
          Value i = linalg::IndexOp::create(b, l, 0);
          Value v;
          if (isa<FloatType>(element)) {
            Value i64 = arith::IndexCastUIOp::create(b, l, b.getI64Type(), i);
            Value f = arith::UIToFPOp::create(b, l, element, i64);
            v = arith::AddFOp::create(b, l, start,
                                      arith::MulFOp::create(b, l, f, step));
          } else {
            Value n =
                isUnsigned
                    ? arith::IndexCastUIOp::create(b, l, element, i).getResult()
                    : arith::IndexCastOp::create(b, l, element, i).getResult();
            v = arith::AddIOp::create(b, l, start,
                                      arith::MulIOp::create(b, l, n, step));
          }
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// A constant becomes a private global in host memory copied into a fresh
/// allocation with the array's placement; a splat, a fill of a fresh
/// allocation.
struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return rewriter.notifyMatchFailure(op, "only dense constants lower");
    Type storage = type.getElementType();
    if (dense.getElementType() != storage)
      dense = dense.bitcast(storage);
    if (dense.isSplat()) {
      // A splat is never materialised as a global (10^13 elements would be
      // as many in the object file): the array is allocated and filled.
      Value value = isa<ComplexType>(storage)
                        ? emitComplexSplat(rewriter, loc, dense)
                        : arith::ConstantOp::create(
                              rewriter, loc,
                              cast<TypedAttr>(dense.getSplatValue<Attribute>()))
                              .getResult();
      Value out = allocArray(rewriter, loc, type, {});
      linalg::FillOp::create(rewriter, loc, value, out);
      rewriter.replaceOp(op, out);
      return success();
    }
    auto module = op->getParentOfType<ModuleOp>();
    auto hostType = MemRefType::get(type.getShape(), storage);
    std::string name;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      unsigned n = 0;
      do {
        name = "__usm_constant_" + std::to_string(n++);
      } while (module.lookupSymbol(name));
      memref::GlobalOp::create(rewriter, loc, name,
                               rewriter.getStringAttr("private"), hostType,
                               dense, /*constant=*/true,
                               rewriter.getI64IntegerAttr(kArrayAlignment));
    }
    Value global = memref::GetGlobalOp::create(rewriter, loc, hostType, name);
    Value out = allocArray(rewriter, loc, type, {});
    memref::CopyOp::create(rewriter, loc, global, out);
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// Sizes of the dynamic dimensions of `value` (a memref).
SmallVector<Value> dynamicSizesOf(OpBuilder &b, Location loc, Value value) {
  SmallVector<Value> sizes;
  auto type = cast<MemRefType>(value.getType());
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(memref::DimOp::create(b, loc, value, i));
  return sizes;
}

/// Sizes for the dynamic dims of `target` from the dims of `source`.
SmallVector<Value> dynamicSizesFor(OpBuilder &b, Location loc,
                                   ArrayRef<int64_t> target, Value source) {
  SmallVector<Value> sizes;
  for (auto [i, d] : llvm::enumerate(target))
    if (ShapedType::isDynamic(d))
      sizes.push_back(memref::DimOp::create(b, loc, source, i));
  return sizes;
}

struct ToDeviceLowering : OpConversionPattern<ToDeviceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ToDeviceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    Value src = adaptor.getSource();
    Value out = allocArray(rewriter, op.getLoc(), type,
                           dynamicSizesOf(rewriter, op.getLoc(), src));
    memref::CopyOp::create(rewriter, op.getLoc(), src, out);
    rewriter.replaceOp(op, out);
    return success();
  }
};

struct FromHostLowering : OpConversionPattern<FromHostOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FromHostOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    Value src = adaptor.getSource();
    if (auto tensorType = dyn_cast<RankedTensorType>(src.getType()))
      src = bufferization::ToBufferOp::create(
          rewriter, loc,
          MemRefType::get(tensorType.getShape(), tensorType.getElementType()),
          src, /*read_only=*/true);
    if (cast<MemRefType>(src.getType()).getElementType() !=
        type.getElementType())
      return rewriter.notifyMatchFailure(op, "host data of unsigned type");
    Value out =
        allocArray(rewriter, loc, type,
                   dynamicSizesFor(rewriter, loc, type.getShape(), src));
    memref::CopyOp::create(rewriter, loc, src, out);
    rewriter.replaceOp(op, out);
    return success();
  }
};

struct ToHostLowering : OpConversionPattern<ToHostOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ToHostOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType =
        cast<ShapedType>(getTypeConverter()->convertType(op.getType()));
    if (auto m = dyn_cast<MemRefType>(resultType);
        m && !m.getLayout().isIdentity())
      return rewriter.notifyMatchFailure(op, "strided host memref result");
    auto hostType =
        MemRefType::get(resultType.getShape(), resultType.getElementType());
    Value src = adaptor.getSource();
    Value out = memref::AllocOp::create(
        rewriter, loc, hostType,
        dynamicSizesFor(rewriter, loc, hostType.getShape(), src),
        rewriter.getI64IntegerAttr(kArrayAlignment));
    memref::CopyOp::create(rewriter, loc, src, out);
    if (isa<RankedTensorType>(resultType))
      out = bufferization::ToTensorOp::create(rewriter, loc, resultType, out,
                                              /*restrict=*/true);
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// A reshape of a contiguous array is a view with row-major strides.
struct ReshapeLowering : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    SmallVector<OpFoldResult> sizes, strides;
    unsigned dyn = 0;
    for (int64_t d : type.getShape())
      sizes.push_back(ShapedType::isDynamic(d)
                          ? OpFoldResult(adaptor.getSizes()[dyn++])
                          : OpFoldResult(rewriter.getIndexAttr(d)));
    // Row-major strides, from the innermost dimension outwards.
    strides.resize(sizes.size());
    OpFoldResult stride = rewriter.getIndexAttr(1);
    for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i >= 0; --i) {
      strides[i] = stride;
      AffineExpr s0, s1;
      bindSymbols(rewriter.getContext(), s0, s1);
      stride = affine::makeComposedFoldedAffineApply(rewriter, loc, s0 * s1,
                                                     {stride, sizes[i]});
    }
    // Dynamic sizes: not negative, and as many elements as the input.
    if (!type.hasStaticShape() ||
        !cast<MemRefType>(adaptor.getInput().getType()).hasStaticShape()) {
      ShapeMath m{rewriter, loc};
      checkNonNegative(rewriter, loc, op, sizes);
      Shape input = runtimeShape(rewriter, loc, adaptor.getInput());
      OpFoldResult inCount = m.product(input), outCount = m.product(sizes);
      CheckMessage message(op);
      message << "cannot reshape array of size " << inCount << " into shape ";
      message.shape(sizes);
      message.assertThat(rewriter, loc, m.isEqual(inCount, outCount));
    }
    auto view = memref::ReinterpretCastOp::create(
        rewriter, loc, type, adaptor.getInput(), rewriter.getIndexAttr(0),
        sizes, strides);
    rewriter.replaceOp(op, view.getResult());
    return success();
  }
};

struct TransposeLowering : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    SmallVector<Value> sizes;
    ArrayRef<int64_t> perm = op.getPermutation();
    for (auto [i, d] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(d))
        sizes.push_back(
            memref::DimOp::create(rewriter, loc, adaptor.getInput(), perm[i]));
    Value out = allocArray(rewriter, loc, type, sizes);
    linalg::TransposeOp::create(rewriter, loc, adaptor.getInput(), out, perm);
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void sluice::usm::populateUSMToLinalgConversionPatterns(
    USMTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseLowering, ReductionLowering>(converter, ctx);
  patterns.add<BroadcastToLowering, EmptyLowering, FullLowering, ArangeLowering,
               ConstantLowering, ToDeviceLowering, FromHostLowering,
               ToHostLowering, ReshapeLowering, TransposeLowering>(converter,
                                                                   ctx);
}

namespace sluice {
#define GEN_PASS_DEF_CONVERTUSMTOLINALGPASS
#include "sluice/Conversion/Passes.h.inc"
} // namespace sluice

namespace {
/// An unsigned scalar made from a signless constant
/// (`builtin.unrealized_conversion_cast %c : i32 to ui32`, as the C API's
/// builder makes them: arith has no unsigned constants) is the constant
/// itself once types are converted.
struct SignednessCastLowering
    : OpConversionPattern<UnrealizedConversionCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UnrealizedConversionCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumOperands() != 1 || op->getNumResults() != 1)
      return failure();
    Type converted = getTypeConverter()->convertType(op.getResult(0).getType());
    if (!converted || converted != adaptor.getInputs()[0].getType())
      return failure();
    rewriter.replaceOp(op, adaptor.getInputs()[0]);
    return success();
  }
};

struct ConvertUSMToLinalgPass
    : sluice::impl::ConvertUSMToLinalgPassBase<ConvertUSMToLinalgPass> {
  /// Elementwise groups lower to one linalg.generic each, reduction groups
  /// to one reduction generic reading their producers (FusedLowering.cpp).
  /// Other groups are inlined, and their ops lower one by one: the results
  /// are exactly the unfused program's.
  void inlineFusedGroups() {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](FusedOp op) {
      if (isElementwiseGroup(op) || isReductionGroup(op))
        return;
      Block &body = op.getBody().front();
      auto yield = cast<YieldOp>(body.getTerminator());
      SmallVector<Value> results(yield.getOperands());
      rewriter.eraseOp(yield);
      rewriter.inlineBlockBefore(&body, op, op.getInputs());
      rewriter.replaceOp(op, results);
    });
  }

  /// The patterns, frozen once per pass manager: freezing matches the
  /// interface patterns (function and branch type conversions) against
  /// every registered operation, which costs more than converting a small
  /// program. The converter is shared with clones of the pass, since the
  /// frozen patterns refer to it.
  LogicalResult initialize(MLIRContext *ctx) override {
    converter = std::make_shared<USMTypeConverter>();
    RewritePatternSet patterns(ctx);
    populateUSMToLinalgConversionPatterns(*converter, patterns);
    populateFusedGroupLoweringPatterns(*converter, patterns);
    populateIndexingLoweringPatterns(*converter, patterns);
    populateContractionLoweringPatterns(*converter, patterns);
    populateStoreLoweringPatterns(*converter, patterns);
    patterns.add<SignednessCastLowering>(*converter, ctx);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   *converter);
    populateCallOpTypeConversionPattern(patterns, *converter);
    populateReturnOpTypeConversionPattern(patterns, *converter);
    populateBranchOpInterfaceTypeConversionPattern(patterns, *converter);
    scf::populateSCFStructuralTypeConversions(*converter, patterns);
    frozenPatterns = FrozenRewritePatternSet(std::move(patterns));
    return success();
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    if (failed(decomposeComplexOps(getOperation())))
      return signalPassFailure();
    inlineFusedGroups();
    splitShortRowGroups(getOperation());
    markInPlaceUpdates(getOperation());
    const USMTypeConverter &types = *converter;
    ConversionTarget target(*ctx);
    target.addIllegalDialect<USMDialect>();
    // Run-time checks stay until convert-host-to-runtime.
    target.addLegalOp<AssertOp>();
    // Library products stay until convert-host-to-runtime too.
    target.addLegalOp<LibraryMatmulOp>();
    target.addLegalDialect<scf::SCFDialect>();
    target.addLegalDialect<arith::ArithDialect, math::MathDialect,
                           linalg::LinalgDialect, memref::MemRefDialect,
                           affine::AffineDialect,
                           bufferization::BufferizationDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return types.isSignatureLegal(op.getFunctionType()) &&
             types.isLegal(&op.getBody());
    });
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return types.isLegal(op); });
    scf::populateSCFStructuralTypeConversionTarget(types, target);
    if (failed(applyPartialConversion(getOperation(), target, frozenPatterns)))
      signalPassFailure();
  }

  std::shared_ptr<USMTypeConverter> converter;
  FrozenRewritePatternSet frozenPatterns;
};
} // namespace
