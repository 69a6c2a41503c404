// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// Elementwise arithmetic on f32, f64 and f16 against NumPy, fused (one
// multi-output kernel) and unfused. Floats compare with the checker's
// defaults: f32 rtol 1e-5 atol 1e-6, f64 rtol 1e-12 atol 1e-14, f16 rtol 1e-3
// atol 1e-4. Divisors stay away from 0 here (special values are below).

// FOR: n in [0, 67, 1000]
// INPUT: a = rand(n, 'f32', -4, 4)
// INPUT: b = rand(n, 'f32', 0.25, 4) * np.where(rand(n, 'i1'), 1, -1).astype(np.float32)
// EXPECT: a + b
// EXPECT: a - b
// EXPECT: a * b
// EXPECT: a / b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: -a
// EXPECT: np.abs(b)
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !A, !A, !A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.mul %a, %b : (!A, !A) -> !A
  %3 = usm.div %a, %b : (!A, !A) -> !A
  %4 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %5 = usm.remainder %a, %b : (!A, !A) -> !A
  %6 = usm.maximum %a, %b : (!A, !A) -> !A
  %7 = usm.minimum %a, %b : (!A, !A) -> !A
  %8 = usm.negative %a : (!A) -> !A
  %9 = usm.abs %b : (!A) -> !A
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !A, !A, !A, !A, !A, !A, !A, !A, !A, !A
}

// -----

// FOR: n in [0, 67, 1000]
// INPUT: a = rand(n, 'f64', -4, 4)
// INPUT: b = rand(n, 'f64', 0.25, 4) * np.where(rand(n, 'i1'), 1, -1)
// EXPECT: a + b
// EXPECT: a - b
// EXPECT: a * b
// EXPECT: a / b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: -a
// EXPECT: np.abs(b)
!A = !usm.array<?xf64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !A, !A, !A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.mul %a, %b : (!A, !A) -> !A
  %3 = usm.div %a, %b : (!A, !A) -> !A
  %4 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %5 = usm.remainder %a, %b : (!A, !A) -> !A
  %6 = usm.maximum %a, %b : (!A, !A) -> !A
  %7 = usm.minimum %a, %b : (!A, !A) -> !A
  %8 = usm.negative %a : (!A) -> !A
  %9 = usm.abs %b : (!A) -> !A
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !A, !A, !A, !A, !A, !A, !A, !A, !A, !A
}

// -----

// f16 (NumPy computes each f16 op in f32 and rounds once, as LLVM's half
// arithmetic does).
// FOR: n in [67]
// INPUT: a = rand(n, 'f16', -4, 4)
// INPUT: b = rand(n, 'f16', 0.25, 4) * np.where(rand(n, 'i1'), 1, -1).astype(np.float16)
// EXPECT: a + b
// EXPECT: a - b
// EXPECT: a * b
// EXPECT: a / b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: -a
// EXPECT: np.abs(b)
!A = !usm.array<?xf16, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !A, !A, !A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.mul %a, %b : (!A, !A) -> !A
  %3 = usm.div %a, %b : (!A, !A) -> !A
  %4 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %5 = usm.remainder %a, %b : (!A, !A) -> !A
  %6 = usm.maximum %a, %b : (!A, !A) -> !A
  %7 = usm.minimum %a, %b : (!A, !A) -> !A
  %8 = usm.negative %a : (!A) -> !A
  %9 = usm.abs %b : (!A) -> !A
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !A, !A, !A, !A, !A, !A, !A, !A, !A, !A
}

// -----

