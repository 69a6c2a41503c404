//===- EmulateHalfFloats.cpp - f16 and bf16 kernels in f32 ----------------===//
//
// OpenCL devices need cl_khr_fp16 for arithmetic on `half` (the Float16
// capability); many have none (PoCL's CPU device, for one), and core SPIR-V
// has no bfloat16 at all. Kernels for them keep f16 and bf16 data as its 16
// bits (i16 buffers and scalars) and compute in f32: a load decodes the bits
// exactly, every f16 or bf16 result is rounded to the nearest value of its
// type (ties to even), as hardware of that type and NumPy would, and a store
// encodes the rounded value. The conversions are integer code, so they do
// not depend on the device's rounding modes.
//
//===----------------------------------------------------------------------===//

#include "sluice/Target/SPIRV/EmulateHalfFloats.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

/// The 16-bit float types computed in f32.
bool isHalf(Type t) { return t.isF16() || t.isBF16(); }

bool mentionsHalf(Type t, bool bf16Only) {
  if (auto m = dyn_cast<MemRefType>(t))
    t = m.getElementType();
  return bf16Only ? t.isBF16() : isHalf(t);
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

  /// The f32 value of bf16 bits (exact).
  Value decodeBF16(Value half) {
    Value h = arith::ExtUIOp::create(b, loc, i32(), half);
    return arith::BitcastOp::create(b, loc, b.getF32Type(), shl(h, c(16)));
  }

  /// The bf16 bits nearest to an f32 value (ties to even; NaN stays NaN).
  Value encodeBF16(Value f) {
    Value x = arith::BitcastOp::create(b, loc, i32(), f);
    Value odd = andI(shr(x, c(16)), c(1));
    Value rounded = shr(add(add(x, c(0x7fff)), odd), c(16));
    Value nan = orI(shr(x, c(16)), c(0x40));
    Value isNan =
        cmp(arith::CmpIPredicate::ugt, andI(x, c(0x7fffffff)), c(0x7f800000));
    return arith::TruncIOp::create(b, loc, b.getI16Type(),
                                   select(isNan, nan, rounded));
  }

  /// Bits of type `type` (f16 or bf16) as an f32 value, and back.
  Value decode(Value bits, Type type) {
    return type.isBF16() ? decodeBF16(bits) : decode(bits);
  }
  Value encode(Value f, Type type) {
    return type.isBF16() ? encodeBF16(f) : encode(f);
  }

  /// An f32 value rounded to the nearest value of `type`, still as f32.
  Value round(Value f, Type type) { return decode(encode(f, type), type); }

  /// An f64 value rounded to f32 so that rounding that to f16 or bf16
  /// rounds the f64 value once: toward zero, with the last bit set when
  /// inexact ("round to odd"; f32 keeps 13 more bits than f16, 16 more than
  /// bf16).
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

class HalfTypeConverter : public TypeConverter {
public:
  explicit HalfTypeConverter(bool bf16Only) {
    addConversion([](Type t) { return t; });
    addConversion([bf16Only](FloatType t) -> Type {
      return mentionsHalf(t, bf16Only) ? Float32Type::get(t.getContext()) : t;
    });
    addConversion([bf16Only](MemRefType t) -> Type {
      if (!mentionsHalf(t, bf16Only))
        return t;
      return MemRefType::get(t.getShape(), IntegerType::get(t.getContext(), 16),
                             t.getLayout(), t.getMemorySpace());
    });
  }
};

/// Ops whose results need no rounding: they are exact on f16/bf16 values.
bool isExact(Operation *op) {
  return isa<arith::SelectOp, arith::NegFOp, arith::MaximumFOp,
             arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
             math::AbsFOp, math::CopySignOp, math::FloorOp, math::CeilOp,
             math::RoundOp, math::RoundEvenOp, math::TruncOp>(op);
}

struct LoadHalf : OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (getTypeConverter()->isLegal(op.getType()))
      return failure();
    Value bits = memref::LoadOp::create(
        rewriter, op.getLoc(), adaptor.getMemref(), adaptor.getIndices());
    rewriter.replaceOp(op,
                       Bits{rewriter, op.getLoc()}.decode(bits, op.getType()));
    return success();
  }
};

struct StoreHalf : OpConversionPattern<memref::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getValueToStore().getType();
    if (getTypeConverter()->isLegal(type))
      return failure();
    Value bits = Bits{rewriter, op.getLoc()}.encode(adaptor.getValue(), type);
    rewriter.replaceOpWithNewOp<memref::StoreOp>(op, bits, adaptor.getMemref(),
                                                 adaptor.getIndices());
    return success();
  }
};

