//===- IndexingLowering.cpp - usm gathers, strided views and inserts -----===//
//
// A gather is one linalg.generic over the indices: each element's index is
// clamped into the source's element count and loaded from a flat view of
// the (contiguous) source, which the payload reads from above (the kernel
// former passes such a buffer whole). A strided insert copies its
// destination (unless it updates it in place, see InPlaceUpdates.cpp) and
// writes the value through a strided view of the copy; a scatter does the
// same with a flat view of it, which the payload stores into.
//
//===----------------------------------------------------------------------===//

#include "RuntimeShapes.h"
#include "sluice/Conversion/USMToLinalg/USMToLinalg.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace sluice::usm;

namespace {

struct GatherLowering : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto outType =
        cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    bool unsignedIndex = cast<ArrayType>(op.getIndices().getType())
                             .getElementType()
                             .isUnsignedInteger();
    rewriter.replaceOp(
        op, lowerGather(rewriter, op.getLoc(), outType, adaptor.getSource(),
                        adaptor.getIndices(), unsignedIndex, Value()));
    return success();
  }
};

/// usm.strided_view: a memref.reinterpret_cast of the base with a strided
/// layout. Its users expect an identity-layout memref, so the conversion
/// hands them a cast that elementwise lowerings look through (reading the
/// view in place, see lookThroughView); the type converter turns the casts
/// still used by anything else into contiguous copies.
struct StridedViewLowering : OpConversionPattern<StridedViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StridedViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto converted =
        cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    int64_t rank = converted.getRank();
    SmallVector<OpFoldResult> sizes, strides;
    for (int64_t i = 0; i < rank; ++i) {
      int64_t d = converted.getDimSize(i);
      sizes.push_back(ShapedType::isDynamic(d)
                          ? OpFoldResult(adaptor.getSizes()[i])
                          : OpFoldResult(rewriter.getIndexAttr(d)));
      strides.push_back(adaptor.getStrides()[i]);
    }
    auto layout = StridedLayoutAttr::get(
        rewriter.getContext(), ShapedType::kDynamic,
        SmallVector<int64_t>(rank, ShapedType::kDynamic));
    auto type =
        MemRefType::get(converted.getShape(), converted.getElementType(),
                        layout, converted.getMemorySpace());
    Value view = memref::ReinterpretCastOp::create(
        rewriter, op.getLoc(), type, adaptor.getBase(),
        OpFoldResult(adaptor.getOffset()), sizes, strides);
    rewriter.replaceOp(op, view);
    return success();
  }
};

/// An identity-layout copy of `src` into a new buffer of `type`.
Value copyArray(OpBuilder &b, Location loc, MemRefType type, Value src) {
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(memref::DimOp::create(b, loc, src, i));
  Value out =
      memref::AllocOp::create(b, loc, type, sizes, b.getI64IntegerAttr(64));
  int64_t rank = type.getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  linalg::GenericOp::create(
      b, loc, ValueRange{src}, ValueRange{out}, ArrayRef<AffineMap>{id, id},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l, args[0]);
      });
  return out;
}

