//===- IndexingLowering.cpp - usm.gather to linalg ------------------------===//
//
// A gather is one linalg.generic over the indices: each element's index is
// clamped into the source's element count and loaded from a flat view of
// the (contiguous) source, which the payload reads from above (the kernel
// former passes such a buffer whole).
//
//===----------------------------------------------------------------------===//

#include "RuntimeShapes.h"
#include "sluice/Conversion/USMToLinalg/USMToLinalg.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace sluice::usm;

namespace {

struct GatherLowering : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource();
    Value indices = adaptor.getIndices();
    auto outType =
        cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    SmallVector<Value> outSizes;
    for (auto [i, d] : llvm::enumerate(outType.getShape()))
      if (ShapedType::isDynamic(d))
        outSizes.push_back(memref::DimOp::create(rewriter, loc, indices, i));
    Value out = memref::AllocOp::create(rewriter, loc, outType, outSizes,
                                        rewriter.getI64IntegerAttr(64));
    // The source as a flat buffer (usm arrays are contiguous), with its
    // element count, computed on the host.
    auto sourceType = cast<MemRefType>(source.getType());
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t i = 0; i < sourceType.getRank(); ++i)
      count = arith::MulIOp::create(
          rewriter, loc, count,
          memref::DimOp::create(rewriter, loc, source, i));
    auto flatType = MemRefType::get(
        {ShapedType::kDynamic}, sourceType.getElementType(),
        MemRefLayoutAttrInterface(), sourceType.getMemorySpace());
    Value flatSource = memref::ReinterpretCastOp::create(
        rewriter, loc, flatType, source, rewriter.getIndexAttr(0),
        ArrayRef<OpFoldResult>{count},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value last = arith::SubIOp::create(rewriter, loc, count, one);
    bool unsignedIndex = cast<ArrayType>(op.getIndices().getType())
                             .getElementType()
                             .isUnsignedInteger();
    int64_t rank = outType.getRank();
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    linalg::GenericOp::create(
        rewriter, loc, ValueRange{indices}, ValueRange{out},
        ArrayRef<AffineMap>{id, id}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value i = args[0];
          Value flat =
              unsignedIndex
                  ? arith::IndexCastUIOp::create(b, l, b.getIndexType(), i)
                        .getResult()
                  : arith::IndexCastOp::create(b, l, b.getIndexType(), i)
                        .getResult();
          flat = arith::MaxSIOp::create(b, l, flat, zero);
          flat = arith::MinSIOp::create(b, l, flat, last);
          Value v = memref::LoadOp::create(b, l, flatSource, flat);
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void sluice::usm::populateIndexingLoweringPatterns(
    USMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GatherLowering>(converter, patterns.getContext());
}
