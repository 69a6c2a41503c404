//===- USMComplexOps.td - usm ops on complex numbers -------*- tablegen -*-===//
//
// The parts of complex numbers. Included by USMOps.td; every other
// elementwise op that accepts complex elements says so in USMComplex.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_DIALECT_USM_IR_USMCOMPLEXOPS_TD
#define SLUICE_DIALECT_USM_IR_USMCOMPLEXOPS_TD

def USM_RealOp : USM_UnaryOp<"real", USM_RuleComplexPart,
  "the real part (a float's is itself)",
  "%r = usm.real %z : (!usm.array<4xcomplex<f32>, \"gpu:0\", device>) -> !usm.array<4xf32, \"gpu:0\", device>">;
def USM_ImagOp : USM_UnaryOp<"imag", USM_RuleComplexPart,
  "the imaginary part (a float's is +0)",
  "%i = usm.imag %z : (!usm.array<4xcomplex<f64>, \"gpu:0\", device>) -> !usm.array<4xf64, \"gpu:0\", device>">;
def USM_AngleOp : USM_UnaryOp<"angle", USM_RuleComplexPart,
  "the argument `atan2(imag, real)` in radians",
  "%a = usm.angle %z : (!usm.array<4xcomplex<f32>, \"gpu:0\", device>) -> !usm.array<4xf32, \"gpu:0\", device>">;
def USM_ConjOp : USM_UnaryOp<"conj", USM_RuleArith,
  "the complex conjugate (a real number's is itself)",
  "%c = usm.conj %z : (!usm.array<4xcomplex<f32>, \"gpu:0\", device>) -> !usm.array<4xcomplex<f32>, \"gpu:0\", device>">;
def USM_ComplexOp : USM_BinaryOp<"complex", USM_RuleMakeComplex,
  "the complex number `lhs + rhs * i` of f32 or f64 parts",
  "%z = usm.complex %re, %im : (!usm.array<4xf32, \"gpu:0\", device>, !usm.array<4xf32, \"gpu:0\", device>) -> !usm.array<4xcomplex<f32>, \"gpu:0\", device>">;

#endif // SLUICE_DIALECT_USM_IR_USMCOMPLEXOPS_TD
