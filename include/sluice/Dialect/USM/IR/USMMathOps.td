//===- USMMathOps.td - the table of elementwise functions --*- tablegen -*-===//
//
// Every elementwise function that is a scalar function of its operands'
// elements, one `defm` row each:
//
//   defm USM_<Class> : USM_MathFunction<"mnemonic", arity, rule, "what">;
//
// The row declares the op `usm.<mnemonic>` (C++ class `<Class>Op`) with the
// `Elementwise` trait, so that it broadcasts, fuses, and gets its docs and its
// result-type inference like every other elementwise op. Its scalar lowering
// is one entry in lib/Conversion/USMToLinalg/MathEmitter.cpp, keyed by the
// mnemonic; the Python function that calls it is one row in
// python/sluice/_elementwise.py. Rules (USMOps.td): Float takes and returns
// floating point, Arith any number, Integer integers and i1, Compare any
// element type and returns i1.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_DIALECT_USM_IR_USMMATHOPS_TD
#define SLUICE_DIALECT_USM_IR_USMMATHOPS_TD

class USM_MathExampleType<USM_ElementRule r, bit result> {
  string elt = !cond(!eq(r.rule, "Integer"): "i32",
                     !and(result, !eq(r.rule, "Compare")): "i1",
                     true: "f32");
  string type = "!usm.array<4x" # elt # ", \"gpu:0\", device>";
}

multiclass USM_MathFunction<string mnemonic, int arity, USM_ElementRule r,
                            string what> {
  defvar inT = USM_MathExampleType<r, 0>.type;
  defvar outT = USM_MathExampleType<r, 1>.type;
  if !eq(arity, 1) then {
    def Op : USM_UnaryOp<mnemonic, r, what,
      "%b = usm." # mnemonic # " %a : (" # inT # ") -> " # outT>;
  } else {
    def Op : USM_BinaryOp<mnemonic, r, what,
      "%c = usm." # mnemonic # " %a, %b : (" # inT # ", " # inT # ") -> " # outT>;
  }
}

// Exponentials, logarithms, powers and roots.
defm USM_Exp     : USM_MathFunction<"exp", 1, USM_RuleFloat, "the exponential">;
defm USM_Exp2    : USM_MathFunction<"exp2", 1, USM_RuleFloat, "2 raised to the element">;
defm USM_Expm1   : USM_MathFunction<"expm1", 1, USM_RuleFloat, "`exp(x) - 1`, accurate near 0">;
defm USM_Log     : USM_MathFunction<"log", 1, USM_RuleFloat, "the natural logarithm">;
defm USM_Log2    : USM_MathFunction<"log2", 1, USM_RuleFloat, "the base-2 logarithm">;
defm USM_Log10   : USM_MathFunction<"log10", 1, USM_RuleFloat, "the base-10 logarithm">;
defm USM_Log1p   : USM_MathFunction<"log1p", 1, USM_RuleFloat, "`log(1 + x)`, accurate near 0">;
defm USM_Sqrt    : USM_MathFunction<"sqrt", 1, USM_RuleFloat, "the square root">;
defm USM_Cbrt    : USM_MathFunction<"cbrt", 1, USM_RuleFloat, "the cube root">;
defm USM_Rsqrt   : USM_MathFunction<"rsqrt", 1, USM_RuleFloat, "the reciprocal square root">;
defm USM_Reciprocal : USM_MathFunction<"reciprocal", 1, USM_RuleArith, "`1 / x` (integers: C division)">;
defm USM_Logaddexp  : USM_MathFunction<"logaddexp", 2, USM_RuleFloat, "`log(exp(x) + exp(y))` without overflow">;
defm USM_Logaddexp2 : USM_MathFunction<"logaddexp2", 2, USM_RuleFloat, "`log2(2**x + 2**y)` without overflow">;
defm USM_Hypot   : USM_MathFunction<"hypot", 2, USM_RuleFloat, "`sqrt(x*x + y*y)` without overflow">;
defm USM_Ldexp   : USM_MathFunction<"ldexp", 2, USM_RuleFloat, "`x * 2**y` (y an integral value), exact">;

