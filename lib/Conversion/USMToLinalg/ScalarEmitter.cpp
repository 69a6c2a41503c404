//===- ScalarEmitter.cpp - scalar bodies of elementwise usm ops -----------===//
//
// Each elementwise usm op is a scalar function applied at every point. This
// file emits that function with arith/math ops on signless values, taking
// signedness from the op's usm element types and NumPy's semantics for
// division, remainder, comparisons with NaN and conversions.
//
//===----------------------------------------------------------------------===//

#include "MathEmitter.h"
#include "sluice/Conversion/USMToLinalg/USMToLinalg.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace sluice::usm;

Type sluice::usm::getStorageElementType(Type type) {
  if (auto i = dyn_cast<IntegerType>(type); i && !i.isSignless())
    return IntegerType::get(type.getContext(), i.getWidth());
  return type;
}

static Value constantLike(OpBuilder &b, Location loc, Type type, double f,
                          int64_t i) {
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, f));
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, i));
}

static Value isNonZero(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  if (t.isInteger(1))
    return v;
  Value zero = constantLike(b, loc, t, 0.0, 0);
  if (isa<FloatType>(t))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zero);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
}

Value sluice::usm::emitScalarCast(OpBuilder &b, Location loc, Value v,
                                  Type from, Type to) {
  if (from == to)
    return v;
  if (isa<ComplexType>(from) || isa<ComplexType>(to))
    return emitComplexCast(b, loc, v, from, to);
  Type st = getStorageElementType(to);
  if (to.isInteger(1))
    return isNonZero(b, loc, v);
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  bool fromUnsigned = from.isUnsignedInteger() || from.isInteger(1);
  if (fromFloat && toFloat) {
    unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
    if (fw < tw)
      return arith::ExtFOp::create(b, loc, st, v);
    if (fw > tw)
      return arith::TruncFOp::create(b, loc, st, v);
    // f16 <-> bf16: go through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    return arith::TruncFOp::create(b, loc, st, wide);
  }
  if (!fromFloat && toFloat) {
    if (fromUnsigned)
      return arith::UIToFPOp::create(b, loc, st, v);
    return arith::SIToFPOp::create(b, loc, st, v);
  }
  if (fromFloat && !toFloat) {
    if (to.isUnsignedInteger())
      return arith::FPToUIOp::create(b, loc, st, v);
    return arith::FPToSIOp::create(b, loc, st, v);
  }
  unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
  if (fw == tw)
    return v;
  if (fw > tw)
    return arith::TruncIOp::create(b, loc, st, v);
  if (fromUnsigned)
    return arith::ExtUIOp::create(b, loc, st, v);
  return arith::ExtSIOp::create(b, loc, st, v);
}

/// Integer division and remainder with NumPy's conventions: the quotient
/// rounds toward negative infinity, the remainder takes the divisor's sign,
/// and division by zero gives 0 instead of undefined behaviour. Signed
/// division by -1 never reaches the hardware divide either (the minimum value
/// divided by -1 overflows, which is undefined in arith and LLVM): the
/// quotient is the wrapping negation, as in NumPy, and the remainder 0.
static Value emitIntDivRem(OpBuilder &b, Location loc, Value x, Value y,
                           bool isUnsigned, bool wantRemainder) {
  Type t = x.getType();
  Value zero = constantLike(b, loc, t, 0, 0),
        one = constantLike(b, loc, t, 0, 1);
  Value yIsZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  Value yIsMinusOne;
  Value unsafe = yIsZero;
  if (!isUnsigned) {
    yIsMinusOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y,
                                        constantLike(b, loc, t, 0, -1));
    unsafe = arith::OrIOp::create(b, loc, yIsZero, yIsMinusOne);
  }
  Value safeY = arith::SelectOp::create(b, loc, unsafe, one, y);
  Value r;
  if (isUnsigned) {
    r = wantRemainder ? arith::RemUIOp::create(b, loc, x, safeY).getResult()
                      : arith::DivUIOp::create(b, loc, x, safeY).getResult();
  } else if (!wantRemainder) {
    r = arith::FloorDivSIOp::create(b, loc, x, safeY);
    Value negated = arith::SubIOp::create(b, loc, zero, x);
    r = arith::SelectOp::create(b, loc, yIsMinusOne, negated, r);
  } else {
    // x - (x // y) * y, wrapping: the remainder with the divisor's sign,
    // without arith.remsi, whose SPIR-V lowering (|x| umod |y| given the sign
    // of x) takes |INT_MIN| for positive and gets the minimum value wrong.
    // With y = -1 the divisor is 1 here and the remainder 0, as it should.
    Value q = arith::FloorDivSIOp::create(b, loc, x, safeY);
    r = arith::SubIOp::create(b, loc, x,
                              arith::MulIOp::create(b, loc, q, safeY));
  }
  return arith::SelectOp::create(b, loc, yIsZero, zero, r);
}

