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

/// log(z) with C99's infinities: a part infinite gives +inf as the real
/// part, whatever the other part is (NaN included).
static Value complexLog(OpBuilder &b, Location loc, Value z) {
  Value l = complex::LogOp::create(b, loc, z);
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Value inf =
      arith::OrIOp::create(b, loc, isInfV(b, loc, x), isInfV(b, loc, y));
  Value re = select(b, loc, inf, floatConstant(b, loc, x.getType(), INFINITY),
                    complex::ReOp::create(b, loc, l));
  return makeComplex(b, loc, re, complex::ImOp::create(b, loc, l));
}

/// max(|re z|, |im z|) > a threshold past which z*z overflows, so that
/// log(2z) stands for the inverse hyperbolic functions' log(z + sqrt(...)).
static Value isHuge(OpBuilder &b, Location loc, Value z) {
  Value re = complex::ReOp::create(b, loc, z);
  Value im = complex::ImOp::create(b, loc, z);
  Type t = re.getType();
  double limit = t.isF32() ? 1e18 : 1e150;
  // maxnum: a NaN part leaves the other's size.
  Value m = arith::MaxNumFOp::create(b, loc, math::AbsFOp::create(b, loc, re),
                                     math::AbsFOp::create(b, loc, im));
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, m,
                               floatConstant(b, loc, t, limit));
}

/// log(2z) = log(z) + ln 2 (the large-argument form of asinh and acosh).
static Value logTwice(OpBuilder &b, Location loc, Value z) {
  Value l = complexLog(b, loc, z);
  Value re = complex::ReOp::create(b, loc, l);
  Value im = complex::ImOp::create(b, loc, l);
  Value ln2 = floatConstant(b, loc, re.getType(), M_LN2);
  return makeComplex(b, loc, arith::AddFOp::create(b, loc, re, ln2), im);
}

static Value complexOne(OpBuilder &b, Location loc, Type t) {
  Type part = cast<ComplexType>(t).getElementType();
  return makeComplex(b, loc, floatConstant(b, loc, part, 1.0),
                     floatConstant(b, loc, part, 0.0));
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
  Value re, im;
  if (isSin) {
    re = mulZero(b, loc, sx, ch);
    im = mulZero(b, loc, cx, sh);
  } else {
    re = mulZero(b, loc, cx, ch);
    // A zero from a NaN factor keeps the other factor's sign (NumPy).
    Value p = mulZero(b, loc, sx, sh);
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

/// exp(x + iy) = e^x (cos y + i sin y), with a zero factor's product zero
/// (exp(-inf + iy) = 0 for every y) and exp(+inf + i(inf or NaN)) =
/// inf + iNaN (C99).
static Value complexExp(OpBuilder &b, Location loc, Value z) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Type t = x.getType();
  Value ex = math::ExpOp::create(b, loc, x);
  Value re = mulZero(b, loc, ex, math::CosOp::create(b, loc, y));
  Value im = mulZero(b, loc, ex, math::SinOp::create(b, loc, y));
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
  Value posInf = arith::CmpFOp::create(b, loc, FP::OEQ, x,
                                       floatConstant(b, loc, t, INFINITY));
  re = select(b, loc, posInf, complex::ReOp::create(b, loc, e), re);
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

/// log1p(z) = (log1p(2x + x*x + y*y) / 2, atan2(y, 1 + x)): exact near 0
/// and -inf at -1; log(1 + z) where the squares would overflow.
static Value complexLog1p(OpBuilder &b, Location loc, Value z) {
  Value x = complex::ReOp::create(b, loc, z);
  Value y = complex::ImOp::create(b, loc, z);
  Type t = x.getType();
  Value one = floatConstant(b, loc, t, 1.0);
  Value xp1 = arith::AddFOp::create(b, loc, x, one);
  Value q = arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, x, floatConstant(b, loc, t, 2.0)),
      arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, x, x),
                            arith::MulFOp::create(b, loc, y, y)));
  Value re = arith::MulFOp::create(b, loc, math::Log1pOp::create(b, loc, q),
                                   floatConstant(b, loc, t, 0.5));
  Value im = math::Atan2Op::create(b, loc, y, xp1);
  Value big = complexLog(b, loc, makeComplex(b, loc, xp1, y));
  Value huge = isHuge(b, loc, z);
  return makeComplex(b, loc,
                     arith::SelectOp::create(
                         b, loc, huge, complex::ReOp::create(b, loc, big), re),
                     im);
}

/// z with both parts' signs cleared (the first quadrant), and the function
/// that gives a result the signs of z's parts back.
static Value firstQuadrant(OpBuilder &b, Location loc, Value z) {
  return makeComplex(
      b, loc, math::AbsFOp::create(b, loc, complex::ReOp::create(b, loc, z)),
      math::AbsFOp::create(b, loc, complex::ImOp::create(b, loc, z)));
}

static Value withSignsOf(OpBuilder &b, Location loc, Value r, Value z,
                         bool realSign) {
  Value re = complex::ReOp::create(b, loc, r);
  if (realSign)
    re = math::CopySignOp::create(b, loc, re, complex::ReOp::create(b, loc, z));
  Value im = math::CopySignOp::create(b, loc, complex::ImOp::create(b, loc, r),
                                      complex::ImOp::create(b, loc, z));
  return makeComplex(b, loc, re, im);
}

