//===- ComplexEmitter.cpp - scalar bodies of usm ops on complex numbers ---===//
//
// The scalar function of an elementwise usm op whose elements are complex
// (complex<f32>, complex<f64>), or that takes complex numbers apart or puts
// them together (usm.real, usm.imag, usm.angle, usm.conj, usm.complex), in
// MLIR's complex dialect; convert-complex-to-standard and
// sluice-expand-complex take it to float arithmetic for every backend.
// Sums of complex arrays become sums of their parts, so that every backend's
// float reductions serve them. The elementary functions (exp, log, the
// trigonometric and hyperbolic functions and their inverses, ...) are in
// ComplexFunctions.cpp.
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

static Type elementOf(Type t) {
  if (auto a = dyn_cast<ArrayType>(t))
    return a.getElementType();
  return t;
}

bool sluice::usm::isComplexScalarOp(Operation *op) {
  if (isa<RealOp, ImagOp, AngleOp, ConjOp, ComplexOp>(op))
    return true;
  for (Type t : op->getOperandTypes())
    if (isa<ComplexType>(elementOf(t)))
      return true;
  for (Type t : op->getResultTypes())
    if (isa<ComplexType>(elementOf(t)))
      return true;
  return false;
}

static Value floatConstant(OpBuilder &b, Location loc, Type t, double v) {
  return arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, v));
}

/// `z != 0` for a complex z.
static Value complexNonZero(OpBuilder &b, Location loc, Value z) {
  auto t = cast<ComplexType>(z.getType());
  Value zero = floatConstant(b, loc, t.getElementType(), 0.0);
  Value re = complex::ReOp::create(b, loc, z);
  Value im = complex::ImOp::create(b, loc, z);
  using P = arith::CmpFPredicate;
  return arith::OrIOp::create(b, loc,
                              arith::CmpFOp::create(b, loc, P::UNE, re, zero),
                              arith::CmpFOp::create(b, loc, P::UNE, im, zero));
}

static Value truthOf(OpBuilder &b, Location loc, Value v) {
  if (isa<ComplexType>(v.getType()))
    return complexNonZero(b, loc, v);
  // Logical ops' operands may differ in type: each is its own (the
  // signedness of an integer does not change its truth).
  return emitScalarCast(b, loc, v, v.getType(), b.getI1Type());
}

Value sluice::usm::emitComplexCast(OpBuilder &b, Location loc, Value v,
                                   Type from, Type to) {
  auto cf = dyn_cast<ComplexType>(from), ct = dyn_cast<ComplexType>(to);
  if (cf && ct) {
    Type pf = cf.getElementType(), pt = ct.getElementType();
    Value re = emitScalarCast(b, loc, complex::ReOp::create(b, loc, v), pf, pt);
    Value im = emitScalarCast(b, loc, complex::ImOp::create(b, loc, v), pf, pt);
    return complex::CreateOp::create(b, loc, ct, re, im);
  }
  if (ct) {
    // A real number is the complex number with a +0 imaginary part.
    Type pt = ct.getElementType();
    Value re = emitScalarCast(b, loc, v, from, pt);
    return complex::CreateOp::create(b, loc, ct, re,
                                     floatConstant(b, loc, pt, 0.0));
  }
  // NumPy: complex to bool is `z != 0`; to any other real type it drops
  // the imaginary part.
  if (to.isInteger(1))
    return complexNonZero(b, loc, v);
  return emitScalarCast(b, loc, complex::ReOp::create(b, loc, v),
                        cf.getElementType(), to);
}

