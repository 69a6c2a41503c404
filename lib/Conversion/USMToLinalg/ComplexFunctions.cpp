//===- ComplexFunctions.cpp - elementary functions of complex numbers -----===//
//
// The scalar bodies of usm.exp, usm.log, usm.sqrt, the trigonometric and
// hyperbolic functions and their inverses, exp2/expm1/log2/log10/log1p,
// rsqrt, reciprocal, sign, rint and isnan/isinf/isfinite on complex<f32> and
// complex<f64> elements, written with the real math functions (so that
// every backend's real bounds carry over) and MLIR's complex dialect for
// products, quotients, abs and log. Values follow NumPy and C99 Annex G at
// infinities, NaNs and signed zeros, and the Array API's special cases; the
// inverse functions are computed in the first quadrant (they are odd and
// commute with conj), which puts their branch cuts where NumPy has them.
//
//===----------------------------------------------------------------------===//

#include "sluice/Conversion/USMToLinalg/USMToLinalg.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace sluice::usm;

static Value floatConstant(OpBuilder &b, Location loc, Type t, double v) {
  return arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, v));
}

/// The complex number (re, im) of two parts.
static Value makeComplex(OpBuilder &b, Location loc, Value re, Value im) {
  return complex::CreateOp::create(b, loc, ComplexType::get(re.getType()), re,
                                   im);
}

/// `i * z` (exact: the parts swap, one is negated).
static Value timesI(OpBuilder &b, Location loc, Value z) {
  Value re = complex::ReOp::create(b, loc, z);
  Value im = complex::ImOp::create(b, loc, z);
  return makeComplex(b, loc, arith::NegFOp::create(b, loc, im), re);
}

/// `-i * z` (exact).
static Value timesMinusI(OpBuilder &b, Location loc, Value z) {
  Value re = complex::ReOp::create(b, loc, z);
  Value im = complex::ImOp::create(b, loc, z);
  return makeComplex(b, loc, im, arith::NegFOp::create(b, loc, re));
}

/// Both parts of z times the real number c (no 0 * inf of a complex
/// product's cross terms).
static Value scaleParts(OpBuilder &b, Location loc, Value z, double c) {
  Value re = complex::ReOp::create(b, loc, z);
  Value im = complex::ImOp::create(b, loc, z);
  Value k = floatConstant(b, loc, re.getType(), c);
  return makeComplex(b, loc, arith::MulFOp::create(b, loc, re, k),
                     arith::MulFOp::create(b, loc, im, k));
}

/// A real float function applied to both parts.
template <typename OpT>
static Value onParts(OpBuilder &b, Location loc, Value z) {
  Value re = complex::ReOp::create(b, loc, z);
  Value im = complex::ImOp::create(b, loc, z);
  return makeComplex(b, loc, OpT::create(b, loc, re), OpT::create(b, loc, im));
}

using FP = arith::CmpFPredicate;

static Value isInfV(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, FP::OEQ, math::AbsFOp::create(b, loc, x),
                               floatConstant(b, loc, x.getType(), INFINITY));
}

static Value isNanV(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, FP::UNO, x, x);
}

static Value isFiniteV(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, FP::OLT, math::AbsFOp::create(b, loc, x),
                               floatConstant(b, loc, x.getType(), INFINITY));
}

static Value select(OpBuilder &b, Location loc, Value c, Value t, Value f) {
  return arith::SelectOp::create(b, loc, c, t, f);
}

