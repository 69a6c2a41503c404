//===- ExpandComplex.cpp - complex numbers as vectors of two parts --------===//

#include "sluice/Conversion/Passes.h"

#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace sluice {
#define GEN_PASS_DEF_EXPANDCOMPLEXPASS
#include "sluice/Conversion/Passes.h.inc"
} // namespace sluice

using namespace mlir;

namespace {

/// The vector (a, b), built by inserting into zeros: llvm-spirv 15 (the
/// SPIR-V reader of the OpenCL path) takes an OpCompositeConstruct of
/// values that are not constants for a constant and crashes.
Value makePair(OpBuilder &b, Location loc, VectorType type, Value first,
               Value second) {
  Value v = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  v = vector::InsertOp::create(b, loc, first, v, ArrayRef<int64_t>{0});
  return vector::InsertOp::create(b, loc, second, v, ArrayRef<int64_t>{1});
}

struct ExpandComplexPass
    : sluice::impl::ExpandComplexPassBase<ExpandComplexPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    module.walk([&](Operation *op) {
      auto isComplex = [](Type t) { return isa<ComplexType>(t); };
      auto hasComplex = [&](Type t) {
        if (isComplex(t))
          return true;
        if (auto s = dyn_cast<ShapedType>(t))
          return isComplex(s.getElementType());
        if (auto f = dyn_cast<FunctionType>(t))
          return llvm::any_of(f.getInputs(), [](Type x) {
            return isa<ComplexType>(getElementTypeOrSelf(x));
          });
        return false;
      };
      if (llvm::any_of(op->getOperandTypes(), hasComplex) ||
          llvm::any_of(op->getResultTypes(), hasComplex))
        any = true;
      for (Region &r : op->getRegions())
        for (Block &block : r)
          for (BlockArgument arg : block.getArguments())
            if (hasComplex(arg.getType()))
              any = true;
      return any ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (!any)
      return;

    // 0. Complex arithmetic to float arithmetic on the parts.
    {
      MLIRContext *ctx = &getContext();
      RewritePatternSet patterns(ctx);
      populateComplexToStandardConversionPatterns(
          patterns, complex::ComplexRangeFlags::improved);
      ConversionTarget target(*ctx);
      target.addIllegalDialect<complex::ComplexDialect>();
      target.addLegalOp<complex::CreateOp, complex::ReOp, complex::ImOp,
                        complex::ConstantOp>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }

    // 1. Types: complex<T> -> vector<2xT>, wherever they occur.
    AttrTypeReplacer replacer;
    replacer.addReplacement([](ComplexType t) -> std::optional<Type> {
      return VectorType::get({2}, t.getElementType());
    });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);

    // 2. The ops that take complex numbers apart or make them.
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<complex::ComplexDialect>(op->getDialect()))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value replacement;
      if (auto re = dyn_cast<complex::ReOp>(op)) {
        replacement = vector::ExtractOp::create(b, loc, re.getComplex(),
                                                ArrayRef<int64_t>{0});
      } else if (auto im = dyn_cast<complex::ImOp>(op)) {
        replacement = vector::ExtractOp::create(b, loc, im.getComplex(),
                                                ArrayRef<int64_t>{1});
      } else if (auto create = dyn_cast<complex::CreateOp>(op)) {
        replacement = makePair(b, loc, cast<VectorType>(create.getType()),
                               create.getReal(), create.getImaginary());
      } else if (auto constant = dyn_cast<complex::ConstantOp>(op)) {
        auto type = cast<VectorType>(constant.getType());
        auto parts = constant.getValue();
        replacement = arith::ConstantOp::create(
            b, loc, type,
            DenseElementsAttr::get(type,
                                   ArrayRef<Attribute>{parts[0], parts[1]}));
      } else {
        op->emitOpError("has no expansion into float operations "
                        "(sluice-expand-complex)");
        return signalPassFailure();
      }
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    }

    // 3. Selections of whole numbers take a condition per part (SPIR-V
    //    before 1.4 has no scalar condition for vector operands).
    module.walk([&](arith::SelectOp select) {
      auto type = dyn_cast<VectorType>(select.getType());
      if (!type || isa<VectorType>(select.getCondition().getType()))
        return;
      OpBuilder b(select);
      Value mask = makePair(b, select.getLoc(),
                            VectorType::get(type.getShape(), b.getI1Type()),
                            select.getCondition(), select.getCondition());
      select.getConditionMutable().assign(mask);
    });
  }
};

} // namespace
