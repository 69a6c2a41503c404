// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// The functions of the table (USMMathOps.td) against NumPy, with IEEE
// special values (0, -0, inf, -inf, NaN mixed in): exact functions exactly,
// the others within the tolerances below (docs/accuracy.md has the measured
// ulp bounds).

// f32 transcendental functions.
// FOR: n in [0, 200]
// INPUT: a = special(n, 'f32')
// INPUT: u = rand(n, 'f32', -0.99, 0.99)
// INPUT: b = rand(n, 'f32', -30, 30)
// EXPECT: np.tan(b)
// EXPECT: np.arcsin(u)
// EXPECT: np.arccos(u)
// EXPECT: np.arctan(a)
// EXPECT: np.sinh(b)
// EXPECT: np.cosh(b)
// EXPECT: np.arcsinh(a)
// EXPECT: np.arctanh(u)
// EXPECT: np.exp2(b)
// EXPECT: np.expm1(b)
// EXPECT: np.log2(np.abs(b))
// EXPECT: np.log10(np.abs(b))
// EXPECT: np.log1p(u)
// EXPECT: np.cbrt(b)
// EXPECT: np.arctan2(a, b)
// EXPECT: np.hypot(a, b)
// EXPECT: np.logaddexp(a, b)
// TOL: rtol=4e-6 atol=1e-30
!F = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !F, %u: !F, %b: !F) -> (!F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F) {
  %0 = usm.tan %b : (!F) -> !F
  %1 = usm.asin %u : (!F) -> !F
  %2 = usm.acos %u : (!F) -> !F
  %3 = usm.atan %a : (!F) -> !F
  %4 = usm.sinh %b : (!F) -> !F
  %5 = usm.cosh %b : (!F) -> !F
  %6 = usm.asinh %a : (!F) -> !F
  %7 = usm.atanh %u : (!F) -> !F
  %8 = usm.exp2 %b : (!F) -> !F
  %9 = usm.expm1 %b : (!F) -> !F
  %ab = usm.abs %b : (!F) -> !F
  %10 = usm.log2 %ab : (!F) -> !F
  %11 = usm.log10 %ab : (!F) -> !F
  %12 = usm.log1p %u : (!F) -> !F
  %13 = usm.cbrt %b : (!F) -> !F
  %14 = usm.atan2 %a, %b : (!F, !F) -> !F
  %15 = usm.hypot %a, %b : (!F, !F) -> !F
  %16 = usm.logaddexp %a, %b : (!F, !F) -> !F
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16 : !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F, !F
}

// -----

// Exact f64 functions on special values.
// FOR: n in [0, 300]
// INPUT: a = special(n, 'f64')
// INPUT: b = special(n, 'f64')
// EXPECT: np.floor(a)
// EXPECT: np.ceil(a)
// EXPECT: np.trunc(a)
// EXPECT: np.rint(a)
// EXPECT: np.sign(a)
// EXPECT: np.copysign(a, b)
// EXPECT: np.nextafter(a, b)
// EXPECT: np.fmod(a, b)
// EXPECT: np.fmax(a, b)
// EXPECT: np.fmin(a, b)
// EXPECT: np.isnan(a)
// EXPECT: np.isinf(a)
// EXPECT: np.isfinite(a)
// EXPECT: np.signbit(a)
// TOL: rtol=0 atol=0
!D = !usm.array<?xf64, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !D, %b: !D) -> (!D, !D, !D, !D, !D, !D, !D, !D, !D, !D, !B, !B, !B, !B) {
  %0 = usm.floor %a : (!D) -> !D
  %1 = usm.ceil %a : (!D) -> !D
  %2 = usm.trunc %a : (!D) -> !D
  %3 = usm.rint %a : (!D) -> !D
  %4 = usm.sign %a : (!D) -> !D
  %5 = usm.copysign %a, %b : (!D, !D) -> !D
  %6 = usm.nextafter %a, %b : (!D, !D) -> !D
  %7 = usm.fmod %a, %b : (!D, !D) -> !D
  %8 = usm.fmax %a, %b : (!D, !D) -> !D
  %9 = usm.fmin %a, %b : (!D, !D) -> !D
  %10 = usm.isnan %a : (!D) -> !B
  %11 = usm.isinf %a : (!D) -> !B
  %12 = usm.isfinite %a : (!D) -> !B
  %13 = usm.signbit %a : (!D) -> !B
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : !D, !D, !D, !D, !D, !D, !D, !D, !D, !D, !B, !B, !B, !B
}

// -----

// Integer bit operations over the whole range, shift counts past the width.
// FOR: n in [0, 131]
// INPUT: a = edges(n, 'i16')
// INPUT: b = edges(n, 'i16')
// INPUT: s = rand(n, 'i16', -3, 40)
// EXPECT: a & b
// EXPECT: a | b
// EXPECT: a ^ b
// EXPECT: ~a
// EXPECT: np.left_shift(a, s)
// EXPECT: np.right_shift(a, s)
// EXPECT: np.gcd(a, b)
// EXPECT: np.lcm(a, b)
!I = !usm.array<?xi16, "host:cpu:0", device>
func.func @main(%a: !I, %b: !I, %s: !I) -> (!I, !I, !I, !I, !I, !I, !I, !I) {
  %0 = usm.bitwise_and %a, %b : (!I, !I) -> !I
  %1 = usm.bitwise_or %a, %b : (!I, !I) -> !I
  %2 = usm.bitwise_xor %a, %b : (!I, !I) -> !I
  %3 = usm.bitwise_not %a : (!I) -> !I
  %4 = usm.left_shift %a, %s : (!I, !I) -> !I
  %5 = usm.right_shift %a, %s : (!I, !I) -> !I
  %6 = usm.gcd %a, %b : (!I, !I) -> !I
  %7 = usm.lcm %a, %b : (!I, !I) -> !I
  return %0, %1, %2, %3, %4, %5, %6, %7 : !I, !I, !I, !I, !I, !I, !I, !I
}

// -----

// Unsigned shifts.
// FOR: n in [0, 131]
// INPUT: a = edges(n, 'ui32')
// INPUT: s = rand(n, 'ui32', 0, 70)
// EXPECT: np.left_shift(a, s)
// EXPECT: np.right_shift(a, s)
!U = !usm.array<?xui32, "host:cpu:0", device>
func.func @main(%a: !U, %s: !U) -> (!U, !U) {
  %0 = usm.left_shift %a, %s : (!U, !U) -> !U
  %1 = usm.right_shift %a, %s : (!U, !U) -> !U
  return %0, %1 : !U, !U
}