namespace {

/// Real arithmetic on one float type, for the careful algorithms below.
struct Real {
  OpBuilder &b;
  Location loc;
  Type t;
  bool f32() const { return t.isF32(); }
  Value c(double v) { return floatConstant(b, loc, t, v); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value fma(Value x, Value y, Value z) {
    return math::FmaOp::create(b, loc, x, y, z);
  }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value sqrt(Value x) { return math::SqrtOp::create(b, loc, x); }
  Value log(Value x) { return math::LogOp::create(b, loc, x); }
  Value log1p(Value x) { return math::Log1pOp::create(b, loc, x); }
  Value atan(Value x) { return math::AtanOp::create(b, loc, x); }
  Value atan2(Value y, Value x) { return math::Atan2Op::create(b, loc, y, x); }
  Value copysign(Value x, Value s) {
    return math::CopySignOp::create(b, loc, x, s);
  }
  Value max(Value x, Value y) { return arith::MaxNumFOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return arith::MinNumFOp::create(b, loc, x, y); }
  Value cmp(FP p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value lt(Value x, double v) { return cmp(FP::OLT, x, c(v)); }
  Value gt(Value x, double v) { return cmp(FP::OGT, x, c(v)); }
  Value sel(Value p, Value x, Value y) {
    return arith::SelectOp::create(b, loc, p, x, y);
  }
  Value both(Value p, Value q) { return arith::AndIOp::create(b, loc, p, q); }
  Value either(Value p, Value q) { return arith::OrIOp::create(b, loc, p, q); }
  Value isNan(Value x) { return cmp(FP::UNO, x, x); }
  Value isInf(Value x) { return cmp(FP::OEQ, abs(x), c(INFINITY)); }

  /// sqrt(x*x + y*y) for x, y >= 0 without spurious overflow or underflow:
  /// the squares of arguments scaled by a power of two (exact).
  Value hypot(Value x, Value y) {
    Value m = max(x, y);
    double k = f32() ? 100 : 600, edge = f32() ? 50 : 450;
    Value small = lt(m, std::ldexp(1.0, -edge));
    Value large = gt(m, std::ldexp(1.0, edge));
    Value s = sel(small, c(std::ldexp(1.0, k)),
                  sel(large, c(std::ldexp(1.0, -k)), c(1.0)));
    Value inv = sel(small, c(std::ldexp(1.0, -k)),
                    sel(large, c(std::ldexp(1.0, k)), c(1.0)));
    Value xs = mul(x, s), ys = mul(y, s);
    return mul(sqrt(add(mul(xs, xs), mul(ys, ys))), inv);
  }

  /// a + b as an unevaluated sum (s, e), exactly (Knuth's two-sum).
  std::pair<Value, Value> twoSum(Value a, Value x) {
    Value s = add(a, x);
    Value bb = sub(s, a);
    Value e = add(sub(a, sub(s, bb)), sub(x, bb));
    return {s, e};
  }

  /// log(hypot(x, y)) for finite x, y >= 0, accurate near the unit circle
  /// (where it is log1p of x*x + y*y - 1 summed exactly) and everywhere
  /// else (log of the larger part plus log1p of the squared ratio).
  Value logAbs(Value x, Value y) {
    Value m = max(x, y), n = min(x, y);
    Value hm = mul(m, m), lm = fma(m, m, neg(hm));
    Value hn = mul(n, n), ln = fma(n, n, neg(hn));
    auto [s1, e1] = twoSum(hm, c(-1.0));
    auto [s2, e2] = twoSum(s1, hn);
    Value q = add(s2, add(add(e1, e2), add(lm, ln)));
    Value nearOne = mul(log1p(q), c(0.5));
    Value r = div(n, m);
    Value far = add(log(m), mul(c(0.5), log1p(mul(r, r))));
    Value near = both(cmp(FP::OGE, m, c(0.5)), cmp(FP::OLE, m, c(2.0)));
    Value v = sel(near, nearOne, far);
    return sel(cmp(FP::OEQ, m, c(0.0)), c(-INFINITY), v);
  }
};

} // namespace

/// log(z): log|z| by Real::logAbs (accurate near |z| = 1 and for every size
/// of the parts), arg z by atan2; an infinite part gives +inf as the real
/// part whatever the other is (C99).
static Value complexLog(OpBuilder &b, Location loc, Value z) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Real r{b, loc, x.getType()};
  Value re = r.logAbs(r.abs(x), r.abs(y));
  re = r.sel(r.either(r.isNan(x), r.isNan(y)), r.c(NAN), re);
  re = r.sel(r.either(r.isInf(x), r.isInf(y)), r.c(INFINITY), re);
  return makeComplex(b, loc, re, r.atan2(y, x));
}

/// a * m, where a zero factor gives a zero (of the product's sign) even if
/// the other is infinite or NaN: the limits the complex functions take on
/// the real axis when a hyperbolic or exponential factor overflows.
static Value mulZero(OpBuilder &b, Location loc, Value a, Value m) {
  Type t = a.getType();
  Value zero = floatConstant(b, loc, t, 0.0);
  Value one = floatConstant(b, loc, t, 1.0);
  Value isZero = arith::OrIOp::create(
      b, loc, arith::CmpFOp::create(b, loc, FP::OEQ, a, zero),
      arith::CmpFOp::create(b, loc, FP::OEQ, m, zero));
  // (A NaN factor's sign is no sign: its zero product is +-0 by the other.)
  Value unitA = select(b, loc, isNanV(b, loc, a), one,
                       math::CopySignOp::create(b, loc, one, a));
  Value unitM = select(b, loc, isNanV(b, loc, m), one,
                       math::CopySignOp::create(b, loc, one, m));
  Value signed0 = arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, zero, unitA), unitM);
  return select(b, loc, isZero, signed0, arith::MulFOp::create(b, loc, a, m));
}