// Trigonometric and hyperbolic functions.
defm USM_Sin     : USM_MathFunction<"sin", 1, USM_RuleFloat, "the sine">;
defm USM_Cos     : USM_MathFunction<"cos", 1, USM_RuleFloat, "the cosine">;
defm USM_Tan     : USM_MathFunction<"tan", 1, USM_RuleFloat, "the tangent">;
defm USM_Asin    : USM_MathFunction<"asin", 1, USM_RuleFloat, "the inverse sine">;
defm USM_Acos    : USM_MathFunction<"acos", 1, USM_RuleFloat, "the inverse cosine">;
defm USM_Atan    : USM_MathFunction<"atan", 1, USM_RuleFloat, "the inverse tangent">;
defm USM_Atan2   : USM_MathFunction<"atan2", 2, USM_RuleFloat, "the angle of the point (y=lhs, x=rhs)">;
defm USM_Sinh    : USM_MathFunction<"sinh", 1, USM_RuleFloat, "the hyperbolic sine">;
defm USM_Cosh    : USM_MathFunction<"cosh", 1, USM_RuleFloat, "the hyperbolic cosine">;
defm USM_Tanh    : USM_MathFunction<"tanh", 1, USM_RuleFloat, "the hyperbolic tangent">;
defm USM_Asinh   : USM_MathFunction<"asinh", 1, USM_RuleFloat, "the inverse hyperbolic sine">;
defm USM_Acosh   : USM_MathFunction<"acosh", 1, USM_RuleFloat, "the inverse hyperbolic cosine">;
defm USM_Atanh   : USM_MathFunction<"atanh", 1, USM_RuleFloat, "the inverse hyperbolic tangent">;

// Special functions.
defm USM_Erf     : USM_MathFunction<"erf", 1, USM_RuleFloat, "the error function">;
defm USM_Erfc    : USM_MathFunction<"erfc", 1, USM_RuleFloat, "the complementary error function">;

// Rounding (identity on integers).
defm USM_Floor   : USM_MathFunction<"floor", 1, USM_RuleArith, "the largest integral value not above the element">;
defm USM_Ceil    : USM_MathFunction<"ceil", 1, USM_RuleArith, "the smallest integral value not below the element">;
defm USM_Trunc   : USM_MathFunction<"trunc", 1, USM_RuleArith, "the integral value toward zero">;
defm USM_Rint    : USM_MathFunction<"rint", 1, USM_RuleArith, "the nearest integral value, ties to even">;

// Sign and floating-point inspection.
defm USM_Sign    : USM_MathFunction<"sign", 1, USM_RuleArith, "-1, 0 or 1 by the sign (NaN stays NaN)">;
defm USM_Signbit : USM_MathFunction<"signbit", 1, USM_RuleCompare, "whether the sign bit is set (result i1)">;
defm USM_Isnan   : USM_MathFunction<"isnan", 1, USM_RuleCompare, "whether the element is NaN (result i1)">;
defm USM_Isinf   : USM_MathFunction<"isinf", 1, USM_RuleCompare, "whether the element is infinite (result i1)">;
defm USM_Isfinite: USM_MathFunction<"isfinite", 1, USM_RuleCompare, "whether the element is finite (result i1)">;
defm USM_Copysign: USM_MathFunction<"copysign", 2, USM_RuleFloat, "`lhs` with the sign of `rhs`">;
defm USM_Nextafter : USM_MathFunction<"nextafter", 2, USM_RuleFloat, "the next representable value after `lhs` toward `rhs`">;
defm USM_Spacing : USM_MathFunction<"spacing", 1, USM_RuleFloat, "the distance to the next representable value away from zero">;
defm USM_FrexpMantissa : USM_MathFunction<"frexp_mantissa", 1, USM_RuleFloat, "the mantissa of `frexp`, in [0.5, 1)">;
defm USM_FrexpExponent : USM_MathFunction<"frexp_exponent", 1, USM_RuleFloat, "the exponent of `frexp`, as a floating-point value">;
defm USM_Fmod    : USM_MathFunction<"fmod", 2, USM_RuleArith, "the remainder with the sign of the dividend (C `fmod`)">;
defm USM_Fmax    : USM_MathFunction<"fmax", 2, USM_RuleArithOrBool, "the larger value, ignoring NaN">;
defm USM_Fmin    : USM_MathFunction<"fmin", 2, USM_RuleArithOrBool, "the smaller value, ignoring NaN">;

// Integers (and i1) bit by bit.
defm USM_BitwiseAnd : USM_MathFunction<"bitwise_and", 2, USM_RuleInteger, "the bitwise and">;
defm USM_BitwiseOr  : USM_MathFunction<"bitwise_or", 2, USM_RuleInteger, "the bitwise or">;
defm USM_BitwiseXor : USM_MathFunction<"bitwise_xor", 2, USM_RuleInteger, "the bitwise exclusive or">;
defm USM_BitwiseNot : USM_MathFunction<"bitwise_not", 1, USM_RuleInteger, "the bitwise complement">;
defm USM_LeftShift  : USM_MathFunction<"left_shift", 2, USM_RuleInteger, "`lhs << rhs` (0 for counts out of range, as NumPy)">;
defm USM_RightShift : USM_MathFunction<"right_shift", 2, USM_RuleInteger, "`lhs >> rhs`, arithmetic for signed types (counts out of range fill with the sign)">;
defm USM_Gcd     : USM_MathFunction<"gcd", 2, USM_RuleInteger, "the greatest common divisor of the absolute values">;
defm USM_Lcm     : USM_MathFunction<"lcm", 2, USM_RuleInteger, "the least common multiple of the absolute values">;

#endif // SLUICE_DIALECT_USM_IR_USMMATHOPS_TD
