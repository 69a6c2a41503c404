//===- ExpandMathForOpenCL.cpp - math ops OpenCL.std lacks ----------------===//

#include "sluice/Target/SPIRV/ExpandMathForOpenCL.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;

namespace {

using P = arith::CmpFPredicate;

struct Builder {
  OpBuilder &b;
  Location loc;
  Type t;
  Value c(double v) {
    return arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, v));
  }
  Value sel(Value p, Value x, Value y) {
    return arith::SelectOp::create(b, loc, p, x, y);
  }
  Value cmp(P p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value log(Value x) { return math::LogOp::create(b, loc, x); }
  Value exp(Value x) { return math::ExpOp::create(b, loc, x); }
  Value pow(Value x, Value y) { return math::PowFOp::create(b, loc, x, y); }
  Value isInf(Value x) { return cmp(P::OEQ, abs(x), c(INFINITY)); }
};

/// log_base(x) from log(x), snapped to the exact integer at powers of base.
Value logBase(Builder &e, Value x, double base) {
  Value l = e.mul(e.log(x), e.c(1.0 / std::log(base)));
  Value n = math::RoundEvenOp::create(e.b, e.loc, l);
  Value exact = e.cmp(P::OEQ, e.pow(e.c(base), n), x);
  // Only non-negative powers of 10 are exact (10**-45 in float32 is the
  // smallest subnormal, not 1e-45).
  if (base != 2.0)
    exact = arith::AndIOp::create(e.b, e.loc, exact, e.cmp(P::OGE, n, e.c(0)));
  return e.sel(exact, n, l);
}

struct ErfcInterval {
  bool inverse; // a series in t = 1/x of g(x) / t, else in x of g(x)
  double lo, hi;
  double c[19];
};
#include "ErfcCoefficients.inc"

/// erfc(a) for a >= 0.5 as (g(a) exp(-d)) exp(-ah*ah), where ah is a with
/// its low bits cleared (so that ah*ah is exact), d = (a - ah)(a + ah) =
/// a*a - ah*ah, and g(a) = erfc(a) exp(a*a) the Chebyshev series of the
/// interval holding a (its constants chosen by selects, one Clenshaw sum):
/// within a few ulp in float64 down to the smallest subnormal.
template <size_t N>
Value erfcTail(Builder &e, Value a, const ErfcInterval (&table)[N], int terms) {
  bool f32 = e.t.isF32();
  Value t = e.div(e.c(1), a);
  auto edge = [](const ErfcInterval &iv) {
    return iv.inverse ? 1.0 / iv.hi : iv.lo;
  };
  Value inverse = arith::ConstantOp::create(e.b, e.loc, e.b.getI1Type(),
                                            e.b.getBoolAttr(table[0].inverse));
  Value sum = e.c(table[0].lo + table[0].hi);
  Value width = e.c(table[0].hi - table[0].lo);
  SmallVector<Value> coef;
  for (int k = 0; k < terms; ++k)
    coef.push_back(e.c(table[0].c[k]));
  for (size_t i = 1; i < N; ++i) {
    const ErfcInterval &iv = table[i];
    Value in = e.cmp(P::OGE, a, e.c(edge(iv)));
    inverse = e.sel(in,
                    arith::ConstantOp::create(e.b, e.loc, e.b.getI1Type(),
                                              e.b.getBoolAttr(iv.inverse)),
                    inverse);
    sum = e.sel(in, e.c(iv.lo + iv.hi), sum);
    width = e.sel(in, e.c(iv.hi - iv.lo), width);
    for (int k = 0; k < terms; ++k)
      coef[k] = e.sel(in, e.c(iv.c[k]), coef[k]);
  }
  Value v = e.sel(inverse, t, a);
  Value u = e.div(e.sub(e.add(v, v), sum), width);
  Value b1 = e.c(0), b2 = e.c(0);
  for (int k = terms - 1; k >= 1; --k) {
    Value next = e.add(e.sub(e.mul(e.add(u, u), b1), b2), coef[k]);
    b2 = b1;
    b1 = next;
  }
  Value p = e.add(e.sub(e.mul(u, b1), b2), coef[0]);
  Value g = e.sel(inverse, e.div(p, a), p);
  double scale = f32 ? 256.0 : 65536.0;
  Value ah = e.mul(math::FloorOp::create(e.b, e.loc, e.mul(a, e.c(scale))),
                   e.c(1.0 / scale));
  Value d = e.mul(e.sub(a, ah), e.add(a, ah));
  // g exp(-d) = g + g expm1(-d), the Taylor series of expm1 (d is below
  // 2^-10 in float64, 0.09 in float32), so that it adds half an ulp.
  Value q = e.c(-1.0 / 5040);
  for (int k = 6; k >= 1; --k)
    q = e.add(e.mul(q, d), e.c((k % 2 ? -1.0 : 1.0) / std::tgamma(k + 1)));
  q = e.mul(q, d);
  Value r = e.mul(e.add(g, e.mul(g, q)), e.exp(e.sub(e.c(0), e.mul(ah, ah))));
  // Past the underflow (and at infinity, where d is NaN): 0.
  return e.sel(e.cmp(P::OGT, a, e.c(f32 ? 11.0 : 28.0)), e.c(0), r);
}