struct ConstantHalf : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto attr = dyn_cast<FloatAttr>(op.getValue());
    if (!attr || getTypeConverter()->isLegal(attr.getType()))
      return failure();
    bool lost = false;
    APFloat v = attr.getValue();
    v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, rewriter.getF32FloatAttr(v.convertToFloat()));
    return success();
  }
};

/// Conversions between float types: the emulated value is an exact f32
/// (extf only widens it further; truncf rounds it, from f64 through f32
/// rounded to odd), bitcasts between a half type and i16 decode and encode.
struct ConvertHalf : ConversionPattern {
  ConvertHalf(const TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/2, ctx) {}

  /// `v` (a converted value) as type `to`, rounded to `to` when that is
  /// emulated.
  Value castTo(Bits &bits, Value v, Type to) const {
    OpBuilder &b = bits.b;
    Location loc = bits.loc;
    Type from = v.getType();
    if (getTypeConverter()->isLegal(to)) {
      if (from == to)
        return v;
      if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
        return arith::ExtFOp::create(b, loc, to, v);
      return arith::TruncFOp::create(b, loc, to, v);
    }
    if (from.isF64())
      v = bits.toF32Odd(v);
    else if (!from.isF32())
      v = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    return bits.round(v, to);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    Bits bits{rewriter, loc};
    const TypeConverter &tc = *getTypeConverter();
    if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
        (!tc.isLegal(op->getOperand(0).getType()) ||
         !tc.isLegal(op->getResult(0).getType()))) {
      rewriter.replaceOp(op,
                         castTo(bits, operands[0], op->getResult(0).getType()));
      return success();
    }
    if (auto cast = dyn_cast<arith::BitcastOp>(op)) {
      if (!tc.isLegal(cast.getType())) {
        rewriter.replaceOp(op, bits.decode(operands[0], cast.getType()));
        return success();
      }
      if (!tc.isLegal(cast.getIn().getType())) {
        rewriter.replaceOp(op,
                           bits.encode(operands[0], cast.getIn().getType()));
        return success();
      }
    }
    return failure();
  }
};

/// Other arith and math ops on emulated types: the same op on f32, its
/// results rounded to their type.
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
      if (!getTypeConverter()->isLegal(orig.getType()) && !isExact(op))
        result = Bits{rewriter, op->getLoc()}.round(result, orig.getType());
      results.push_back(result);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

bool sluice::usesHalfFloats(gpu::GPUModuleOp module, bool bf16Only) {
  bool found = false;
  auto check = [&](TypeRange types) {
    found = found || llvm::any_of(types, [&](Type t) {
              return mentionsHalf(t, bf16Only);
            });
  };
  module.walk([&](Operation *op) {
    check(op->getOperandTypes());
    check(op->getResultTypes());
    for (Region &r : op->getRegions())
      for (Block &block : r)
        check(block.getArgumentTypes());
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

LogicalResult sluice::emulateHalfFloats(gpu::GPUModuleOp module,
                                        bool bf16Only) {
  MLIRContext *ctx = module.getContext();
  auto emulated = [&](Type t) { return mentionsHalf(t, bf16Only); };
  // Scalar arguments arrive as their 16 bits (the host passes 2 bytes).
  for (auto func : module.getOps<gpu::GPUFuncOp>()) {
    auto emulatedArg = [&](BlockArgument a) { return emulated(a.getType()); };
    if (llvm::any_of(func.getWorkgroupAttributions(), emulatedArg) ||
        llvm::any_of(func.getPrivateAttributions(), emulatedArg))
      return func.emitError("f16 or bf16 workgroup or private memory cannot "
                            "be emulated in f32");
    Block &entry = func.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    SmallVector<Type> inputs(func.getArgumentTypes());
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      BlockArgument arg = func.getArgument(i);
      Type type = arg.getType();
      if (!isa<FloatType>(type) || !emulated(type))
        continue;
      arg.setType(b.getI16Type());
      inputs[i] = b.getI16Type();
      auto cast = arith::BitcastOp::create(b, arg.getLoc(), type, arg);
      arg.replaceAllUsesExcept(cast, cast.getOperation());
    }
    func.setFunctionType(FunctionType::get(ctx, inputs, {}));
  }

  HalfTypeConverter converter(bf16Only);
  RewritePatternSet patterns(ctx);
  patterns.add<LoadHalf, StoreHalf, ConstantHalf, ConvertHalf, ComputeInF32>(
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
  if (usesHalfFloats(module, bf16Only))
    return module.emitError("f16 or bf16 values are left after emulating "
                            "them in f32");
  return success();
}