/// a * b as MLIR's lowering gives it (C99 Annex G at infinities), except
/// where finite parts give a NaN part because two partial products
/// overflowed (inf - inf): that part is recomputed from parts scaled by
/// 2^-k and scaled back, so that it is the infinity it overflows to (NumPy
/// gives -inf + inf j for the square of 3e20 + 4e21j in complex64).
static Value complexProduct(OpBuilder &b, Location loc, Value l, Value r) {
  Value p = complex::MulOp::create(b, loc, l, r);
  Value x = complex::ReOp::create(b, loc, l),
        y = complex::ImOp::create(b, loc, l);
  Value u = complex::ReOp::create(b, loc, r),
        v = complex::ImOp::create(b, loc, r);
  Type t = x.getType();
  using P = arith::CmpFPredicate;
  int k = t.isF32() ? 64 : 512;
  Value down = floatConstant(b, loc, t, std::ldexp(1.0, -k));
  Value up = floatConstant(b, loc, t, std::ldexp(1.0, k));
  auto mul = [&](Value m, Value n) {
    return arith::MulFOp::create(b, loc, m, n).getResult();
  };
  Value xs = mul(x, down), ys = mul(y, down), us = mul(u, down),
        vs = mul(v, down);
  Value re =
      mul(mul(arith::SubFOp::create(b, loc, mul(xs, us), mul(ys, vs)), up), up);
  Value im =
      mul(mul(arith::AddFOp::create(b, loc, mul(xs, vs), mul(ys, us)), up), up);
  Value inf = floatConstant(b, loc, t, INFINITY);
  Value sum = arith::AddFOp::create(
      b, loc,
      arith::AddFOp::create(b, loc, math::AbsFOp::create(b, loc, x),
                            math::AbsFOp::create(b, loc, y)),
      arith::AddFOp::create(b, loc, math::AbsFOp::create(b, loc, u),
                            math::AbsFOp::create(b, loc, v)));
  // (The sum of the parts' sizes overflows only if a part is near the
  // largest number; NaN parts make it NaN.)
  Value finite = arith::CmpFOp::create(b, loc, P::OLT, sum, inf);
  Value pr = complex::ReOp::create(b, loc, p),
        pi = complex::ImOp::create(b, loc, p);
  Value fixRe = arith::AndIOp::create(
      b, loc, finite, arith::CmpFOp::create(b, loc, P::UNO, pr, pr));
  Value fixIm = arith::AndIOp::create(
      b, loc, finite, arith::CmpFOp::create(b, loc, P::UNO, pi, pi));
  return complex::CreateOp::create(
      b, loc, l.getType(), arith::SelectOp::create(b, loc, fixRe, re, pr),
      arith::SelectOp::create(b, loc, fixIm, im, pi));
}

Value sluice::usm::emitComplexScalarOp(OpBuilder &b, Location loc,
                                       Operation *op, ValueRange args) {
  Type element = dataElementType(op);
  bool isComplex = isa<ComplexType>(element);

  // The ops that also take real numbers.
  if (!isComplex) {
    return TypeSwitch<Operation *, Value>(op)
        .Case<RealOp, ConjOp>([&](auto) { return args[0]; })
        .Case<ImagOp>(
            [&](auto) { return floatConstant(b, loc, args[0].getType(), 0.0); })
        .Case<AngleOp>([&](auto) -> Value {
          Value zero = floatConstant(b, loc, args[0].getType(), 0.0);
          return math::Atan2Op::create(b, loc, zero, args[0]);
        })
        .Case<ComplexOp>([&](auto) -> Value {
          auto t = ComplexType::get(args[0].getType());
          return complex::CreateOp::create(b, loc, t, args[0], args[1]);
        })
        .Default([](Operation *) -> Value { return nullptr; });
  }

  return TypeSwitch<Operation *, Value>(op)
      .Case<AddOp>([&](auto) -> Value {
        return complex::AddOp::create(b, loc, args[0], args[1]);
      })
      .Case<SubOp>([&](auto) -> Value {
        return complex::SubOp::create(b, loc, args[0], args[1]);
      })
      .Case<MulOp>([&](auto) -> Value {
        return complexProduct(b, loc, args[0], args[1]);
      })
      .Case<DivOp>([&](auto) -> Value {
        return complex::DivOp::create(b, loc, args[0], args[1]);
      })
      .Case<PowOp>([&](auto) -> Value {
        return complex::PowOp::create(b, loc, args[0], args[1]);
      })
      .Case<NegativeOp>([&](auto) -> Value {
        return complex::NegOp::create(b, loc, args[0]);
      })
      .Case<AbsOp>([&](auto) -> Value {
        return complex::AbsOp::create(b, loc, args[0]);
      })
      .Case<ConjOp>([&](auto) -> Value {
        return complex::ConjOp::create(b, loc, args[0]);
      })
      .Case<RealOp>(
          [&](auto) -> Value { return complex::ReOp::create(b, loc, args[0]); })
      .Case<ImagOp>(
          [&](auto) -> Value { return complex::ImOp::create(b, loc, args[0]); })
      .Case<AngleOp>([&](auto) -> Value {
        return complex::AngleOp::create(b, loc, args[0]);
      })
      // NumPy: equal when both parts are; NaN parts compare unequal.
      .Case<EqOp>([&](auto) -> Value {
        return complex::EqualOp::create(b, loc, args[0], args[1]);
      })
      .Case<NeOp>([&](auto) -> Value {
        return complex::NotEqualOp::create(b, loc, args[0], args[1]);
      })
      .Case<LogicalAndOp>([&](auto) -> Value {
        return arith::AndIOp::create(b, loc, truthOf(b, loc, args[0]),
                                     truthOf(b, loc, args[1]));
      })
      .Case<LogicalOrOp>([&](auto) -> Value {
        return arith::OrIOp::create(b, loc, truthOf(b, loc, args[0]),
                                    truthOf(b, loc, args[1]));
      })
      .Case<LogicalNotOp>([&](auto) -> Value {
        Value t = arith::ConstantOp::create(b, loc, b.getI1Type(),
                                            b.getBoolAttr(true));
        return arith::XOrIOp::create(b, loc, truthOf(b, loc, args[0]), t);
      })
      // The elementary functions (ComplexFunctions.cpp).
      .Default([&](Operation *) -> Value {
        return emitComplexFunction(b, loc, op, args);
      });
}

