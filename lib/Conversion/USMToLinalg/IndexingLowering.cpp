//===- IndexingLowering.cpp - usm.gather to linalg ------------------------===//
//
// A gather is one linalg.generic over the indices: each element's index is
// clamped into the source's element count, split into coordinates by the
// source's (run-time) sizes and loaded from the source. The source is read
// in place, whatever its layout.
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
    // The source's sizes and element count, computed on the host.
    auto sourceType = cast<MemRefType>(source.getType());
    SmallVector<Value> sizes;
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t i = 0; i < sourceType.getRank(); ++i) {
      Value d = memref::DimOp::create(rewriter, loc, source, i);
      sizes.push_back(d);
      count = arith::MulIOp::create(rewriter, loc, count, d);
    }
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
          SmallVector<Value> coords(sizes.size());
          for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0;
               --d) {
            if (d == 0) {
              coords[d] = flat;
              break;
            }
            coords[d] = arith::RemUIOp::create(b, l, flat, sizes[d]);
            flat = arith::DivUIOp::create(b, l, flat, sizes[d]);
          }
          Value v = memref::LoadOp::create(b, l, source, coords);
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
