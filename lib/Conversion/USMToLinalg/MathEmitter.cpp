//===- MathEmitter.cpp - scalar lowering of the function table ------------===//
//
// One entry per row of USMMathOps.td, keyed by the op's mnemonic: the scalar
// function on signless values, with NumPy's results for NaN, infinities,
// signed zeros and integer edge cases. Functions that the math dialect has
// become math ops (each target lowers them: libm/libmvec on the host,
// OpenCL.std on SPIR-V after ExpandMathForOpenCL, libdevice on CUDA); the
// others are written here in arith on the values' bits, so that they are
// exact and the same on every target.
//
//===----------------------------------------------------------------------===//

#include "MathEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/StringMap.h"

#include <cmath>
#include <functional>

using namespace mlir;

namespace {

using P = arith::CmpFPredicate;
using I = arith::CmpIPredicate;

/// What a scalar function is emitted with.
struct Emit {
  OpBuilder &b;
  Location loc;
  Type element; // usm element type (signedness)
  bool isFloat, isUnsigned;

  Value fc(Type t, double v) {
    return arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, v));
  }
  Value ic(Type t, int64_t v) {
    return arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
  }
  Value sel(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value cmpf(P p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value cmpi(I p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value xorI(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }
  Value addf(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value subf(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mulf(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value divf(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value addi(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value subi(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value absf(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value isNan(Value x) { return cmpf(P::UNO, x, x); }
  Value isInf(Value x) {
    return cmpf(P::OEQ, absf(x), fc(x.getType(), INFINITY));
  }
  Value bitsOf(Value x) {
    return arith::BitcastOp::create(b, loc, intType(x.getType()), x);
  }
  Value fromBits(Type ft, Value bits) {
    return arith::BitcastOp::create(b, loc, ft, bits);
  }
  static Type intType(Type ft) {
    return IntegerType::get(ft.getContext(), ft.getIntOrFloatBitWidth());
  }
  /// Mantissa bits (without the implicit one) and exponent bias of `ft`.
  static unsigned mantissaBits(Type ft) {
    return cast<FloatType>(ft).getFPMantissaWidth() - 1;
  }
  static int64_t bias(Type ft) {
    unsigned e = ft.getIntOrFloatBitWidth() - 1 - mantissaBits(ft);
    return (int64_t(1) << (e - 1)) - 1;
  }
};

using Fn = std::function<Value(Emit &, ValueRange)>;

template <typename OpTy> Fn unaryMath() {
  return [](Emit &e, ValueRange a) -> Value {
    return OpTy::create(e.b, e.loc, a[0]);
  };
}

/// A rounding function: the math op on floats, the identity on integers.
template <typename OpTy> Fn rounding() {
  return [](Emit &e, ValueRange a) -> Value {
    if (!e.isFloat)
      return a[0];
    return OpTy::create(e.b, e.loc, a[0]);
  };
}

Value nextafter(Emit &e, Value x, Value y) {
  Type t = x.getType(), it = Emit::intType(t);
  Value bits = e.bitsOf(x);
  Value up = e.xorI(e.cmpf(P::OGT, y, x), e.cmpf(P::OLT, x, e.fc(t, 0)));
  Value next = e.fromBits(
      t, e.sel(up, e.addi(bits, e.ic(it, 1)), e.subi(bits, e.ic(it, 1))));
  Value tiny =
      math::CopySignOp::create(e.b, e.loc, e.fromBits(t, e.ic(it, 1)), y);
  Value r = e.sel(e.cmpf(P::OEQ, x, e.fc(t, 0)), tiny, next);
  r = e.sel(e.cmpf(P::OEQ, x, y), y, r);
  return e.sel(e.orI(e.isNan(x), e.isNan(y)), e.addf(x, y), r);
}

/// x * 2**k for an i32 k within the normal exponent range.
Value scaleByPow2(Emit &e, Value x, Value k) {
  Type t = x.getType(), it = Emit::intType(t);
  Value biased = e.addi(k, e.ic(k.getType(), Emit::bias(t)));
  unsigned w = it.getIntOrFloatBitWidth();
  if (w < 32)
    biased = arith::TruncIOp::create(e.b, e.loc, it, biased);
  else if (w > 32)
    biased = arith::ExtSIOp::create(e.b, e.loc, it, biased);
  Value p =
      e.fromBits(t, arith::ShLIOp::create(e.b, e.loc, biased,
                                          e.ic(it, Emit::mantissaBits(t))));
  return e.mulf(x, p);
}

Value ldexp(Emit &e, Value x, Value n) {
  Type t = x.getType();
  Type i32 = e.b.getI32Type();
  int64_t bias = Emit::bias(t);
  double lim = double(2 * bias + Emit::mantissaBits(t) + 2);
  Value nc = e.sel(e.cmpf(P::OGT, n, e.fc(t, lim)), e.fc(t, lim), n);
  nc = e.sel(e.cmpf(P::OLT, nc, e.fc(t, -lim)), e.fc(t, -lim), nc);
  nc = e.sel(e.isNan(nc), e.fc(t, 0), nc);
  // In f16 the limit itself is not representable as an integer beyond 2048,
  // but every clamped value is.
  Value k = arith::FPToSIOp::create(e.b, e.loc, i32, nc);
  Value lo = e.ic(i32, 1 - bias), hi = e.ic(i32, bias);
  for (int step = 0; step < 3; ++step) {
    Value ks = arith::MaxSIOp::create(
        e.b, e.loc, lo, arith::MinSIOp::create(e.b, e.loc, hi, k));
    x = scaleByPow2(e, x, ks);
    k = e.subi(k, ks);
  }
  return x;
}

/// frexp: the mantissa in [0.5, 1) and the exponent (as an integer value of
/// type i32). Zeros, infinities and NaN give themselves and 0.
std::pair<Value, Value> frexp(Emit &e, Value x) {
  Type t = x.getType(), it = Emit::intType(t), i32 = e.b.getI32Type();
  unsigned mb = Emit::mantissaBits(t);
  int64_t bias = Emit::bias(t);
  unsigned w = it.getIntOrFloatBitWidth();
  int64_t emask = (int64_t(1) << (w - 1 - mb)) - 1;
  Value field =
      e.andI(arith::ShRUIOp::create(e.b, e.loc, e.bitsOf(x), e.ic(it, mb)),
             e.ic(it, emask));
  Value sub = e.cmpi(I::eq, field, e.ic(it, 0));
  Value scaled = e.mulf(x, e.fc(t, std::ldexp(1.0, mb + 1)));
  Value xs = e.sel(sub, scaled, x);
  Value bits = e.bitsOf(xs);
  Value f2 = e.andI(arith::ShRUIOp::create(e.b, e.loc, bits, e.ic(it, mb)),
                    e.ic(it, emask));
  Value f32 = w < 32 ? arith::ExtUIOp::create(e.b, e.loc, i32, f2).getResult()
              : w > 32
                  ? arith::TruncIOp::create(e.b, e.loc, i32, f2).getResult()
                  : f2;
  Value exp = e.subi(f32, e.ic(i32, bias - 1));
  exp = e.sel(sub, e.subi(exp, e.ic(i32, mb + 1)), exp);
  int64_t clear = ~(emask << mb);
  Value mbits =
      e.orI(e.andI(bits, e.ic(it, clear)), e.ic(it, (bias - 1) << mb));
  Value mant = e.fromBits(t, mbits);
  Value special = e.orI(e.cmpf(P::OEQ, x, e.fc(t, 0)),
                        e.cmpf(P::UGE, e.absf(x), e.fc(t, INFINITY)));
  return {e.sel(special, x, mant), e.sel(special, e.ic(i32, 0), exp)};
}

Value hypot(Emit &e, Value x, Value y) {
  Type t = x.getType();
  if (t.getIntOrFloatBitWidth() < 32) {
    // Half types: in f32 and rounded once (the scaled formula in half
    // arithmetic rounds four times, over 2 ulp).
    Type f32 = Float32Type::get(t.getContext());
    Value h = hypot(e, arith::ExtFOp::create(e.b, e.loc, f32, x),
                    arith::ExtFOp::create(e.b, e.loc, f32, y));
    return arith::TruncFOp::create(e.b, e.loc, t, h);
  }
  Value a = e.absf(x), c = e.absf(y);
  Value aBig = e.cmpf(P::OGT, a, c);
  Value mx = e.sel(aBig, a, c), mn = e.sel(aBig, c, a);
  Value r = e.divf(mn, mx);
  Value h = e.mulf(
      mx, math::SqrtOp::create(e.b, e.loc, e.addf(e.fc(t, 1), e.mulf(r, r))));
  // Both zero (a NaN operand makes the sum NaN, which stays NaN).
  h = e.sel(e.cmpf(P::OEQ, e.addf(a, c), e.fc(t, 0)), e.fc(t, 0), h);
  return e.sel(e.orI(e.isInf(x), e.isInf(y)), e.fc(t, INFINITY), h);
}

/// NumPy's logaddexp (base e) and logaddexp2 (base 2).
Value logaddexp(Emit &e, Value x, Value y, bool base2) {
  Type t = x.getType();
  Value tmp = e.subf(x, y);
  auto term = [&](Value d) -> Value { // log_base(1 + base**d), d <= 0
    Value p = base2 ? math::Exp2Op::create(e.b, e.loc, d).getResult()
                    : math::ExpOp::create(e.b, e.loc, d).getResult();
    Value l = math::Log1pOp::create(e.b, e.loc, p);
    return base2 ? e.mulf(l, e.fc(t, 1.4426950408889634)) : l;
  };
  Value negTmp = arith::NegFOp::create(e.b, e.loc, tmp);
  Value r = e.sel(e.cmpf(P::OGT, tmp, e.fc(t, 0)), e.addf(x, term(negTmp)),
                  e.addf(y, term(tmp)));
  r = e.sel(e.isNan(tmp), tmp, r);
  Value same = e.addf(x, e.fc(t, base2 ? 1.0 : 0.6931471805599453));
  return e.sel(e.cmpf(P::OEQ, x, y), same, r);
}

/// |v| of an integer as its unsigned bit pattern (wrapping for the minimum).
Value absInt(Emit &e, Value v) {
  if (e.isUnsigned)
    return v;
  Value zero = e.ic(v.getType(), 0);
  return e.sel(e.cmpi(I::slt, v, zero), e.subi(zero, v), v);
}

/// Euclid's algorithm on unsigned values, unrolled to the worst case for the
/// width (consecutive Fibonacci numbers), branch-free so that it vectorises.
Value gcdUnsigned(Emit &e, Value a, Value c) {
  Type t = a.getType();
  unsigned w = t.getIntOrFloatBitWidth();
  unsigned steps = (w * 3 + 1) / 2 + 2;
  Value zero = e.ic(t, 0), one = e.ic(t, 1);
  for (unsigned i = 0; i < steps; ++i) {
    Value cz = e.cmpi(I::eq, c, zero);
    Value r = arith::RemUIOp::create(e.b, e.loc, a, e.sel(cz, one, c));
    a = e.sel(cz, a, c);
    c = e.sel(cz, zero, r);
  }
  return a;
}

/// Exponentials, logarithms, roots, trigonometric, hyperbolic and error
/// functions: one math op each.
void addTranscendentals(llvm::StringMap<Fn> &m) {
  m["exp"] = unaryMath<math::ExpOp>();
  m["exp2"] = unaryMath<math::Exp2Op>();
  m["expm1"] = unaryMath<math::ExpM1Op>();
  m["log"] = unaryMath<math::LogOp>();
  m["log2"] = unaryMath<math::Log2Op>();
  m["log10"] = unaryMath<math::Log10Op>();
  m["log1p"] = unaryMath<math::Log1pOp>();
  m["sqrt"] = unaryMath<math::SqrtOp>();
  m["cbrt"] = unaryMath<math::CbrtOp>();
  m["rsqrt"] = unaryMath<math::RsqrtOp>();
  m["sin"] = unaryMath<math::SinOp>();
  m["cos"] = unaryMath<math::CosOp>();
  m["tan"] = unaryMath<math::TanOp>();
  m["asin"] = unaryMath<math::AsinOp>();
  m["acos"] = unaryMath<math::AcosOp>();
  m["atan"] = unaryMath<math::AtanOp>();
  m["sinh"] = unaryMath<math::SinhOp>();
  m["cosh"] = unaryMath<math::CoshOp>();
  m["tanh"] = unaryMath<math::TanhOp>();
  m["asinh"] = unaryMath<math::AsinhOp>();
  m["acosh"] = unaryMath<math::AcoshOp>();
  m["atanh"] = unaryMath<math::AtanhOp>();
  m["erf"] = unaryMath<math::ErfOp>();
  m["erfc"] = unaryMath<math::ErfcOp>();
  m["atan2"] = [](Emit &e, ValueRange a) -> Value {
    return math::Atan2Op::create(e.b, e.loc, a[0], a[1]);
  };
  m["copysign"] = [](Emit &e, ValueRange a) -> Value {
    return math::CopySignOp::create(e.b, e.loc, a[0], a[1]);
  };
}

/// Rounding, reciprocal and sign.
void addRoundingAndSign(llvm::StringMap<Fn> &m) {
  m["floor"] = rounding<math::FloorOp>();
  m["ceil"] = rounding<math::CeilOp>();
  m["trunc"] = rounding<math::TruncOp>();
  m["rint"] = rounding<math::RoundEvenOp>();
  m["reciprocal"] = [](Emit &e, ValueRange a) -> Value {
    Type t = a[0].getType();
    if (e.isFloat)
      return e.divf(e.fc(t, 1), a[0]);
    // 1 / x in C: 1 for 1, -1 for -1, 0 otherwise (the minimum for 0,
    // as NumPy's 1.0 / 0 converted).
    Value one = e.ic(t, 1);
    Value r = e.sel(e.cmpi(I::eq, a[0], one), one, e.ic(t, 0));
    if (e.isUnsigned)
      return r;
    Value m1 = e.ic(t, -1);
    r = e.sel(e.cmpi(I::eq, a[0], m1), m1, r);
    unsigned w = t.getIntOrFloatBitWidth();
    return e.sel(e.cmpi(I::eq, a[0], e.ic(t, 0)),
                 e.ic(t, w >= 64 ? INT64_MIN : -(int64_t(1) << (w - 1))), r);
  };
  m["sign"] = [](Emit &e, ValueRange a) -> Value {
    Type t = a[0].getType();
    if (e.isFloat) {
      Value r =
          e.sel(e.cmpf(P::OLT, a[0], e.fc(t, 0)), e.fc(t, -1), e.fc(t, 0));
      r = e.sel(e.cmpf(P::OGT, a[0], e.fc(t, 0)), e.fc(t, 1), r);
      return e.sel(e.isNan(a[0]), a[0], r);
    }
    Value zero = e.ic(t, 0);
    Value r = e.sel(e.cmpi(e.isUnsigned ? I::ugt : I::sgt, a[0], zero),
                    e.ic(t, 1), zero);
    if (e.isUnsigned)
      return r;
    return e.sel(e.cmpi(I::slt, a[0], zero), e.ic(t, -1), r);
  };
}

/// Classification: NaN, infinity, finiteness, sign bit.
void addClassification(llvm::StringMap<Fn> &m) {
  m["isnan"] = [](Emit &e, ValueRange a) -> Value {
    if (!e.isFloat)
      return e.ic(e.b.getI1Type(), 0);
    return e.isNan(a[0]);
  };
  m["isinf"] = [](Emit &e, ValueRange a) -> Value {
    if (!e.isFloat)
      return e.ic(e.b.getI1Type(), 0);
    return e.isInf(a[0]);
  };
  m["isfinite"] = [](Emit &e, ValueRange a) -> Value {
    if (!e.isFloat)
      return e.ic(e.b.getI1Type(), 1);
    return e.cmpf(P::OLT, e.absf(a[0]), e.fc(a[0].getType(), INFINITY));
  };
  m["signbit"] = [](Emit &e, ValueRange a) -> Value {
    Value v = e.isFloat ? e.bitsOf(a[0]) : a[0];
    if (!e.isFloat && e.isUnsigned)
      return e.ic(e.b.getI1Type(), 0);
    return e.cmpi(I::slt, v, e.ic(v.getType(), 0));
  };
}

/// Functions of a float's representation and its neighbours.
void addFloatDecomposition(llvm::StringMap<Fn> &m) {
  m["nextafter"] = [](Emit &e, ValueRange a) -> Value {
    return nextafter(e, a[0], a[1]);
  };
  m["spacing"] = [](Emit &e, ValueRange a) -> Value {
    Type t = a[0].getType();
    Value x = a[0];
    Value toward = math::CopySignOp::create(e.b, e.loc, e.fc(t, INFINITY), x);
    Value r = e.subf(nextafter(e, x, toward), x);
    // +-0 give the smallest subnormal, positive (NumPy).
    r = e.sel(e.cmpf(P::OEQ, x, e.fc(t, 0)),
              e.fromBits(t, e.ic(Emit::intType(t), 1)), r);
    return e.sel(e.isInf(x), e.fc(t, NAN), r);
  };
  m["frexp_mantissa"] = [](Emit &e, ValueRange a) -> Value {
    return frexp(e, a[0]).first;
  };
  m["frexp_exponent"] = [](Emit &e, ValueRange a) -> Value {
    return arith::SIToFPOp::create(e.b, e.loc, a[0].getType(),
                                   frexp(e, a[0]).second);
  };
  m["ldexp"] = [](Emit &e, ValueRange a) -> Value {
    return ldexp(e, a[0], a[1]);
  };
  m["hypot"] = [](Emit &e, ValueRange a) -> Value {
    return hypot(e, a[0], a[1]);
  };
  m["logaddexp"] = [](Emit &e, ValueRange a) -> Value {
    return logaddexp(e, a[0], a[1], false);
  };
  m["logaddexp2"] = [](Emit &e, ValueRange a) -> Value {
    return logaddexp(e, a[0], a[1], true);
  };
}

/// Remainder, maximum and minimum.
void addRemainderAndExtrema(llvm::StringMap<Fn> &m) {
  m["fmod"] = [](Emit &e, ValueRange a) -> Value {
    if (e.isFloat)
      return arith::RemFOp::create(e.b, e.loc, a[0], a[1]);
    // The remainder of C's truncating division; 0 for a zero divisor (and
    // for -1, whose quotient may overflow), computed as x - (x / y) * y
    // (arith.remsi's SPIR-V lowering mishandles the minimum value).
    Type t = a[0].getType();
    Value zero = e.ic(t, 0), one = e.ic(t, 1);
    Value unsafe = e.cmpi(I::eq, a[1], zero);
    if (!e.isUnsigned)
      unsafe = e.orI(unsafe, e.cmpi(I::eq, a[1], e.ic(t, -1)));
    Value y = e.sel(unsafe, one, a[1]);
    Value q = e.isUnsigned
                  ? arith::DivUIOp::create(e.b, e.loc, a[0], y).getResult()
                  : arith::DivSIOp::create(e.b, e.loc, a[0], y).getResult();
    Value r = e.subi(a[0], arith::MulIOp::create(e.b, e.loc, q, y));
    return e.sel(unsafe, zero, r);
  };
  m["fmax"] = [](Emit &e, ValueRange a) -> Value {
    if (e.isFloat)
      return arith::MaxNumFOp::create(e.b, e.loc, a[0], a[1]);
    if (a[0].getType().isInteger(1))
      return e.orI(a[0], a[1]);
    if (e.isUnsigned)
      return arith::MaxUIOp::create(e.b, e.loc, a[0], a[1]);
    return arith::MaxSIOp::create(e.b, e.loc, a[0], a[1]);
  };
  m["fmin"] = [](Emit &e, ValueRange a) -> Value {
    if (e.isFloat)
      return arith::MinNumFOp::create(e.b, e.loc, a[0], a[1]);
    if (a[0].getType().isInteger(1))
      return e.andI(a[0], a[1]);
    if (e.isUnsigned)
      return arith::MinUIOp::create(e.b, e.loc, a[0], a[1]);
    return arith::MinSIOp::create(e.b, e.loc, a[0], a[1]);
  };
}

/// Bitwise operations, shifts, gcd and lcm.
void addIntegerFunctions(llvm::StringMap<Fn> &m) {
  m["bitwise_and"] = [](Emit &e, ValueRange a) -> Value {
    return e.andI(a[0], a[1]);
  };
  m["bitwise_or"] = [](Emit &e, ValueRange a) -> Value {
    return e.orI(a[0], a[1]);
  };
  m["bitwise_xor"] = [](Emit &e, ValueRange a) -> Value {
    return e.xorI(a[0], a[1]);
  };
  m["bitwise_not"] = [](Emit &e, ValueRange a) -> Value {
    return e.xorI(a[0], e.ic(a[0].getType(), -1));
  };
  // NumPy: counts at or above the width (or negative) shift everything
  // out: 0 to the left, the sign to the right.
  m["left_shift"] = [](Emit &e, ValueRange a) -> Value {
    Type t = a[0].getType();
    Value zero = e.ic(t, 0);
    Value ok = e.cmpi(I::ult, a[1], e.ic(t, t.getIntOrFloatBitWidth()));
    Value s = arith::ShLIOp::create(e.b, e.loc, a[0], e.sel(ok, a[1], zero));
    return e.sel(ok, s, zero);
  };
  m["right_shift"] = [](Emit &e, ValueRange a) -> Value {
    Type t = a[0].getType();
    unsigned w = t.getIntOrFloatBitWidth();
    Value zero = e.ic(t, 0);
    Value ok = e.cmpi(I::ult, a[1], e.ic(t, w));
    Value cnt = e.sel(ok, a[1], e.ic(t, e.isUnsigned ? 0 : w - 1));
    if (e.isUnsigned)
      return e.sel(ok, arith::ShRUIOp::create(e.b, e.loc, a[0], cnt), zero);
    return arith::ShRSIOp::create(e.b, e.loc, a[0], cnt);
  };
  m["gcd"] = [](Emit &e, ValueRange a) -> Value {
    return gcdUnsigned(e, absInt(e, a[0]), absInt(e, a[1]));
  };
  m["lcm"] = [](Emit &e, ValueRange a) -> Value {
    Value x = absInt(e, a[0]), y = absInt(e, a[1]);
    Value g = gcdUnsigned(e, x, y);
    Type t = x.getType();
    Value gz = e.cmpi(I::eq, g, e.ic(t, 0));
    Value q = arith::DivUIOp::create(e.b, e.loc, x, e.sel(gz, e.ic(t, 1), g));
    return e.sel(gz, e.ic(t, 0), arith::MulIOp::create(e.b, e.loc, q, y));
  };
}

const llvm::StringMap<Fn> &table() {
  static const llvm::StringMap<Fn> fns = [] {
    llvm::StringMap<Fn> m;
    addTranscendentals(m);
    addRoundingAndSign(m);
    addClassification(m);
    addFloatDecomposition(m);
    addRemainderAndExtrema(m);
    addIntegerFunctions(m);
    return m;
  }();
  return fns;
}

} // namespace

Value sluice::usm::emitMathFunction(OpBuilder &b, Location loc, Operation *op,
                                    Type element, ValueRange args) {
  auto it = table().find(op->getName().stripDialect());
  if (it == table().end())
    return nullptr;
  bool isFloat = isa<FloatType>(element);
  Emit e{b, loc, element, isFloat,
         element.isUnsignedInteger() || element.isInteger(1)};
  return it->second(e, args);
}
