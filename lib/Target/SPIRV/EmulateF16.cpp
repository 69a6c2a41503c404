//===- EmulateF16.cpp - f16 kernels without the Float16 capability --------===//
//
// OpenCL devices need cl_khr_fp16 for arithmetic on `half` (the Float16
// capability); many have none (PoCL's CPU device, for one). Kernels for
// them keep f16 data as its 16 bits (i16 buffers and scalars) and compute
// in f32: a load decodes the bits exactly, every f16 result is rounded to
// the nearest f16 (ties to even) as the f16 hardware and NumPy would, and a
// store encodes the rounded value. The conversions are integer code, so
// they do not depend on the device's rounding modes.
//
//===----------------------------------------------------------------------===//

#include "sluice/Target/SPIRV/EmulateF16.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

bool isF16(Type t) { return t.isF16(); }

bool mentionsF16(Type t) {
  if (isF16(t))
    return true;
  if (auto m = dyn_cast<MemRefType>(t))
    return isF16(m.getElementType());
  return false;
}

/// Integer code on i32 values.
struct Bits {
  OpBuilder &b;
  Location loc;
  Type i32() { return b.getI32Type(); }
  Value c(int64_t v) { return arith::ConstantIntOp::create(b, loc, i32(), v); }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value shr(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }

  /// The f32 value of f16 bits (exact).
  Value decode(Value half) {
    using P = arith::CmpIPredicate;
    Value h = arith::ExtUIOp::create(b, loc, i32(), half);
    Value sign = shl(andI(h, c(0x8000)), c(16));
    Value e = andI(shr(h, c(10)), c(0x1f));
    Value m = andI(h, c(0x3ff));
    Value mantissa = shl(m, c(13));
    Value normal = orI(sign, orI(shl(add(e, c(112)), c(23)), mantissa));
    Value special = orI(sign, orI(c(0x7f800000), mantissa));
    // Subnormals (and zeros): m * 2^-24, exact in f32.
    Value scaled = arith::MulFOp::create(
        b, loc, arith::UIToFPOp::create(b, loc, b.getF32Type(), m),
        arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0x1p-24f)));
    Value subnormal =
        orI(sign, arith::BitcastOp::create(b, loc, i32(), scaled));
    Value bits = select(cmp(P::eq, e, c(0)), subnormal,
                        select(cmp(P::eq, e, c(31)), special, normal));
    return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
  }

  /// The f16 bits nearest to an f32 value (ties to even; NaN stays NaN).
  Value encode(Value f) {
    using P = arith::CmpIPredicate;
    Value x = arith::BitcastOp::create(b, loc, i32(), f);
    Value sign = andI(shr(x, c(16)), c(0x8000));
    Value ax = andI(x, c(0x7fffffff));
    // Normal f16 range: rebias the exponent, round the 13 dropped bits to
    // nearest even (a carry moves into the exponent, up to infinity).
    Value odd = andI(shr(ax, c(13)), c(1));
    Value normal = shr(add(add(sub(ax, c(0x38000000)), c(0xfff)), odd), c(13));
    // Below 2^-14: the f16 subnormal m = round(|f| * 2^24), from the f32
    // significand shifted right by 126 - exponent (nothing above 24 bits).
    Value e = shr(ax, c(23));
    Value significand = orI(andI(ax, c(0x7fffff)), c(0x800000));
    Value shift = sub(c(126), e);
    Value tooSmall = cmp(P::sgt, shift, c(24));
    Value sh = arith::MinSIOp::create(b, loc, shift, c(24));
    Value q = shr(significand, sh);
    Value rest = andI(significand, sub(shl(c(1), sh), c(1)));
    Value half = shl(c(1), sub(sh, c(1)));
    Value up = arith::OrIOp::create(
        b, loc, cmp(P::ugt, rest, half),
        arith::AndIOp::create(b, loc, cmp(P::eq, rest, half),
                              cmp(P::ne, andI(q, c(1)), c(0))));
    Value subnormal = select(tooSmall, c(0),
                             add(q, arith::ExtUIOp::create(b, loc, i32(), up)));
    Value h = select(cmp(P::ult, ax, c(0x38800000)), subnormal, normal);
    h = select(cmp(P::uge, ax, c(0x477ff000)), c(0x7c00), h);
    h = select(cmp(P::ugt, ax, c(0x7f800000)), c(0x7e00), h);
    return arith::TruncIOp::create(b, loc, b.getI16Type(), orI(h, sign));
  }

  /// An f32 value rounded to the nearest f16 value, still as f32.
  Value round(Value f) { return decode(encode(f)); }

  /// An f64 value rounded to f32 so that rounding that to f16 rounds the
  /// f64 value once: toward zero, with the last bit set when inexact
  /// ("round to odd"; f32 keeps 13 more bits than f16).
  Value toF32Odd(Value d) {
    Value t = arith::TruncFOp::create(b, loc, b.getF32Type(), d);
    Value back = arith::ExtFOp::create(b, loc, b.getF64Type(), t);
    Value absT = math::AbsFOp::create(b, loc, back);
    Value absD = math::AbsFOp::create(b, loc, d);
    Value bits = arith::BitcastOp::create(b, loc, i32(), t);
    Value away =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, absT, absD);
    bits = select(away, sub(bits, c(1)), bits);
    Value inexact =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, back, d);
    bits = select(inexact, orI(bits, c(1)), bits);
    return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
  }
};