/// NumPy's float floor_divide (npy_floor_divide): the quotient of
/// `(x - fmod(x, y)) / y`, corrected like the remainder and snapped to the
/// nearest integer, rather than floor(x / y), which rounds wrongly when x / y
/// rounds up to an integer (1.0 // 0.1 is 9.0) and gives +-inf instead of
/// NaN for an infinite x (and 0 instead of -1 for x // inf with x < 0).
/// Division by zero is x / y.
static Value emitFloatFloorDivide(OpBuilder &b, Location loc, Value x,
                                  Value y) {
  using P = arith::CmpFPredicate;
  Type t = x.getType();
  Value zero = constantLike(b, loc, t, 0.0, 0),
        one = constantLike(b, loc, t, 1.0, 0),
        half = constantLike(b, loc, t, 0.5, 0);
  Value quotient = arith::DivFOp::create(b, loc, x, y);
  Value mod = arith::RemFOp::create(b, loc, x, y);
  Value div =
      arith::DivFOp::create(b, loc, arith::SubFOp::create(b, loc, x, mod), y);
  // A non-zero (or NaN) remainder whose sign differs from the divisor's.
  Value modNonZero = arith::CmpFOp::create(b, loc, P::UNE, mod, zero);
  Value modNeg = arith::CmpFOp::create(b, loc, P::OLT, mod, zero);
  Value yNeg = arith::CmpFOp::create(b, loc, P::OLT, y, zero);
  Value fix = arith::AndIOp::create(
      b, loc, modNonZero, arith::XOrIOp::create(b, loc, modNeg, yNeg));
  div = arith::SelectOp::create(b, loc, fix,
                                arith::SubFOp::create(b, loc, div, one), div);
  Value floor = math::FloorOp::create(b, loc, div);
  Value roundUp = arith::CmpFOp::create(
      b, loc, P::OGT, arith::SubFOp::create(b, loc, div, floor), half);
  Value snapped = arith::SelectOp::create(
      b, loc, roundUp, arith::AddFOp::create(b, loc, floor, one), floor);
  Value divIsZero = arith::CmpFOp::create(b, loc, P::OEQ, div, zero);
  Value signedZero = math::CopySignOp::create(b, loc, zero, quotient);
  Value result =
      arith::SelectOp::create(b, loc, divIsZero, signedZero, snapped);
  Value yIsZero = arith::CmpFOp::create(b, loc, P::OEQ, y, zero);
  return arith::SelectOp::create(b, loc, yIsZero, quotient, result);
}

static Value emitFloatRemainder(OpBuilder &b, Location loc, Value x, Value y) {
  Value zero = constantLike(b, loc, x.getType(), 0.0, 0);
  Value rem = arith::RemFOp::create(b, loc, x, y);
  Value remNonZero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, rem, zero);
  Value remNeg =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, rem, zero);
  Value yNeg =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, y, zero);
  Value signsDiffer = arith::XOrIOp::create(b, loc, remNeg, yNeg);
  Value fix = arith::AndIOp::create(b, loc, remNonZero, signsDiffer);
  Value adjusted = arith::AddFOp::create(b, loc, rem, y);
  Value result = arith::SelectOp::create(b, loc, fix, adjusted, rem);
  // A zero remainder takes the divisor's sign (NumPy, the Array API):
  // remainder(-0.0, 1.0) is +0.0 and remainder(0.0, -1.0) is -0.0.
  Value remIsZero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, rem, zero);
  Value signedZero = math::CopySignOp::create(b, loc, zero, y);
  return arith::SelectOp::create(b, loc, remIsZero, signedZero, result);
}