/// asinh(z) = log(z + sqrt(z*z + 1)), computed in the first quadrant
/// (asinh is odd and commutes with conj: no cancellation of z against the
/// root, and signed zeros pick the sides of the cuts), and as log(2z) where
/// z*z would overflow.
static Value complexAsinh(OpBuilder &b, Location loc, Value z) {
  Value w = firstQuadrant(b, loc, z);
  Value one = complexOne(b, loc, z.getType());
  Value root =
      complexSqrt(b, loc,
                  complex::AddOp::create(
                      b, loc, complex::MulOp::create(b, loc, w, w), one));
  Value small = complexLog(b, loc, complex::AddOp::create(b, loc, w, root));
  Value r = arith::SelectOp::create(b, loc, isHuge(b, loc, w),
                                    logTwice(b, loc, w), small);
  // On the real axis: the real asinh (NaN + 0i stays so, as in C99).
  Value x = complex::ReOp::create(b, loc, w);
  Value y = complex::ImOp::create(b, loc, w);
  Value real = arith::CmpFOp::create(b, loc, FP::OEQ, y,
                                     floatConstant(b, loc, y.getType(), 0.0));
  r = select(b, loc, real,
             makeComplex(b, loc, math::AsinhOp::create(b, loc, x), y), r);
  // On the imaginary axis inside the cuts: i asin(y), exactly imaginary.
  Value inside = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, FP::OEQ, x,
                            floatConstant(b, loc, x.getType(), 0.0)),
      arith::CmpFOp::create(b, loc, FP::OLE, y,
                            floatConstant(b, loc, y.getType(), 1.0)));
  r = select(b, loc, inside,
             makeComplex(b, loc, x, math::AsinOp::create(b, loc, y)), r);
  return withSignsOf(b, loc, r, z, /*realSign=*/true);
}

/// acosh(z) = log(z + sqrt(z + 1) * sqrt(z - 1)) (NumPy's branch cuts),
/// computed in the upper half-plane (acosh commutes with conj), as log(2z)
/// where the product would overflow.
static Value complexAcosh(OpBuilder &b, Location loc, Value z) {
  Value w = makeComplex(
      b, loc, complex::ReOp::create(b, loc, z),
      math::AbsFOp::create(b, loc, complex::ImOp::create(b, loc, z)));
  Value one = complexOne(b, loc, z.getType());
  Value root = complex::MulOp::create(
      b, loc, complexSqrt(b, loc, complex::AddOp::create(b, loc, w, one)),
      complexSqrt(b, loc, complex::SubOp::create(b, loc, w, one)));
  Value small = complexLog(b, loc, complex::AddOp::create(b, loc, w, root));
  Value r = arith::SelectOp::create(b, loc, isHuge(b, loc, w),
                                    logTwice(b, loc, w), small);
  // acosh(+-0 + iNaN) = NaN + i pi/2 (C99).
  Value x = complex::ReOp::create(b, loc, w);
  Value y = complex::ImOp::create(b, loc, w);
  Type t = x.getType();
  Value edge = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, FP::OEQ, x, floatConstant(b, loc, t, 0.0)),
      isNanV(b, loc, y));
  r = select(b, loc, edge,
             makeComplex(b, loc, floatConstant(b, loc, t, NAN),
                         floatConstant(b, loc, t, M_PI_2)),
             r);
  return withSignsOf(b, loc, r, z, /*realSign=*/false);
}

/// atanh(z) = (log1p(z) - log1p(-z)) / 2, computed in the first quadrant
/// (atanh is odd and commutes with conj).
static Value complexAtanh(OpBuilder &b, Location loc, Value z) {
  Value w = firstQuadrant(b, loc, z);
  Value d = complex::SubOp::create(
      b, loc, complexLog1p(b, loc, w),
      complexLog1p(b, loc, complex::NegOp::create(b, loc, w)));
  Value r = scaleParts(b, loc, d, 0.5);
  Value x = complex::ReOp::create(b, loc, w);
  Value y = complex::ImOp::create(b, loc, w);
  Type t = x.getType();
  // An infinite part: +0 + i pi/2 (NaN if y is NaN); x = 0: i atan(y).
  Value inf =
      arith::OrIOp::create(b, loc, isInfV(b, loc, x), isInfV(b, loc, y));
  Value zero = floatConstant(b, loc, t, 0.0);
  r = select(b, loc, inf,
             makeComplex(b, loc, zero,
                         select(b, loc, isNanV(b, loc, y),
                                floatConstant(b, loc, t, NAN),
                                floatConstant(b, loc, t, M_PI_2))),
             r);
  Value onAxis = arith::CmpFOp::create(b, loc, FP::OEQ, x, zero);
  r = select(b, loc, onAxis,
             makeComplex(b, loc, x, math::AtanOp::create(b, loc, y)), r);
  return withSignsOf(b, loc, r, z, true);
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
        return complexExp(b, loc, scaleParts(b, loc, args[0], M_LN2));
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
      .Case<AcoshOp>(
          [&](auto) -> Value { return complexAcosh(b, loc, args[0]); })
      .Case<AtanhOp>(
          [&](auto) -> Value { return complexAtanh(b, loc, args[0]); })
      // asin(z) = -i asinh(iz), atan(z) = -i atanh(iz),
      // acos(z) = pi/2 - asin(z).
      .Case<AsinOp>([&](auto) -> Value {
        return timesMinusI(b, loc,
                           complexAsinh(b, loc, timesI(b, loc, args[0])));
      })
      .Case<AtanOp>([&](auto) -> Value {
        return timesMinusI(b, loc,
                           complexAtanh(b, loc, timesI(b, loc, args[0])));
      })
      .Case<AcosOp>([&](auto) -> Value {
        Value a =
            timesMinusI(b, loc, complexAsinh(b, loc, timesI(b, loc, args[0])));
        Value re = complex::ReOp::create(b, loc, a);
        Value im = complex::ImOp::create(b, loc, a);
        Value half = floatConstant(b, loc, re.getType(), M_PI_2);
        return makeComplex(b, loc, arith::SubFOp::create(b, loc, half, re),
                           arith::NegFOp::create(b, loc, im));
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