/// sin(x + iy) = (sin x cosh y, cos x sinh y) and cos(x + iy) =
/// (cos x cosh y, -sin x sinh y), with 0 * inf = 0 (mulZero).
static Value complexSinCos(OpBuilder &b, Location loc, Value z, bool isSin) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Type t = x.getType();
  Value sx = math::SinOp::create(b, loc, x),
        cx = math::CosOp::create(b, loc, x);
  Value ch = math::CoshOp::create(b, loc, y),
        sh = math::SinhOp::create(b, loc, y);
  // |y| past cosh's overflow: cosh y = |sinh y| = e^|y| / 2 as two factors
  // e^(|y|/2), so that a small sin x or cos x still gives a finite part.
  Real r{b, loc, t};
  Value ay = r.abs(y);
  Value big = r.gt(ay, t.isF32() ? 80.0 : 700.0);
  Value h = math::ExpOp::create(b, loc, r.mul(ay, r.c(0.5)));
  Value hh = r.mul(h, r.c(0.5));
  ch = r.sel(big, hh, ch);
  sh = r.sel(big, r.copysign(hh, y), sh);
  Value f = r.sel(big, h, r.c(1.0));
  auto prod = [&](Value u, Value v) {
    return mulZero(b, loc, mulZero(b, loc, u, v), f);
  };
  Value re, im;
  if (isSin) {
    re = prod(sx, ch);
    im = prod(cx, sh);
  } else {
    re = prod(cx, ch);
    // A zero from a NaN factor keeps the other factor's sign (NumPy).
    Value p = prod(sx, sh);
    Value fromNan =
        arith::OrIOp::create(b, loc, isNanV(b, loc, sx), isNanV(b, loc, sh));
    im = select(b, loc, fromNan, p, arith::NegFOp::create(b, loc, p));
  }
  // x not finite and y infinite: sin gives NaN + i inf, cos inf + iNaN
  // (C99; the signs it leaves open as NumPy's).
  Value edge = arith::AndIOp::create(
      b, loc, isInfV(b, loc, y),
      arith::XOrIOp::create(b, loc, isFiniteV(b, loc, x),
                            arith::ConstantOp::create(b, loc, b.getI1Type(),
                                                      b.getBoolAttr(true))));
  Value nan = floatConstant(b, loc, t, NAN);
  Value inf = floatConstant(b, loc, t, INFINITY);
  re = select(b, loc, edge, isSin ? nan : inf, re);
  im = select(b, loc, edge, isSin ? inf : nan, im);
  return makeComplex(b, loc, re, im);
}

/// exp(x + iy) = e^x (cos y + i sin y) (or 2^x (cos y ln2 + i sin y ln2)
/// for exp2, the angle y ln 2 as an exact product plus a correction, so that
/// it is right for every y), with a zero factor's product zero
/// (exp(-inf + iy) = 0 for every y) and exp(+inf + i(inf or NaN)) =
/// inf + iNaN (C99). Past the overflow of e^x, e^(x/2) is applied twice, so
/// that a small cos y or sin y still gives a finite part.
static Value complexExp(OpBuilder &b, Location loc, Value z,
                        bool base2 = false) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Type t = x.getType();
  Real r{b, loc, t};
  Value ex, h, cy, sy, big;
  Value halfX = r.mul(x, r.c(0.5));
  if (base2) {
    ex = math::Exp2Op::create(b, loc, x);
    h = math::Exp2Op::create(b, loc, halfX);
    big = r.gt(x, t.isF32() ? 120.0 : 1000.0);
    // y ln 2 = p + e: p = fl(y L1), e = its rounding error (fma) plus y L2,
    // where L1 + L2 is ln 2 to twice the precision; e is not small for
    // large y, so it is applied by the angle-sum formulas. Exact while
    // y L2 is (|y| below 2^24 for complex64, 2^52 for complex128, where y
    // becomes an integer); beyond, the angle's error is that of y L2.
    double l1 = t.isF32() ? double(float(M_LN2)) : M_LN2;
    double l2 = t.isF32() ? M_LN2 - l1 : 2.319046813846299558e-17;
    Value p = r.mul(y, r.c(l1));
    Value e = r.add(r.fma(y, r.c(l1), r.neg(p)), r.mul(y, r.c(l2)));
    Value cp = math::CosOp::create(b, loc, p);
    Value sp = math::SinOp::create(b, loc, p);
    Value ce = math::CosOp::create(b, loc, e);
    Value se = math::SinOp::create(b, loc, e);
    Value exact = r.cmp(FP::OEQ, e, r.c(0.0));
    cy = r.sel(exact, cp, r.sub(r.mul(cp, ce), r.mul(sp, se)));
    sy = r.sel(exact, sp, r.add(r.mul(sp, ce), r.mul(cp, se)));
  } else {
    ex = math::ExpOp::create(b, loc, x);
    h = math::ExpOp::create(b, loc, halfX);
    big = r.gt(x, t.isF32() ? 80.0 : 700.0);
    cy = math::CosOp::create(b, loc, y);
    sy = math::SinOp::create(b, loc, y);
  }
  Value a = r.sel(big, h, ex), f = r.sel(big, h, r.c(1.0));
  Value re = mulZero(b, loc, mulZero(b, loc, a, cy), f);
  Value im = mulZero(b, loc, mulZero(b, loc, a, sy), f);
  Value edge = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, FP::OEQ, x,
                            floatConstant(b, loc, t, INFINITY)),
      arith::XOrIOp::create(b, loc, isFiniteV(b, loc, y),
                            arith::ConstantOp::create(b, loc, b.getI1Type(),
                                                      b.getBoolAttr(true))));
  re = select(b, loc, edge, floatConstant(b, loc, t, INFINITY), re);
  im = select(b, loc, edge, floatConstant(b, loc, t, NAN), im);
  // x finite, y infinite or NaN: NaN + iNaN, even where e^x underflows.
  Value nanEdge = arith::AndIOp::create(
      b, loc, isFiniteV(b, loc, x),
      arith::XOrIOp::create(b, loc, isFiniteV(b, loc, y),
                            arith::ConstantOp::create(b, loc, b.getI1Type(),
                                                      b.getBoolAttr(true))));
  re = select(b, loc, nanEdge, floatConstant(b, loc, t, NAN), re);
  im = select(b, loc, nanEdge, floatConstant(b, loc, t, NAN), im);
  // x = -inf, y infinite or NaN: 0 + 0i, the zero imaginary part of y's
  // sign (NumPy).
  Value zeroEdge = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, FP::OEQ, x,
                            floatConstant(b, loc, t, -INFINITY)),
      arith::XOrIOp::create(b, loc, isFiniteV(b, loc, y),
                            arith::ConstantOp::create(b, loc, b.getI1Type(),
                                                      b.getBoolAttr(true))));
  im = select(
      b, loc, zeroEdge,
      math::CopySignOp::create(b, loc, floatConstant(b, loc, t, 0.0), y), im);
  return makeComplex(b, loc, re, im);
}