class F16TypeConverter : public TypeConverter {
public:
  F16TypeConverter() {
    addConversion([](Type t) { return t; });
    addConversion([](FloatType t) -> Type {
      return t.isF16() ? Float32Type::get(t.getContext()) : t;
    });
    addConversion([](MemRefType t) -> Type {
      if (!t.getElementType().isF16())
        return t;
      return MemRefType::get(t.getShape(), IntegerType::get(t.getContext(), 16),
                             t.getLayout(), t.getMemorySpace());
    });
  }
};

/// Ops whose f16 results need no rounding: they are exact on f16 values.
bool isExactOnF16(Operation *op) {
  return isa<arith::SelectOp, arith::NegFOp, arith::MaximumFOp,
             arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
             math::AbsFOp, math::CopySignOp, math::FloorOp, math::CeilOp,
             math::RoundOp, math::RoundEvenOp, math::TruncOp>(op);
}

struct LoadF16 : OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isF16(op.getType()))
      return failure();
    Value bits = memref::LoadOp::create(
        rewriter, op.getLoc(), adaptor.getMemref(), adaptor.getIndices());
    rewriter.replaceOp(op, Bits{rewriter, op.getLoc()}.decode(bits));
    return success();
  }
};

struct StoreF16 : OpConversionPattern<memref::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isF16(op.getValueToStore().getType()))
      return failure();
    Value bits = Bits{rewriter, op.getLoc()}.encode(adaptor.getValue());
    rewriter.replaceOpWithNewOp<memref::StoreOp>(op, bits, adaptor.getMemref(),
                                                 adaptor.getIndices());
    return success();
  }
};

struct ConstantF16 : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto attr = dyn_cast<FloatAttr>(op.getValue());
    if (!attr || !attr.getType().isF16())
      return failure();
    bool lost = false;
    APFloat v = attr.getValue();
    v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, rewriter.getF32FloatAttr(v.convertToFloat()));
    return success();
  }
};