/// Integer power by square-and-multiply over every bit of the exponent,
/// branch-free so that it vectorises (math.ipowi has no lowering on the
/// kernels' targets). Products wrap, as in NumPy. A negative signed exponent
/// gives 1 / x**-e truncated toward zero: 1 for x = 1, +-1 for x = -1 and 0
/// otherwise (NumPy refuses integers to negative integer powers).
static Value emitIntPow(OpBuilder &b, Location loc, Value x, Value e,
                        bool isUnsigned) {
  using I = arith::CmpIPredicate;
  Type t = x.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  Value zero = constantLike(b, loc, t, 0, 0),
        one = constantLike(b, loc, t, 0, 1);
  Value result = one, base = x;
  for (unsigned i = 0; i < width; ++i) {
    Value shifted =
        arith::ShRUIOp::create(b, loc, e, constantLike(b, loc, t, 0, i));
    Value bit = arith::CmpIOp::create(
        b, loc, I::ne, arith::AndIOp::create(b, loc, shifted, one), zero);
    result = arith::SelectOp::create(
        b, loc, bit, arith::MulIOp::create(b, loc, result, base), result);
    if (i + 1 < width)
      base = arith::MulIOp::create(b, loc, base, base);
  }
  if (isUnsigned)
    return result;
  Value minusOne = constantLike(b, loc, t, 0, -1);
  Value eNeg = arith::CmpIOp::create(b, loc, I::slt, e, zero);
  Value eOdd = arith::CmpIOp::create(
      b, loc, I::ne, arith::AndIOp::create(b, loc, e, one), zero);
  Value xIsOne = arith::CmpIOp::create(b, loc, I::eq, x, one);
  Value xIsMinusOne = arith::CmpIOp::create(b, loc, I::eq, x, minusOne);
  Value ofMinusOne = arith::SelectOp::create(b, loc, eOdd, minusOne, one);
  Value reciprocal = arith::SelectOp::create(
      b, loc, xIsOne, one,
      arith::SelectOp::create(b, loc, xIsMinusOne, ofMinusOne, zero));
  return arith::SelectOp::create(b, loc, eNeg, reciprocal, result);
}

static Value emitCompare(OpBuilder &b, Location loc, Value x, Value y,
                         Type element, arith::CmpFPredicate fp,
                         arith::CmpIPredicate sp, arith::CmpIPredicate up) {
  if (isa<FloatType>(element))
    return arith::CmpFOp::create(b, loc, fp, x, y);
  bool u = element.isUnsignedInteger() || element.isInteger(1);
  return arith::CmpIOp::create(b, loc, u ? up : sp, x, y);
}

Type sluice::usm::dataElementType(Operation *op) {
  for (Type t : op->getOperandTypes())
    if (auto a = dyn_cast<ArrayType>(t))
      return a.getElementType();
  return op->getOperand(0).getType();
}