/// 1 / z by Smith's method (no overflow of |z|^2; 1 / +-i is exact).
static Value complexReciprocal(OpBuilder &b, Location loc, Value z) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Type t = x.getType();
  Value one = floatConstant(b, loc, t, 1.0);
  Value wide =
      arith::CmpFOp::create(b, loc, FP::OGE, math::AbsFOp::create(b, loc, x),
                            math::AbsFOp::create(b, loc, y));
  // |x| >= |y|: r = y/x, d = x + y r, 1/z = (1/d, -r/d).
  Value r1 = arith::DivFOp::create(b, loc, y, x);
  Value d1 =
      arith::AddFOp::create(b, loc, x, arith::MulFOp::create(b, loc, y, r1));
  Value re1 = arith::DivFOp::create(b, loc, one, d1);
  Value im1 =
      arith::NegFOp::create(b, loc, arith::DivFOp::create(b, loc, r1, d1));
  // else: r = x/y, d = x r + y, 1/z = (r/d, -1/d).
  Value r2 = arith::DivFOp::create(b, loc, x, y);
  Value d2 =
      arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, x, r2), y);
  Value re2 = arith::DivFOp::create(b, loc, r2, d2);
  Value im2 =
      arith::NegFOp::create(b, loc, arith::DivFOp::create(b, loc, one, d2));
  return makeComplex(b, loc, select(b, loc, wide, re1, re2),
                     select(b, loc, wide, im1, im2));
}

/// expm1(x + iy) = (expm1(x) cos y - 2 sin^2(y/2), e^x sin y): accurate
/// near 0; -1 + 0i where e^x is 0, inf + iNaN as exp.
static Value complexExpm1(OpBuilder &b, Location loc, Value z) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Type t = x.getType();
  Value e = complexExp(b, loc, z);
  Value s = math::SinOp::create(
      b, loc, arith::MulFOp::create(b, loc, y, floatConstant(b, loc, t, 0.5)));
  Value re = arith::SubFOp::create(
      b, loc,
      mulZero(b, loc, math::ExpM1Op::create(b, loc, x),
              math::CosOp::create(b, loc, y)),
      arith::MulFOp::create(b, loc, floatConstant(b, loc, t, 2.0),
                            arith::MulFOp::create(b, loc, s, s)));
  Value ex = math::ExpOp::create(b, loc, x);
  Value under =
      arith::CmpFOp::create(b, loc, FP::OEQ, ex, floatConstant(b, loc, t, 0.0));
  // (-inf + iy, or an e^x that underflows with a finite y: -1 + 0i.)
  under = arith::AndIOp::create(
      b, loc, under,
      arith::OrIOp::create(
          b, loc, isFiniteV(b, loc, y),
          arith::CmpFOp::create(b, loc, FP::OEQ, x,
                                floatConstant(b, loc, t, -INFINITY))));
  re = select(b, loc, under, floatConstant(b, loc, t, -1.0), re);
  // Large x (+inf included): e^x cos y - 1 from exp, which does not
  // overflow early.
  Value posInf = arith::CmpFOp::create(
      b, loc, FP::OGT, x, floatConstant(b, loc, t, t.isF32() ? 80.0 : 700.0));
  re = select(b, loc, posInf,
              arith::SubFOp::create(b, loc, complex::ReOp::create(b, loc, e),
                                    floatConstant(b, loc, t, 1.0)),
              re);
  return makeComplex(b, loc, re, complex::ImOp::create(b, loc, e));
}

