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
    // 1 - erf(x) below 0.5; above, exp(-x*x) times a Chebyshev fit
    // (relative error below 1.2e-7: float32 accuracy).
    static const double k[] = {-1.26551223, 1.00002368, 0.37409196,  0.09678418,
                               -0.18628806, 0.27886807, -1.13520398, 1.48851587,
                               -0.82215223, 0.17087277};
    Value z = e.abs(x);
    Value t = e.div(e.c(1), e.add(e.c(1), e.mul(e.c(0.5), z)));
    Value p = e.c(k[9]);
    for (int i = 8; i >= 0; --i)
      p = e.add(e.c(k[i]), e.mul(t, p));
    Value big = e.mul(t, e.exp(e.sub(p, e.mul(z, z))));
    big = e.sel(e.cmp(P::OLT, x, e.c(0)), e.sub(e.c(2), big), big);
    Value small = e.sub(e.c(1), math::ErfOp::create(b, e.loc, x));
    return e.sel(e.cmp(P::OLT, e.abs(x), e.c(0.5)), small, big);
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