Value sluice::usm::emitScalarOp(OpBuilder &b, Location loc, Operation *op,
                                ValueRange args) {
  if (auto cast = dyn_cast<AstypeOp>(op))
    return emitScalarCast(b, loc, args[0],
                          cast.getOperand().getType().getElementType(),
                          cast.getType().getElementType());
  if (isa<WhereOp>(op))
    return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
  if (isComplexScalarOp(op))
    return emitComplexScalarOp(b, loc, op, args);

  Type element = dataElementType(op);
  bool isFloat = isa<FloatType>(element);
  bool isUnsigned = element.isUnsignedInteger() || element.isInteger(1);
  using P = arith::CmpFPredicate;
  using I = arith::CmpIPredicate;

  return TypeSwitch<Operation *, Value>(op)
      .Case<AddOp>([&](auto) -> Value {
        if (isFloat)
          return arith::AddFOp::create(b, loc, args[0], args[1]);
        return arith::AddIOp::create(b, loc, args[0], args[1]);
      })
      .Case<SubOp>([&](auto) -> Value {
        if (isFloat)
          return arith::SubFOp::create(b, loc, args[0], args[1]);
        return arith::SubIOp::create(b, loc, args[0], args[1]);
      })
      .Case<MulOp>([&](auto) -> Value {
        if (isFloat)
          return arith::MulFOp::create(b, loc, args[0], args[1]);
        return arith::MulIOp::create(b, loc, args[0], args[1]);
      })
      .Case<DivOp>([&](auto) -> Value {
        return arith::DivFOp::create(b, loc, args[0], args[1]);
      })
      .Case<FloorDivideOp>([&](auto) -> Value {
        if (isFloat)
          return emitFloatFloorDivide(b, loc, args[0], args[1]);
        return emitIntDivRem(b, loc, args[0], args[1], isUnsigned, false);
      })
      .Case<RemainderOp>([&](auto) -> Value {
        if (isFloat)
          return emitFloatRemainder(b, loc, args[0], args[1]);
        return emitIntDivRem(b, loc, args[0], args[1], isUnsigned, true);
      })
      .Case<PowOp>([&](auto) -> Value {
        if (isFloat)
          return math::PowFOp::create(b, loc, args[0], args[1]);
        return emitIntPow(b, loc, args[0], args[1], isUnsigned);
      })
      .Case<MaximumOp>([&](auto) -> Value {
        if (isFloat)
          return arith::MaximumFOp::create(b, loc, args[0], args[1]);
        if (isUnsigned)
          return arith::MaxUIOp::create(b, loc, args[0], args[1]);
        return arith::MaxSIOp::create(b, loc, args[0], args[1]);
      })
      .Case<MinimumOp>([&](auto) -> Value {
        if (isFloat)
          return arith::MinimumFOp::create(b, loc, args[0], args[1]);
        if (isUnsigned)
          return arith::MinUIOp::create(b, loc, args[0], args[1]);
        return arith::MinSIOp::create(b, loc, args[0], args[1]);
      })
      // NumPy: every comparison with NaN is false except `!=`.
      .Case<EqOp>([&](auto) {
        return emitCompare(b, loc, args[0], args[1], element, P::OEQ, I::eq,
                           I::eq);
      })
      .Case<NeOp>([&](auto) {
        return emitCompare(b, loc, args[0], args[1], element, P::UNE, I::ne,
                           I::ne);
      })
      .Case<LtOp>([&](auto) {
        return emitCompare(b, loc, args[0], args[1], element, P::OLT, I::slt,
                           I::ult);
      })
      .Case<LeOp>([&](auto) {
        return emitCompare(b, loc, args[0], args[1], element, P::OLE, I::sle,
                           I::ule);
      })
      .Case<GtOp>([&](auto) {
        return emitCompare(b, loc, args[0], args[1], element, P::OGT, I::sgt,
                           I::ugt);
      })
      .Case<GeOp>([&](auto) {
        return emitCompare(b, loc, args[0], args[1], element, P::OGE, I::sge,
                           I::uge);
      })
      .Case<LogicalAndOp>([&](auto) -> Value {
        return arith::AndIOp::create(b, loc, isNonZero(b, loc, args[0]),
                                     isNonZero(b, loc, args[1]));
      })
      .Case<LogicalOrOp>([&](auto) -> Value {
        return arith::OrIOp::create(b, loc, isNonZero(b, loc, args[0]),
                                    isNonZero(b, loc, args[1]));
      })
      .Case<LogicalNotOp>([&](auto) -> Value {
        Value t = constantLike(b, loc, b.getI1Type(), 0, 1);
        return arith::XOrIOp::create(b, loc, isNonZero(b, loc, args[0]), t);
      })
      .Case<NegativeOp>([&](auto) -> Value {
        if (isFloat)
          return arith::NegFOp::create(b, loc, args[0]);
        Value zero = constantLike(b, loc, args[0].getType(), 0, 0);
        return arith::SubIOp::create(b, loc, zero, args[0]);
      })
      .Case<AbsOp>([&](auto) -> Value {
        if (isFloat)
          return math::AbsFOp::create(b, loc, args[0]);
        if (isUnsigned)
          return args[0];
        return math::AbsIOp::create(b, loc, args[0]);
      })
      // The functions of the table (USMMathOps.td).
      .Default([&](Operation *) -> Value {
        return emitMathFunction(b, loc, op, element, args);
      });
}