/// tanh(x + iy) by Kahan's formula: with t = tan y, s = sinh x,
/// r = sqrt(1 + s^2): (r s (1 + t^2) + i t) / (1 + (1 + t^2) s^2); for
/// large |x|: (sign x, +-0); for x = 0: i tan y exactly.
static Value complexTanh(OpBuilder &b, Location loc, Value z) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Type t = x.getType();
  Value one = floatConstant(b, loc, t, 1.0);
  Value zero = floatConstant(b, loc, t, 0.0);
  Value tn = math::TanOp::create(b, loc, y);
  Value beta =
      arith::AddFOp::create(b, loc, one, arith::MulFOp::create(b, loc, tn, tn));
  Value s = math::SinhOp::create(b, loc, x);
  Value rho = math::SqrtOp::create(
      b, loc,
      arith::AddFOp::create(b, loc, one, arith::MulFOp::create(b, loc, s, s)));
  Value den = arith::AddFOp::create(
      b, loc, one,
      arith::MulFOp::create(b, loc, beta, arith::MulFOp::create(b, loc, s, s)));
  Value re = arith::DivFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, beta,
                            arith::MulFOp::create(b, loc, rho, s)),
      den);
  Value im = arith::DivFOp::create(b, loc, tn, den);
  // |x| large: tanh is +-1 and the imaginary part 4 sin y cos y e^(-2|x|),
  // a zero of sin(2y)'s sign.
  double big = t.isF32() ? 9.0 : 22.0;
  Value large =
      arith::CmpFOp::create(b, loc, FP::OGT, math::AbsFOp::create(b, loc, x),
                            floatConstant(b, loc, t, big));
  Value sin2y = arith::MulFOp::create(b, loc, math::SinOp::create(b, loc, y),
                                      math::CosOp::create(b, loc, y));
  Value tail = arith::MulFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, floatConstant(b, loc, t, 4.0), sin2y),
      math::ExpOp::create(
          b, loc,
          arith::MulFOp::create(b, loc, floatConstant(b, loc, t, -2.0),
                                math::AbsFOp::create(b, loc, x))));
  // y not finite: sin2y is NaN; C99 gives +-0 for an infinite x.
  tail = select(b, loc, isFiniteV(b, loc, y), tail,
                math::CopySignOp::create(b, loc, zero, y));
  // (A finite x with an infinite or NaN y stays NaN + iNaN.)
  large = arith::AndIOp::create(
      b, loc, large,
      arith::OrIOp::create(b, loc, isInfV(b, loc, x), isFiniteV(b, loc, y)));
  re = select(b, loc, large, math::CopySignOp::create(b, loc, one, x), re);
  im = select(b, loc, large, tail, im);
  Value isZero = arith::CmpFOp::create(b, loc, FP::OEQ, x, zero);
  re = select(b, loc, isZero, x, re);
  im = select(b, loc, isZero, tn, im);
  // y = 0: the real tanh (NaN + 0i stays so).
  Value real = arith::CmpFOp::create(b, loc, FP::OEQ, y, zero);
  re = select(b, loc, real, math::TanhOp::create(b, loc, x), re);
  im = select(b, loc, real, y, im);
  return makeComplex(b, loc, re, im);
}

/// The principal square root, with the sign of a zero imaginary part
/// choosing the side of the cut on the negative real axis (C99's csqrt):
/// t = sqrt((|a| + |z|) / 2), then (t, b / 2t) for a >= 0 and
/// (|b| / 2t, copysign(t, b)) for a < 0.
static Value complexSqrt(OpBuilder &b, Location loc, Value z) {
  using P = arith::CmpFPredicate;
  Value re = complex::ReOp::create(b, loc, z);
  Value im = complex::ImOp::create(b, loc, z);
  Type t = re.getType();
  Value zero = floatConstant(b, loc, t, 0.0);
  Value inf = floatConstant(b, loc, t, INFINITY);
  Value anyInf =
      arith::OrIOp::create(b, loc, isInfV(b, loc, re), isInfV(b, loc, im));
  Value r = select(b, loc, anyInf, inf, complex::AbsOp::create(b, loc, z));
  Value half = floatConstant(b, loc, t, 0.5);
  Value root = math::SqrtOp::create(
      b, loc,
      arith::MulFOp::create(
          b, loc,
          arith::AddFOp::create(b, loc, math::AbsFOp::create(b, loc, re), r),
          half));
  Value twice = arith::AddFOp::create(b, loc, root, root);
  Value other = arith::DivFOp::create(b, loc, im, twice);
  Value nonNeg = arith::CmpFOp::create(b, loc, P::OGE, re, zero);
  Value outRe = arith::SelectOp::create(b, loc, nonNeg, root,
                                        math::AbsFOp::create(b, loc, other));
  Value outIm = arith::SelectOp::create(
      b, loc, nonNeg, other, math::CopySignOp::create(b, loc, root, im));
  // sqrt(+-0 + bi) for b = +-0: (0, b).
  Value isZero = arith::CmpFOp::create(b, loc, P::OEQ, r, zero);
  outRe = arith::SelectOp::create(b, loc, isZero, zero, outRe);
  outIm = arith::SelectOp::create(b, loc, isZero, im, outIm);
  // sqrt(x +- i inf) = inf +- i inf, NaN x included.
  Value imInf = isInfV(b, loc, im);
  outRe = select(b, loc, imInf, inf, outRe);
  outIm = select(b, loc, imInf, im, outIm);
  return makeComplex(b, loc, outRe, outIm);
}