/// extf from f16 (the value is already an exact f32), truncf to f16
/// (round; from f64 through f32 rounded to odd), bitcasts between f16 and
/// i16 (decode, encode).
struct ConvertF16 : ConversionPattern {
  ConvertF16(const TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/2, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    Bits bits{rewriter, loc};
    if (auto ext = dyn_cast<arith::ExtFOp>(op);
        ext && isF16(ext.getIn().getType())) {
      Value v = operands[0];
      if (!ext.getType().isF32())
        v = arith::ExtFOp::create(rewriter, loc, ext.getType(), v);
      rewriter.replaceOp(op, v);
      return success();
    }
    if (auto trunc = dyn_cast<arith::TruncFOp>(op);
        trunc && isF16(trunc.getType())) {
      Value v = operands[0];
      if (v.getType().isF64())
        v = bits.toF32Odd(v);
      else if (!v.getType().isF32())
        v = arith::ExtFOp::create(rewriter, loc, rewriter.getF32Type(), v);
      rewriter.replaceOp(op, bits.round(v));
      return success();
    }
    if (auto cast = dyn_cast<arith::BitcastOp>(op)) {
      if (isF16(cast.getType())) {
        rewriter.replaceOp(op, bits.decode(operands[0]));
        return success();
      }
      if (isF16(cast.getIn().getType())) {
        rewriter.replaceOp(op, bits.encode(operands[0]));
        return success();
      }
    }
    return failure();
  }
};

/// Other arith and math ops on f16: the same op on f32, its f16 results
/// rounded to f16.
struct ComputeInF32 : ConversionPattern {
  ComputeInF32(const TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        op->getNumRegions() != 0)
      return failure();
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    OperationState state(op->getLoc(), op->getName().getStringRef(), operands,
                         types, op->getAttrs());
    Operation *computed = rewriter.create(state);
    SmallVector<Value> results;
    for (auto [orig, v] : llvm::zip(op->getResults(), computed->getResults())) {
      Value result = v;
      if (isF16(orig.getType()) && !isExactOnF16(op))
        result = Bits{rewriter, op->getLoc()}.round(result);
      results.push_back(result);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

bool sluice::usesF16(gpu::GPUModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    auto check = [&](TypeRange types) {
      found = found || llvm::any_of(types, mentionsF16);
    };
    check(op->getOperandTypes());
    check(op->getResultTypes());
    for (Region &r : op->getRegions())
      for (Block &block : r)
        check(block.getArgumentTypes());
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

LogicalResult sluice::emulateF16(gpu::GPUModuleOp module) {
  MLIRContext *ctx = module.getContext();
  // f16 scalar arguments arrive as their 16 bits (the host passes 2 bytes).
  for (auto func : module.getOps<gpu::GPUFuncOp>()) {
    if (llvm::any_of(
            func.getWorkgroupAttributions(),
            [](BlockArgument a) { return mentionsF16(a.getType()); }) ||
        llvm::any_of(func.getPrivateAttributions(),
                     [](BlockArgument a) { return mentionsF16(a.getType()); }))
      return func.emitError("f16 workgroup or private memory cannot be "
                            "emulated without the Float16 capability");
    Block &entry = func.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    SmallVector<Type> inputs(func.getArgumentTypes());
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      BlockArgument arg = func.getArgument(i);
      if (!isF16(arg.getType()))
        continue;
      arg.setType(b.getI16Type());
      inputs[i] = b.getI16Type();
      auto cast =
          arith::BitcastOp::create(b, arg.getLoc(), b.getF16Type(), arg);
      arg.replaceAllUsesExcept(cast, cast.getOperation());
    }
    func.setFunctionType(FunctionType::get(ctx, inputs, {}));
  }

  F16TypeConverter converter;
  RewritePatternSet patterns(ctx);
  patterns.add<LoadF16, StoreF16, ConstantF16, ConvertF16, ComputeInF32>(
      converter, ctx);
  populateFunctionOpInterfaceTypeConversionPattern<gpu::GPUFuncOp>(patterns,
                                                                   converter);
  ConversionTarget target(*ctx);
  target.markUnknownOpDynamicallyLegal([&](Operation *op) {
    if (auto func = dyn_cast<gpu::GPUFuncOp>(op))
      return converter.isSignatureLegal(func.getFunctionType());
    return converter.isLegal(op);
  });
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  if (failed(applyPartialConversion(module, target, std::move(patterns))))
    return failure();
  if (usesF16(module))
    return module.emitError("f16 values are left after emulating f16");
  return success();
}