/// usm.strided_insert: the destination (its copy, or itself when the
/// update is in place) is reinterpreted as the window, with the constant
/// operands static in the view's layout (a unit inner stride gives
/// contiguous vector stores), and one generic copies the value into it.
struct StridedInsertLowering : OpConversionPattern<StridedInsertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StridedInsertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value dest = adaptor.getDest();
    auto destType = dyn_cast<MemRefType>(dest.getType());
    if (!destType || !destType.getLayout().isIdentity())
      return rewriter.notifyMatchFailure(op, "destination is not contiguous");
    Value value = lookThroughView(adaptor.getValue());
    auto valueType = cast<MemRefType>(value.getType());
    Value out = dest;
    if (!isInPlaceUpdate(op, dest))
      out = copyArray(rewriter, loc, destType, dest);
    int64_t rank = valueType.getRank();
    auto fold = [](Value v) -> OpFoldResult {
      if (std::optional<int64_t> c = getConstantIntValue(v))
        return IntegerAttr::get(IndexType::get(v.getContext()), *c);
      return v;
    };
    auto staticOf = [](OpFoldResult f) {
      return getConstantIntValue(f).value_or(ShapedType::kDynamic);
    };
    OpFoldResult offset = fold(adaptor.getOffset());
    SmallVector<OpFoldResult> sizes, strides;
    SmallVector<int64_t> shape, layoutStrides;
    for (int64_t i = 0; i < rank; ++i) {
      OpFoldResult size = fold(adaptor.getSizes()[i]);
      if (!valueType.isDynamicDim(i))
        size = rewriter.getIndexAttr(valueType.getDimSize(i));
      sizes.push_back(size);
      strides.push_back(fold(adaptor.getStrides()[i]));
      shape.push_back(staticOf(size));
      layoutStrides.push_back(staticOf(strides.back()));
    }
    auto layout = StridedLayoutAttr::get(rewriter.getContext(),
                                         staticOf(offset), layoutStrides);
    auto windowType = MemRefType::get(shape, destType.getElementType(), layout,
                                      destType.getMemorySpace());
    Value window = memref::ReinterpretCastOp::create(
        rewriter, loc, windowType, out, offset, sizes, strides);
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    linalg::GenericOp::create(
        rewriter, loc, ValueRange{value}, ValueRange{window},
        ArrayRef<AffineMap>{id, id},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [](OpBuilder &nb, Location l, ValueRange args) {
          linalg::YieldOp::create(nb, l, args[0]);
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// usm.scatter: the destination (its copy, or itself when the update is
/// in place) is reinterpreted as a flat buffer, which one generic over the
/// positions stores into from its payload (the kernel former passes such a
/// buffer whole). The generic's own output is a byte per position that
/// nothing reads (a generic needs one).
struct ScatterLowering : OpConversionPattern<ScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value dest = adaptor.getDest();
    auto destType = dyn_cast<MemRefType>(dest.getType());
    if (!destType || !destType.getLayout().isIdentity())
      return rewriter.notifyMatchFailure(op, "destination is not contiguous");
    Value positions = lookThroughView(adaptor.getPositions());
    Value value = lookThroughView(adaptor.getValue());
    auto positionsType = cast<MemRefType>(positions.getType());
    Value out = dest;
    if (!isInPlaceUpdate(op, dest))
      out = copyArray(rewriter, loc, destType, dest);
    bool unsignedIndex = cast<ArrayType>(op.getPositions().getType())
                             .getElementType()
                             .isUnsignedInteger();
    GatherSource flat = gatherSourceOf(rewriter, loc, out);
    int64_t rank = positionsType.getRank();
    SmallVector<Value> sizes;
    for (int64_t i = 0; i < rank; ++i)
      if (positionsType.isDynamicDim(i))
        sizes.push_back(memref::DimOp::create(rewriter, loc, positions, i));
    auto doneType = MemRefType::get(
        positionsType.getShape(), rewriter.getI8Type(),
        MemRefLayoutAttrInterface(), positionsType.getMemorySpace());
    Value done = memref::AllocOp::create(rewriter, loc, doneType, sizes,
                                         rewriter.getI64IntegerAttr(64));
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    linalg::GenericOp::create(
        rewriter, loc, ValueRange{positions, value}, ValueRange{done},
        ArrayRef<AffineMap>{id, id, id},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value at = unsignedIndex ? arith::IndexCastUIOp::create(
                                         nb, l, nb.getIndexType(), args[0])
                                         .getResult()
                                   : arith::IndexCastOp::create(
                                         nb, l, nb.getIndexType(), args[0])
                                         .getResult();
          Value zero = arith::ConstantIndexOp::create(nb, l, 0);
          at = arith::MaxSIOp::create(nb, l, at, zero);
          at = arith::MinSIOp::create(nb, l, at, flat.last);
          memref::StoreOp::create(nb, l, args[1], flat.flat, at);
          Value one = arith::ConstantIntOp::create(nb, l, 1, 8);
          linalg::YieldOp::create(nb, l, one);
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

Value sluice::usm::lookThroughView(Value v) {
  auto cast = v.getDefiningOp<UnrealizedConversionCastOp>();
  if (!cast || cast.getInputs().size() != 1)
    return v;
  Value in = cast.getInputs().front();
  auto from = dyn_cast<MemRefType>(in.getType());
  auto to = dyn_cast<MemRefType>(v.getType());
  if (!from || !to || !to.getLayout().isIdentity() ||
      !isa<StridedLayoutAttr>(from.getLayout()) ||
      from.getShape() != to.getShape() ||
      from.getElementType() != to.getElementType() ||
      from.getMemorySpace() != to.getMemorySpace())
    return v;
  return in;
}

Value sluice::usm::contiguousCopyOfView(OpBuilder &b, Location loc,
                                        MemRefType type, Value view) {
  auto from = dyn_cast<MemRefType>(view.getType());
  if (!from || !isa<StridedLayoutAttr>(from.getLayout()) ||
      !type.getLayout().isIdentity() || from.getShape() != type.getShape() ||
      from.getElementType() != type.getElementType())
    return Value();
  return copyArray(b, loc, type, view);
}

GatherSource sluice::usm::gatherSourceOf(OpBuilder &b, Location loc,
                                         Value source) {
  // usm arrays are contiguous: the element count, computed on the host.
  auto sourceType = cast<MemRefType>(source.getType());
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t i = 0; i < sourceType.getRank(); ++i)
    count = arith::MulIOp::create(b, loc, count,
                                  memref::DimOp::create(b, loc, source, i));
  auto flatType =
      MemRefType::get({ShapedType::kDynamic}, sourceType.getElementType(),
                      MemRefLayoutAttrInterface(), sourceType.getMemorySpace());
  Value flat = memref::ReinterpretCastOp::create(
      b, loc, flatType, source, b.getIndexAttr(0),
      ArrayRef<OpFoldResult>{count}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  return {flat, arith::SubIOp::create(b, loc, count, one)};
}

Value sluice::usm::gatherElement(OpBuilder &b, Location loc,
                                 const GatherSource &source, Value index,
                                 bool unsignedIndex) {
  Value flat =
      unsignedIndex
          ? arith::IndexCastUIOp::create(b, loc, b.getIndexType(), index)
                .getResult()
          : arith::IndexCastOp::create(b, loc, b.getIndexType(), index)
                .getResult();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  flat = arith::MaxSIOp::create(b, loc, flat, zero);
  flat = arith::MinSIOp::create(b, loc, flat, source.last);
  return memref::LoadOp::create(b, loc, source.flat, flat);
}

Value sluice::usm::lowerGather(OpBuilder &b, Location loc, MemRefType outType,
                               Value source, Value indices, bool unsignedIndex,
                               Value out) {
  if (!out) {
    SmallVector<Value> outSizes;
    for (auto [i, d] : llvm::enumerate(outType.getShape()))
      if (ShapedType::isDynamic(d))
        outSizes.push_back(memref::DimOp::create(b, loc, indices, i));
    out = memref::AllocOp::create(b, loc, outType, outSizes,
                                  b.getI64IntegerAttr(64));
  }
  GatherSource src = gatherSourceOf(b, loc, source);
  int64_t rank = outType.getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  linalg::GenericOp::create(
      b, loc, ValueRange{indices}, ValueRange{out}, ArrayRef<AffineMap>{id, id},
      iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nb, l, gatherElement(nb, l, src, args[0], unsignedIndex));
      });
  return out;
}

void sluice::usm::populateIndexingLoweringPatterns(
    USMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GatherLowering, StridedViewLowering, StridedInsertLowering,
               ScatterLowering>(converter, patterns.getContext());
}