// Scalar operands on either side (a scalar follows the array).
// FOR: n in [0, 67]
// INPUT: a = rand(n, 'f32', -4, 4)
// INPUT: s = scalar(-1.75, 'f32')
// INPUT: d = rand(n, 'f64', -4, 4)
// INPUT: t = scalar(2.5, 'f64')
// EXPECT: a * s
// EXPECT: s - a
// EXPECT: s / (np.abs(a) + np.float32(1))
// EXPECT: np.maximum(s, a)
// EXPECT: d % t
// EXPECT: t // d
// EXPECT: d ** t
!A = !usm.array<?xf32, "host:cpu:0", device>
!D = !usm.array<?xf64, "host:cpu:0", device>
func.func @main(%a: !A, %s: f32, %d: !D, %t: f64) -> (!A, !A, !A, !A, !D, !D, !D) {
  %one = arith.constant 1.0 : f32
  %0 = usm.mul %a, %s : (!A, f32) -> !A
  %1 = usm.sub %s, %a : (f32, !A) -> !A
  %abs = usm.abs %a : (!A) -> !A
  %den = usm.add %abs, %one : (!A, f32) -> !A
  %2 = usm.div %s, %den : (f32, !A) -> !A
  %3 = usm.maximum %s, %a : (f32, !A) -> !A
  %4 = usm.remainder %d, %t : (!D, f64) -> !D
  %5 = usm.floor_divide %t, %d : (f64, !D) -> !D
  %6 = usm.pow %d, %t : (!D, f64) -> !D
  return %0, %1, %2, %3, %4, %5, %6 : !A, !A, !A, !A, !D, !D, !D
}

// -----

// Special values: 0, -0, +-inf and NaN mixed into both operands. NaN
// propagates through maximum and minimum; floor_divide and remainder follow
// NumPy's npy_floor_divide and npy_remainder (division by zero included).
// FOR: n in [1000]
// INPUT: a = special(n, 'f32')
// INPUT: b = special(n, 'f32')
// INPUT: c = special(n, 'f64')
// INPUT: d = special(n, 'f64')
// EXPECT: a + b
// EXPECT: a * b
// EXPECT: a / b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: np.abs(a)
// EXPECT: c // d
// EXPECT: c % d
// EXPECT: np.maximum(c, d)
// EXPECT: np.minimum(c, d)
!A = !usm.array<?xf32, "host:cpu:0", device>
!D = !usm.array<?xf64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %c: !D, %d: !D) -> (!A, !A, !A, !A, !A, !A, !A, !A, !D, !D, !D, !D) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.mul %a, %b : (!A, !A) -> !A
  %2 = usm.div %a, %b : (!A, !A) -> !A
  %3 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %4 = usm.remainder %a, %b : (!A, !A) -> !A
  %5 = usm.maximum %a, %b : (!A, !A) -> !A
  %6 = usm.minimum %a, %b : (!A, !A) -> !A
  %7 = usm.abs %a : (!A) -> !A
  %8 = usm.floor_divide %c, %d : (!D, !D) -> !D
  %9 = usm.remainder %c, %d : (!D, !D) -> !D
  %10 = usm.maximum %c, %d : (!D, !D) -> !D
  %11 = usm.minimum %c, %d : (!D, !D) -> !D
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : !A, !A, !A, !A, !A, !A, !A, !A, !D, !D, !D, !D
}

// -----

// floor_divide where x / y rounds to an integer: NumPy's quotient comes from
// x - fmod(x, y) (1.0 // 0.1 is 9.0, floor(1.0 / 0.1) would be 10.0).
// INPUT: a = np.array([1.0, -1.0, 7.0, -7.0, 0.3, 1e-30, -1e-30, 5.0, 0.0, -0.0, 3.0, -3.0], np.float64)
// INPUT: b = np.array([0.1, 0.1, 0.7, 0.7, 0.1, 1e30, 1e30, -0.0, -2.0, 2.0, np.inf, np.inf], np.float64)
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: a.astype(np.float32) // b.astype(np.float32)
// EXPECT: a.astype(np.float32) % b.astype(np.float32)
!A = !usm.array<12xf64, "host:cpu:0", device>
!F = !usm.array<12xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !A, !F, !F) {
  %0 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %1 = usm.remainder %a, %b : (!A, !A) -> !A
  %af = usm.astype %a : !A to !F
  %bf = usm.astype %b : !A to !F
  %2 = usm.floor_divide %af, %bf : (!F, !F) -> !F
  %3 = usm.remainder %af, %bf : (!F, !F) -> !F
  return %0, %1, %2, %3 : !A, !A, !F, !F
}