/// The inverse sine or cosine of X + iY for finite X, Y >= 0 by Hull,
/// Fairgrieve and Tang's algorithm ("Implementing the complex arcsine and
/// arccosine functions using exception handling", 1997): the real part
/// (asin's or acos's, in [0, pi/2]) and H >= 0, the magnitude of the
/// imaginary part (also acosh's real part). Every quantity is computed
/// without cancellation: A - 1 and the real part near B = 1 from R and S
/// (the distances to -1 and 1); tiny arguments give z itself, huge ones
/// -i log(2iz).
static std::pair<Value, Value> inverseSineCore(Real &r, Value X, Value Y,
                                               bool cosine) {
  Value one = r.c(1.0), half = r.c(0.5);
  Value xp1 = r.add(X, one), xm1 = r.sub(X, one), omx = r.sub(one, X);
  Value R = r.hypot(xp1, Y), S = r.hypot(r.abs(xm1), Y);
  Value A = r.mul(half, r.add(R, S));
  Value B = r.div(X, A);
  Value y2 = r.mul(Y, Y);
  Value rx = r.add(R, xp1);
  Value below = r.cmp(FP::OLT, X, one);
  // H = log1p(Am1 + sqrt(Am1 (A + 1))) with Am1 = A - 1, for A <= 1.5.
  Value am1 =
      r.mul(half, r.add(r.div(y2, rx),
                        r.sel(below, r.div(y2, r.add(S, omx)), r.add(S, xm1))));
  Value hNear = r.log1p(r.add(am1, r.sqrt(r.mul(am1, r.add(A, one)))));
  Value hFar = r.log(r.add(A, r.sqrt(r.fma(A, A, r.c(-1.0)))));
  Value H = r.sel(r.cmp(FP::OLE, A, r.c(1.5)), hNear, hFar);
  // The real part near B = 1: atan2 of X and f = sqrt(A^2 - X^2) (asin) or
  // the reverse (acos), f computed from R and S.
  Value apx = r.add(A, X);
  Value fLe =
      r.sqrt(r.mul(r.mul(half, apx), r.add(r.div(y2, rx), r.add(S, omx))));
  Value fGt = r.mul(
      Y, r.sqrt(r.mul(half, r.add(r.div(apx, rx), r.div(apx, r.add(S, xm1))))));
  Value f = r.sel(r.cmp(FP::OLE, X, one), fLe, fGt);
  Value reNear = cosine ? r.atan2(f, X) : r.atan2(X, f);
  Value reFar = cosine ? Value(math::AcosOp::create(r.b, r.loc, B))
                       : Value(math::AsinOp::create(r.b, r.loc, B));
  Value re = r.sel(r.cmp(FP::OLE, B, r.c(0.6417)), reFar, reNear);
  // Tiny: asin z = z, acos z = pi/2 - z (|z|^2 / 6 below an epsilon).
  Value m = r.max(X, Y);
  Value tiny = r.lt(m, r.f32() ? 0x1p-13 : 0x1p-28);
  re = r.sel(tiny, cosine ? r.sub(r.c(M_PI_2), X) : X, re);
  H = r.sel(tiny, Y, H);
  // Huge: -i log(2iz) (the next term is 1/(4z^2), below an epsilon).
  Value huge = r.gt(m, r.f32() ? 0x1p13 : 0x1p28);
  re = r.sel(huge, cosine ? r.atan2(Y, X) : r.atan2(X, Y), re);
  H = r.sel(huge, r.add(r.logAbs(X, Y), r.c(M_LN2)), H);
  return {re, H};
}

/// asinh(x + iy) = (H, asin's real part) of |y| + i|x|, the parts given
/// the signs of x and y (asinh is odd and commutes with conj), with C99's
/// values at infinities and NaNs.
static Value complexAsinh(OpBuilder &b, Location loc, Value z) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Real r{b, loc, x.getType()};
  Value ax = r.abs(x), ay = r.abs(y);
  auto [s, h] = inverseSineCore(r, ay, ax, /*cosine=*/false);
  Value re = h, im = s;
  Value anyNan = r.either(r.isNan(x), r.isNan(y));
  Value anyInf = r.either(r.isInf(x), r.isInf(y));
  // NaN (no infinity): NaN + iNaN, NaN + i0 on the real axis.
  re = r.sel(anyNan, r.c(NAN), re);
  im =
      r.sel(anyNan, r.sel(r.cmp(FP::OEQ, y, r.c(0.0)), r.c(0.0), r.c(NAN)), im);
  // An infinite part: inf + i arg (NaN beside a NaN).
  re = r.sel(anyInf, r.c(INFINITY), re);
  im = r.sel(anyInf, r.sel(anyNan, r.c(NAN), r.atan2(ay, ax)), im);
  return makeComplex(b, loc, r.copysign(re, x), r.copysign(im, y));
}

/// acos (cosine) or acosh of x + iy from acos of |x| + i|y| (acos(-z) =
/// pi - acos(z), acos(conj z) = conj acos(z); acosh(z) = i acos(z) in the
/// upper half-plane), with C99's values at infinities and NaNs.
static Value complexAcosOrAcosh(OpBuilder &b, Location loc, Value z,
                                bool cosine) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Real r{b, loc, x.getType()};
  Value ax = r.abs(x), ay = r.abs(y);
  auto [a, h] = inverseSineCore(r, ax, ay, /*cosine=*/true);
  Value anyNan = r.either(r.isNan(x), r.isNan(y));
  Value anyInf = r.either(r.isInf(x), r.isInf(y));
  a = r.sel(anyNan, r.sel(r.cmp(FP::OEQ, x, r.c(0.0)), r.c(M_PI_2), r.c(NAN)),
            a);
  h = r.sel(anyNan, r.c(NAN), h);
  a = r.sel(anyInf, r.sel(anyNan, r.c(NAN), r.atan2(ay, ax)), a);
  h = r.sel(anyInf, r.c(INFINITY), h);
  Value negative = r.cmp(FP::OLT, r.copysign(r.c(1.0), x), r.c(0.0));
  a = r.sel(negative, r.sub(r.c(M_PI), a), a);
  if (cosine)
    return makeComplex(b, loc, a, r.neg(r.copysign(h, y)));
  return makeComplex(b, loc, h, r.copysign(a, y));
}

