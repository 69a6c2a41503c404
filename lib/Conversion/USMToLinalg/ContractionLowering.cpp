//===- ContractionLowering.cpp - usm.matmul to a library call -------------===//
//
// The products usm-expand-contractions leaves as usm.matmul (those a field
// library computes: BLAS on the host, cuBLAS on CUDA) become a result
// buffer and a usm.library_matmul on the operands' buffers, which are
// contiguous (usm arrays always are), so convert-host-to-runtime reads
// every stride off their descriptors.
//
//===----------------------------------------------------------------------===//

#include "sluice/Conversion/USMToLinalg/USMToLinalg.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace sluice::usm;

namespace {

struct MatmulLowering : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<MemRefType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(
          op, "usm.matmul of dynamic shape: run usm-expand-contractions");
    Location loc = op.getLoc();
    Value out = memref::AllocOp::create(rewriter, loc, type, ValueRange(),
                                        rewriter.getI64IntegerAttr(64));
    LibraryMatmulOp::create(rewriter, loc, adaptor.getLhs(), adaptor.getRhs(),
                            out);
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void sluice::usm::populateContractionLoweringPatterns(
    USMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MatmulLowering>(converter, patterns.getContext());
}
