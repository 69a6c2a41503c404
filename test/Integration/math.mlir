// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// exp, log, sqrt, sin, cos, tanh and pow against NumPy.
//
// On the host, f32 math in kernels is glibc's libmvec (vectorised, within 4
// ulp over the whole domain), f64 math libm's; docs/accuracy.md has the
// measured bounds of every backend and test/python/test_math_accuracy.py
// checks them. Here: f32 tolerances rtol 1e-5, atol 1e-6; f64 rtol 1e-12.

// FOR: n in [0, 1000]
// INPUT: a = rand(n, 'f32', 0.01, 50)
// INPUT: b = rand(n, 'f32', -10, 10)
// INPUT: p = rand(n, 'f32', -3, 3)
// EXPECT: np.exp(b)
// EXPECT: np.log(a)
// EXPECT: np.sqrt(a)
// EXPECT: np.sin(b)
// EXPECT: np.cos(b)
// EXPECT: np.tanh(b)
// EXPECT: a ** p
// TOL: rtol=1e-5 atol=1e-6
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %p: !A) -> (!A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.exp %b : (!A) -> !A
  %1 = usm.log %a : (!A) -> !A
  %2 = usm.sqrt %a : (!A) -> !A
  %3 = usm.sin %b : (!A) -> !A
  %4 = usm.cos %b : (!A) -> !A
  %5 = usm.tanh %b : (!A) -> !A
  %6 = usm.pow %a, %p : (!A, !A) -> !A
  return %0, %1, %2, %3, %4, %5, %6 : !A, !A, !A, !A, !A, !A, !A
}

// -----

// sin and cos of large arguments (a full range reduction): |x| up to 1e30
// and the largest float (the polynomial approximations used before gave
// sin(1e8) = 0 and sin(1e12) = -inf).
// INPUT: a = np.array([1e5, 1e8, 1e12, -1e20, 1e30, 3.4028235e38, -3.4028235e38, 102943.0, 6.2831855, 1e-40], np.float32)
// EXPECT: np.sin(a)
// EXPECT: np.cos(a)
// TOL: rtol=1e-5 atol=1e-7
!A = !usm.array<10xf32, "host:cpu:0", device>
func.func @main(%a: !A) -> (!A, !A) {
  %0 = usm.sin %a : (!A) -> !A
  %1 = usm.cos %a : (!A) -> !A
  return %0, %1 : !A, !A
}

// -----

// Wide ranges: exp over its whole range (overflow to inf, underflow through
// the subnormals to 0), log and sqrt over 2^-126..2^127, tanh saturating.
// FOR: n in [4099]
// INPUT: a = np.exp2(rand(n, 'f32', -126, 127)).astype(np.float32)
// INPUT: b = rand(n, 'f32', -110, 100)
// EXPECT: np.exp(b)
// EXPECT: np.log(a)
// EXPECT: np.sqrt(a)
// EXPECT: np.tanh(b)
// TOL: rtol=1e-5 atol=1e-6
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !A, !A, !A) {
  %0 = usm.exp %b : (!A) -> !A
  %1 = usm.log %a : (!A) -> !A
  %2 = usm.sqrt %a : (!A) -> !A
  %3 = usm.tanh %b : (!A) -> !A
  return %0, %1, %2, %3 : !A, !A, !A, !A
}

// -----

// Special values: log of 0 and of negatives, sqrt of negatives, NaN and inf
// everywhere.
// FOR: n in [1000]
// INPUT: a = special(n, 'f32')
// INPUT: p = special(n, 'f32')
// EXPECT: np.exp(a)
// EXPECT: np.log(a)
// EXPECT: np.sqrt(a)
// EXPECT: np.sin(a)
// EXPECT: np.cos(a)
// EXPECT: np.tanh(a)
// EXPECT: a ** p
// TOL: rtol=1e-5 atol=1e-6
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.exp %a : (!A) -> !A
  %1 = usm.log %a : (!A) -> !A
  %2 = usm.sqrt %a : (!A) -> !A
  %3 = usm.sin %a : (!A) -> !A
  %4 = usm.cos %a : (!A) -> !A
  %5 = usm.tanh %a : (!A) -> !A
  %6 = usm.pow %a, %p : (!A, !A) -> !A
  return %0, %1, %2, %3, %4, %5, %6 : !A, !A, !A, !A, !A, !A, !A
}