/// atanh(X + iY) for X, Y >= 0: the real part 1/4 log1p(4X / ((1-X)^2 +
/// Y^2)), or 1/2 (log|1+z| - log|1-z|) where |1-z| is small, the imaginary
/// part 1/2 atan2(2Y, (1-X)(1+X) - Y^2) (Kahan); 1/z + i pi/2 for huge z.
static Value complexAtanh(OpBuilder &b, Location loc, Value z) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Real r{b, loc, x.getType()};
  Value X = r.abs(x), Y = r.abs(y);
  Value one = r.c(1.0);
  Value omx = r.sub(one, X);
  Value d = r.add(r.mul(omx, omx), r.mul(Y, Y));
  Value reFar = r.mul(r.c(0.25), r.log1p(r.div(r.mul(r.c(4.0), X), d)));
  Value reNear = r.mul(r.c(0.5), r.sub(r.log(r.hypot(r.add(one, X), Y)),
                                       r.log(r.hypot(r.abs(omx), Y))));
  Value re = r.sel(r.lt(d, 0.25), reNear, reFar);
  Value im =
      r.mul(r.c(0.5), r.atan2(r.add(Y, Y),
                              r.sub(r.mul(omx, r.add(one, X)), r.mul(Y, Y))));
  Value m = r.max(X, Y);
  Value huge = r.gt(m, r.f32() ? 1e18 : 1e150);
  Value xs = r.div(X, m), ys = r.div(Y, m);
  Value reHuge = r.div(r.div(xs, r.add(r.mul(xs, xs), r.mul(ys, ys))), m);
  re = r.sel(huge, reHuge, re);
  im = r.sel(huge, r.c(M_PI_2), im);
  Value anyNan = r.either(r.isNan(x), r.isNan(y));
  re = r.sel(anyNan, r.c(NAN), re);
  im = r.sel(anyNan, r.c(NAN), im);
  // An infinite part: +0 + i pi/2 (NaN if y is NaN); x = 0: i atan(y).
  Value anyInf = r.either(r.isInf(x), r.isInf(y));
  re = r.sel(anyInf, r.c(0.0), re);
  im = r.sel(anyInf, r.sel(r.isNan(y), r.c(NAN), r.c(M_PI_2)), im);
  Value onAxis = r.cmp(FP::OEQ, x, r.c(0.0));
  re = r.sel(onAxis, r.c(0.0), re);
  im = r.sel(onAxis, r.atan(Y), im);
  return makeComplex(b, loc, r.copysign(re, x), r.copysign(im, y));
}

/// log1p(z): the real part 1/2 log1p(2x + x^2 + y^2), the sum formed
/// exactly (two-sum and fma), where |1 + z|^2 is in (0.5, 2); log|1 + z|
/// elsewhere (1 + x is then exact or its rounding harmless); the
/// imaginary part atan2(y, 1 + x).
static Value complexLog1p(OpBuilder &b, Location loc, Value z) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Real r{b, loc, x.getType()};
  Value hx = r.mul(x, x), lx = r.fma(x, x, r.neg(hx));
  Value hy = r.mul(y, y), ly = r.fma(y, y, r.neg(hy));
  auto [s1, e1] = r.twoSum(r.add(x, x), hx);
  auto [s2, e2] = r.twoSum(s1, hy);
  Value q = r.add(s2, r.add(r.add(e1, e2), r.add(lx, ly)));
  Value near = r.both(r.gt(q, -0.5), r.lt(q, 1.0));
  Value xp1 = r.add(x, r.c(1.0));
  Value far = complexLog(b, loc, makeComplex(b, loc, xp1, y));
  Value re = r.sel(near, r.mul(r.c(0.5), r.log1p(q)),
                   complex::ReOp::create(b, loc, far));
  return makeComplex(b, loc, re, complex::ImOp::create(b, loc, far));
}

enum class PartTest { IsNan, IsInf, IsFinite };

/// isnan/isinf of a complex number: of either part; isfinite: of both.
static Value partsTest(OpBuilder &b, Location loc, Value z, PartTest test) {
  using P = arith::CmpFPredicate;
  Value parts[] = {complex::ReOp::create(b, loc, z),
                   complex::ImOp::create(b, loc, z)};
  Value r[2];
  for (int i = 0; i < 2; ++i) {
    Value x = parts[i];
    Value inf = floatConstant(b, loc, x.getType(), INFINITY);
    Value ax = math::AbsFOp::create(b, loc, x);
    if (test == PartTest::IsNan)
      r[i] = arith::CmpFOp::create(b, loc, P::UNO, x, x);
    else if (test == PartTest::IsInf)
      r[i] = arith::CmpFOp::create(b, loc, P::OEQ, ax, inf);
    else
      r[i] = arith::CmpFOp::create(b, loc, P::OLT, ax, inf);
  }
  if (test == PartTest::IsFinite)
    return arith::AndIOp::create(b, loc, r[0], r[1]);
  return arith::OrIOp::create(b, loc, r[0], r[1]);
}