Value expand(Operation *op, OpBuilder &b) {
  Value x = op->getOperand(0);
  Builder e{b, op->getLoc(), x.getType()};
  if (isa<math::TruncOp>(op))
    return math::CopySignOp::create(
        b, e.loc, math::FloorOp::create(b, e.loc, e.abs(x)), x);
  if (isa<math::Exp2Op>(op))
    return e.pow(e.c(2.0), x);
  if (isa<math::ExpM1Op>(op)) {
    // Kahan: (u - 1) * x / log(u) with u = exp(x).
    Value u = e.exp(x);
    Value um1 = e.sub(u, e.c(1));
    Value r = e.mul(um1, e.div(x, e.log(u)));
    r = e.sel(e.cmp(P::OEQ, um1, e.c(-1)), e.c(-1), r);
    r = e.sel(e.isInf(u), u, r);
    return e.sel(e.cmp(P::OEQ, u, e.c(1)), x, r);
  }
  if (isa<math::Log1pOp>(op)) {
    // Kahan: log(u) * x / (u - 1) with u = 1 + x.
    Value u = e.add(e.c(1), x);
    // log(u) * (x / (u - 1)): the quotient is near 1, so nothing overflows.
    Value r = e.mul(e.log(u), e.div(x, e.sub(u, e.c(1))));
    r = e.sel(e.cmp(P::OEQ, x, e.c(INFINITY)), x, r);
    r = e.sel(e.cmp(P::OEQ, u, e.c(0)), e.c(-INFINITY), r);
    return e.sel(e.cmp(P::OEQ, u, e.c(1)), x, r);
  }
  if (isa<math::Log2Op>(op))
    return logBase(e, x, 2.0);
  if (isa<math::Log10Op>(op))
    return logBase(e, x, 10.0);
  if (isa<math::CbrtOp>(op)) {
    Value a = e.abs(x);
    Value r = e.pow(a, e.c(1.0 / 3.0));
    // One Newton step, r - (r - a / r**2) / 3, which neither overflows nor
    // underflows where r**3 would.
    Value newton =
        e.sub(r, e.mul(e.sub(r, e.div(a, e.mul(r, r))), e.c(1.0 / 3.0)));
    Value finite = e.cmp(P::OLT, e.abs(newton), e.c(INFINITY));
    r = e.sel(finite, newton, r);
    Value special = e.cmp(P::UEQ, e.add(a, a), a); // 0, inf or NaN
    return e.sel(special, x, math::CopySignOp::create(b, e.loc, r, x));
  }
  if (isa<math::ErfcOp>(op)) {
    // 1 - erf(x) for |x| < 0.5; above, exp(-x*x) g(|x|) (2 minus that for
    // x < 0), where g(x) = erfc(x) exp(x*x) is a Chebyshev series
    // (erfcTail); 0 past the underflow.
    Value a = e.abs(x);
    Value tail = x.getType().isF32() ? erfcTail(e, a, kErfcF32, 12)
                                     : erfcTail(e, a, kErfcF64, 19);
    Value big = e.sel(e.cmp(P::OLT, x, e.c(0)), e.sub(e.c(2), tail), tail);
    Value small = e.sub(e.c(1), math::ErfOp::create(b, e.loc, x));
    return e.sel(e.cmp(P::OLT, a, e.c(0.5)), small, big);
  }
  return nullptr;
}

} // namespace

void sluice::expandMathForOpenCL(gpu::GPUModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<math::TruncOp, math::Exp2Op, math::ExpM1Op, math::Log1pOp,
            math::Log2Op, math::Log10Op, math::CbrtOp, math::ErfcOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Value r = expand(op, b);
    op->getResult(0).replaceAllUsesWith(r);
    op->erase();
  }
}