Value sluice::usm::emitComplexSplat(OpBuilder &b, Location loc,
                                    DenseElementsAttr splat) {
  auto type = cast<ComplexType>(splat.getElementType());
  auto value = splat.getSplatValue<std::complex<APFloat>>();
  Type part = type.getElementType();
  return complex::ConstantOp::create(
      b, loc, type,
      b.getArrayAttr({b.getFloatAttr(part, value.real()),
                      b.getFloatAttr(part, value.imag())}));
}

/// usm.constant of complex elements, not a splat: usm.complex of the real
/// and imaginary parts' constants (a global of complex elements has no
/// expansion into vectors).
static void splitComplexConstant(ConstantOp op) {
  auto dense = cast<DenseElementsAttr>(op.getValue());
  auto type = cast<ComplexType>(dense.getElementType());
  auto partType =
      RankedTensorType::get(dense.getType().getShape(), type.getElementType());
  SmallVector<APFloat> re, im;
  for (std::complex<APFloat> z : dense.getValues<std::complex<APFloat>>()) {
    re.push_back(z.real());
    im.push_back(z.imag());
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  ArrayType partArray = op.getType().withElementType(type.getElementType());
  Value r = ConstantOp::create(b, loc, partArray,
                               DenseElementsAttr::get(partType, re));
  Value i = ConstantOp::create(b, loc, partArray,
                               DenseElementsAttr::get(partType, im));
  op.getResult().replaceAllUsesWith(ComplexOp::create(b, loc, r, i));
  op.erase();
}

LogicalResult sluice::usm::decomposeComplexOps(Operation *root) {
  SmallVector<ConstantOp> constants;
  root->walk([&](ConstantOp op) {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (dense && !dense.isSplat() && isa<ComplexType>(dense.getElementType()))
      constants.push_back(op);
  });
  for (ConstantOp op : constants)
    splitComplexConstant(op);

  SmallVector<Operation *> reductions;
  root->walk([&](Operation *op) {
    if (isa<SumOp, ProdOp>(op) &&
        isa<ComplexType>(
            cast<ArrayType>(op->getOperand(0).getType()).getElementType()))
      reductions.push_back(op);
  });
  for (Operation *op : reductions) {
    if (auto prod = dyn_cast<ProdOp>(op))
      return prod.emitOpError("of complex elements is not supported yet");
    auto sum = cast<SumOp>(op);
    OpBuilder b(sum);
    Location loc = sum.getLoc();
    Value re = RealOp::create(b, loc, sum.getInput());
    Value im = ImagOp::create(b, loc, sum.getInput());
    Value sre =
        SumOp::create(b, loc, re, sum.getAxesAttr(), sum.getKeepdimsAttr());
    Value sim =
        SumOp::create(b, loc, im, sum.getAxesAttr(), sum.getKeepdimsAttr());
    Value z = ComplexOp::create(b, loc, sre, sim);
    sum.getResult().replaceAllUsesWith(z);
    sum.erase();
  }
  return success();
}