Value sluice::usm::emitComplexFunction(OpBuilder &b, Location loc,
                                       Operation *op, ValueRange args) {
  return TypeSwitch<Operation *, Value>(op)
      .Case<ExpOp>([&](auto) -> Value { return complexExp(b, loc, args[0]); })
      .Case<LogOp>([&](auto) -> Value { return complexLog(b, loc, args[0]); })
      .Case<SqrtOp>([&](auto) -> Value { return complexSqrt(b, loc, args[0]); })
      .Case<SinOp>(
          [&](auto) -> Value { return complexSinCos(b, loc, args[0], true); })
      .Case<CosOp>(
          [&](auto) -> Value { return complexSinCos(b, loc, args[0], false); })
      .Case<TanhOp>([&](auto) -> Value { return complexTanh(b, loc, args[0]); })
      // tan(z) = -i tanh(iz).
      .Case<TanOp>([&](auto) -> Value {
        return timesMinusI(b, loc,
                           complexTanh(b, loc, timesI(b, loc, args[0])));
      })
      .Case<Expm1Op>(
          [&](auto) -> Value { return complexExpm1(b, loc, args[0]); })
      .Case<Log1pOp>(
          [&](auto) -> Value { return complexLog1p(b, loc, args[0]); })
      .Case<RsqrtOp>([&](auto) -> Value {
        return complex::RsqrtOp::create(b, loc, args[0]);
      })
      // NumPy 2 and the Array API: z / |z|, 0 for 0.
      .Case<SignOp>([&](auto) -> Value {
        Value sg = complex::SignOp::create(b, loc, args[0]);
        Value re = complex::ReOp::create(b, loc, args[0]);
        Value im = complex::ImOp::create(b, loc, args[0]);
        Value zero = floatConstant(b, loc, re.getType(), 0.0);
        Value isZero = arith::AndIOp::create(
            b, loc, arith::CmpFOp::create(b, loc, FP::OEQ, re, zero),
            arith::CmpFOp::create(b, loc, FP::OEQ, im, zero));
        sg = select(b, loc, isZero, makeComplex(b, loc, zero, zero), sg);
        // One part infinite: the unit along it (NumPy).
        Value one = floatConstant(b, loc, re.getType(), 1.0);
        Value infRe = isInfV(b, loc, re), infIm = isInfV(b, loc, im);
        Value onlyOne = arith::XOrIOp::create(b, loc, infRe, infIm);
        Value unit = makeComplex(
            b, loc,
            select(b, loc, infRe, math::CopySignOp::create(b, loc, one, re),
                   zero),
            select(b, loc, infIm, math::CopySignOp::create(b, loc, one, im),
                   zero));
        return select(b, loc, onlyOne, unit, sg);
      })
      .Case<ReciprocalOp>(
          [&](auto) -> Value { return complexReciprocal(b, loc, args[0]); })
      .Case<Exp2Op>([&](auto) -> Value {
        return complexExp(b, loc, args[0], /*base2=*/true);
      })
      .Case<Log2Op>([&](auto) -> Value {
        return scaleParts(b, loc, complexLog(b, loc, args[0]), 1.0 / M_LN2);
      })
      .Case<Log10Op>([&](auto) -> Value {
        return scaleParts(b, loc, complexLog(b, loc, args[0]), 1.0 / M_LN10);
      })
      // sinh(z) = -i sin(iz), cosh(z) = cos(iz): exact rotations of the
      // arguments and results.
      .Case<SinhOp>([&](auto) -> Value {
        return timesMinusI(
            b, loc, complexSinCos(b, loc, timesI(b, loc, args[0]), true));
      })
      .Case<CoshOp>([&](auto) -> Value {
        return complexSinCos(b, loc, timesI(b, loc, args[0]), false);
      })
      .Case<AsinhOp>(
          [&](auto) -> Value { return complexAsinh(b, loc, args[0]); })
      .Case<AcoshOp>([&](auto) -> Value {
        return complexAcosOrAcosh(b, loc, args[0], /*cosine=*/false);
      })
      .Case<AtanhOp>(
          [&](auto) -> Value { return complexAtanh(b, loc, args[0]); })
      // asin(z) = -i asinh(iz), atan(z) = -i atanh(iz).
      .Case<AsinOp>([&](auto) -> Value {
        return timesMinusI(b, loc,
                           complexAsinh(b, loc, timesI(b, loc, args[0])));
      })
      .Case<AtanOp>([&](auto) -> Value {
        return timesMinusI(b, loc,
                           complexAtanh(b, loc, timesI(b, loc, args[0])));
      })
      .Case<AcosOp>([&](auto) -> Value {
        return complexAcosOrAcosh(b, loc, args[0], /*cosine=*/true);
      })
      // NumPy rounds both parts.
      .Case<RintOp>([&](auto) -> Value {
        return onParts<math::RoundEvenOp>(b, loc, args[0]);
      })
      .Case<IsnanOp>([&](auto) -> Value {
        return partsTest(b, loc, args[0], PartTest::IsNan);
      })
      .Case<IsinfOp>([&](auto) -> Value {
        return partsTest(b, loc, args[0], PartTest::IsInf);
      })
      .Case<IsfiniteOp>([&](auto) -> Value {
        return partsTest(b, loc, args[0], PartTest::IsFinite);
      })
      .Default([](Operation *) -> Value { return nullptr; });
}