// -----

// pow's special cases: negative bases with integral exponents, zeros, ones,
// infinities and NaN (C99 pow, as NumPy).
// INPUT: a = np.array([-2, -2, -2, -0.5, 0, 0, 0, -0.0, -0.0, 1, np.nan, 1, np.inf, -np.inf, -np.inf, 2, -1, -1, 0.5, 2], np.float32)
// INPUT: b = np.array([2, 3, 0.5, -3, 0, 2, -1, 3, -1, np.nan, 0, np.inf, -1, 3, 2, -np.inf, np.inf, 3, np.inf, 200], np.float32)
// EXPECT: a ** b
// EXPECT: a.astype(np.float64) ** b.astype(np.float64)
!A = !usm.array<20xf32, "host:cpu:0", device>
!D = !usm.array<20xf64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !D) {
  %0 = usm.pow %a, %b : (!A, !A) -> !A
  %a64 = usm.astype %a : !A to !D
  %b64 = usm.astype %b : !A to !D
  %1 = usm.pow %a64, %b64 : (!D, !D) -> !D
  return %0, %1 : !A, !D
}

// -----

// f64 (libm).
// FOR: n in [0, 1000]
// INPUT: a = rand(n, 'f64', 0.01, 50)
// INPUT: b = rand(n, 'f64', -30, 30)
// INPUT: p = rand(n, 'f64', -3, 3)
// EXPECT: np.exp(b)
// EXPECT: np.log(a)
// EXPECT: np.sqrt(a)
// EXPECT: np.sin(b)
// EXPECT: np.cos(b)
// EXPECT: np.tanh(b)
// EXPECT: a ** p
!A = !usm.array<?xf64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %p: !A) -> (!A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.exp %b : (!A) -> !A
  %1 = usm.log %a : (!A) -> !A
  %2 = usm.sqrt %a : (!A) -> !A
  %3 = usm.sin %b : (!A) -> !A
  %4 = usm.cos %b : (!A) -> !A
  %5 = usm.tanh %b : (!A) -> !A
  %6 = usm.pow %a, %p : (!A, !A) -> !A
  return %0, %1, %2, %3, %4, %5, %6 : !A, !A, !A, !A, !A, !A, !A
}

// -----

// f16: computed through f32 and rounded (rtol 1e-3).
// FOR: n in [259]
// INPUT: a = rand(n, 'f16', 0.01, 50)
// INPUT: b = rand(n, 'f16', -8, 8)
// EXPECT: np.exp(b)
// EXPECT: np.log(a)
// EXPECT: np.sqrt(a)
// EXPECT: np.sin(b)
// EXPECT: np.cos(b)
// EXPECT: np.tanh(b)
// EXPECT: a ** np.float16(0.5)
// TOL: rtol=1e-3 atol=1e-3
!A = !usm.array<?xf16, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !A, !A, !A, !A, !A, !A) {
  %half = arith.constant 0.5 : f16
  %0 = usm.exp %b : (!A) -> !A
  %1 = usm.log %a : (!A) -> !A
  %2 = usm.sqrt %a : (!A) -> !A
  %3 = usm.sin %b : (!A) -> !A
  %4 = usm.cos %b : (!A) -> !A
  %5 = usm.tanh %b : (!A) -> !A
  %6 = usm.pow %a, %half : (!A, f16) -> !A
  return %0, %1, %2, %3, %4, %5, %6 : !A, !A, !A, !A, !A, !A, !A
}
