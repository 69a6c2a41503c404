// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// Elementwise arithmetic on every integer type against NumPy, exactly.
// Operands span the whole range of the type mixed with its extremes, 0, 1, 2
// and -1 (edges()), so add, sub, mul, negative and pow wrap as NumPy's do,
// divisors include 0 (floor_divide and remainder give 0, as NumPy's) and -1
// (the minimum divided by -1 wraps to itself, remainder 0).

// i8
// FOR: n in [0, 131]
// INPUT: a = edges(n, 'i8')
// INPUT: b = edges(n, 'i8')
// INPUT: e = rand(n, 'i8', 0, 70)
// EXPECT: a + b
// EXPECT: a - b
// EXPECT: a * b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: a ** e
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: -a
// EXPECT: np.abs(a)
!A = !usm.array<?xi8, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %e: !A) -> (!A, !A, !A, !A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.mul %a, %b : (!A, !A) -> !A
  %3 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %4 = usm.remainder %a, %b : (!A, !A) -> !A
  %5 = usm.pow %a, %e : (!A, !A) -> !A
  %6 = usm.maximum %a, %b : (!A, !A) -> !A
  %7 = usm.minimum %a, %b : (!A, !A) -> !A
  %8 = usm.negative %a : (!A) -> !A
  %9 = usm.abs %a : (!A) -> !A
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !A, !A, !A, !A, !A, !A, !A, !A, !A, !A
}

// -----

// i16
// FOR: n in [131]
// INPUT: a = edges(n, 'i16')
// INPUT: b = edges(n, 'i16')
// INPUT: e = rand(n, 'i16', 0, 70)
// EXPECT: a + b
// EXPECT: a - b
// EXPECT: a * b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: a ** e
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: -a
// EXPECT: np.abs(a)
!A = !usm.array<?xi16, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %e: !A) -> (!A, !A, !A, !A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.mul %a, %b : (!A, !A) -> !A
  %3 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %4 = usm.remainder %a, %b : (!A, !A) -> !A
  %5 = usm.pow %a, %e : (!A, !A) -> !A
  %6 = usm.maximum %a, %b : (!A, !A) -> !A
  %7 = usm.minimum %a, %b : (!A, !A) -> !A
  %8 = usm.negative %a : (!A) -> !A
  %9 = usm.abs %a : (!A) -> !A
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !A, !A, !A, !A, !A, !A, !A, !A, !A, !A
}

// -----

// i32
// FOR: n in [131]
// INPUT: a = edges(n, 'i32')
// INPUT: b = edges(n, 'i32')
// INPUT: e = rand(n, 'i32', 0, 70)
// EXPECT: a + b
// EXPECT: a - b
// EXPECT: a * b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: a ** e
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: -a
// EXPECT: np.abs(a)
!A = !usm.array<?xi32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %e: !A) -> (!A, !A, !A, !A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.mul %a, %b : (!A, !A) -> !A
  %3 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %4 = usm.remainder %a, %b : (!A, !A) -> !A
  %5 = usm.pow %a, %e : (!A, !A) -> !A
  %6 = usm.maximum %a, %b : (!A, !A) -> !A
  %7 = usm.minimum %a, %b : (!A, !A) -> !A
  %8 = usm.negative %a : (!A) -> !A
  %9 = usm.abs %a : (!A) -> !A
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !A, !A, !A, !A, !A, !A, !A, !A, !A, !A
}

// -----

// i64
// FOR: n in [131]
// INPUT: a = edges(n, 'i64')
// INPUT: b = edges(n, 'i64')
// INPUT: e = rand(n, 'i64', 0, 70)
// EXPECT: a + b
// EXPECT: a - b
// EXPECT: a * b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: a ** e
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: -a
// EXPECT: np.abs(a)
!A = !usm.array<?xi64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %e: !A) -> (!A, !A, !A, !A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.mul %a, %b : (!A, !A) -> !A
  %3 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %4 = usm.remainder %a, %b : (!A, !A) -> !A
  %5 = usm.pow %a, %e : (!A, !A) -> !A
  %6 = usm.maximum %a, %b : (!A, !A) -> !A
  %7 = usm.minimum %a, %b : (!A, !A) -> !A
  %8 = usm.negative %a : (!A) -> !A
  %9 = usm.abs %a : (!A) -> !A
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !A, !A, !A, !A, !A, !A, !A, !A, !A, !A
}

// -----

// ui8
// FOR: n in [131]
// INPUT: a = edges(n, 'ui8')
// INPUT: b = edges(n, 'ui8')
// INPUT: e = rand(n, 'ui8', 0, 70)
// EXPECT: a + b
// EXPECT: a - b
// EXPECT: a * b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: a ** e
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: -a
// EXPECT: np.abs(a)
!A = !usm.array<?xui8, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %e: !A) -> (!A, !A, !A, !A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.mul %a, %b : (!A, !A) -> !A
  %3 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %4 = usm.remainder %a, %b : (!A, !A) -> !A
  %5 = usm.pow %a, %e : (!A, !A) -> !A
  %6 = usm.maximum %a, %b : (!A, !A) -> !A
  %7 = usm.minimum %a, %b : (!A, !A) -> !A
  %8 = usm.negative %a : (!A) -> !A
  %9 = usm.abs %a : (!A) -> !A
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !A, !A, !A, !A, !A, !A, !A, !A, !A, !A
}

// -----

// ui16
// FOR: n in [131]
// INPUT: a = edges(n, 'ui16')
// INPUT: b = edges(n, 'ui16')
// INPUT: e = rand(n, 'ui16', 0, 70)
// EXPECT: a + b
// EXPECT: a - b
// EXPECT: a * b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: a ** e
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: -a
// EXPECT: np.abs(a)
!A = !usm.array<?xui16, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %e: !A) -> (!A, !A, !A, !A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.mul %a, %b : (!A, !A) -> !A
  %3 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %4 = usm.remainder %a, %b : (!A, !A) -> !A
  %5 = usm.pow %a, %e : (!A, !A) -> !A
  %6 = usm.maximum %a, %b : (!A, !A) -> !A
  %7 = usm.minimum %a, %b : (!A, !A) -> !A
  %8 = usm.negative %a : (!A) -> !A
  %9 = usm.abs %a : (!A) -> !A
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !A, !A, !A, !A, !A, !A, !A, !A, !A, !A
}

// -----

// ui32
// FOR: n in [131]
// INPUT: a = edges(n, 'ui32')
// INPUT: b = edges(n, 'ui32')
// INPUT: e = rand(n, 'ui32', 0, 70)
// EXPECT: a + b
// EXPECT: a - b
// EXPECT: a * b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: a ** e
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: -a
// EXPECT: np.abs(a)
!A = !usm.array<?xui32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %e: !A) -> (!A, !A, !A, !A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.mul %a, %b : (!A, !A) -> !A
  %3 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %4 = usm.remainder %a, %b : (!A, !A) -> !A
  %5 = usm.pow %a, %e : (!A, !A) -> !A
  %6 = usm.maximum %a, %b : (!A, !A) -> !A
  %7 = usm.minimum %a, %b : (!A, !A) -> !A
  %8 = usm.negative %a : (!A) -> !A
  %9 = usm.abs %a : (!A) -> !A
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !A, !A, !A, !A, !A, !A, !A, !A, !A, !A
}

// -----

// ui64
// FOR: n in [131]
// INPUT: a = edges(n, 'ui64')
// INPUT: b = edges(n, 'ui64')
// INPUT: e = rand(n, 'ui64', 0, 70)
// EXPECT: a + b
// EXPECT: a - b
// EXPECT: a * b
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: a ** e
// EXPECT: np.maximum(a, b)
// EXPECT: np.minimum(a, b)
// EXPECT: -a
// EXPECT: np.abs(a)
!A = !usm.array<?xui64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %e: !A) -> (!A, !A, !A, !A, !A, !A, !A, !A, !A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.mul %a, %b : (!A, !A) -> !A
  %3 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %4 = usm.remainder %a, %b : (!A, !A) -> !A
  %5 = usm.pow %a, %e : (!A, !A) -> !A
  %6 = usm.maximum %a, %b : (!A, !A) -> !A
  %7 = usm.minimum %a, %b : (!A, !A) -> !A
  %8 = usm.negative %a : (!A) -> !A
  %9 = usm.abs %a : (!A) -> !A
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !A, !A, !A, !A, !A, !A, !A, !A, !A, !A
}

// -----

// The minimum divided by -1 and other sign combinations, every signed width.
// INPUT: a = np.array([-2**31, -2**31, 5, -7, 7, 0, -2**31 + 1, 2**31 - 1], np.int32)
// INPUT: b = np.array([-1, 1, -1, 2, -2, -1, -1, -1], np.int32)
// INPUT: c = np.array([-2**63, -2**63, 5, -7, 7, 0, -2**63 + 1, 2**63 - 1], np.int64)
// INPUT: d = np.array([-128, -128, 5, -7, 7, 0, -127, 127], np.int8)
// EXPECT: a // b
// EXPECT: a % b
// EXPECT: c // b.astype(np.int64)
// EXPECT: c % b.astype(np.int64)
// EXPECT: d // b.astype(np.int8)
// EXPECT: d % b.astype(np.int8)
!A = !usm.array<8xi32, "host:cpu:0", device>
!C = !usm.array<8xi64, "host:cpu:0", device>
!D = !usm.array<8xi8, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %c: !C, %d: !D) -> (!A, !A, !C, !C, !D, !D) {
  %0 = usm.floor_divide %a, %b : (!A, !A) -> !A
  %1 = usm.remainder %a, %b : (!A, !A) -> !A
  %b64 = usm.astype %b : !A to !C
  %2 = usm.floor_divide %c, %b64 : (!C, !C) -> !C
  %3 = usm.remainder %c, %b64 : (!C, !C) -> !C
  %b8 = usm.astype %b : !A to !D
  %4 = usm.floor_divide %d, %b8 : (!D, !D) -> !D
  %5 = usm.remainder %d, %b8 : (!D, !D) -> !D
  return %0, %1, %2, %3, %4, %5 : !A, !A, !C, !C, !D, !D
}

// -----

// Integer pow with negative exponents: NumPy refuses them; Sluice gives
// 1 / x**-e truncated toward zero (1 for x = 1, +-1 for x = -1, else 0).
// Large exponents wrap like repeated multiplication.
// INPUT: a = np.array([2, -2, 3, 0, 1, -1, -1, 7, 2, -3, 1, -1, 3, 0, 5, -5], np.int64)
// INPUT: e = np.array([62, 63, 40, 0, -5, -3, -4, 0, 64, 3, 2**62, 2**62 + 1, 2**40 + 7, -1, -2, -2**63], np.int64)
// EXPECT: np.array([2**62, -2**63, 3**40 % 2**64 - 2**64, 1, 1, -1, 1, 1, 0, -27, 1, -1, 872708767244880011, 0, 0, 0], np.int64)
!A = !usm.array<16xi64, "host:cpu:0", device>
func.func @main(%a: !A, %e: !A) -> !A {
  %0 = usm.pow %a, %e : (!A, !A) -> !A
  return %0 : !A
}

// -----

// Scalar operands of signed and unsigned types, on either side.
// FOR: n in [0, 67]
// INPUT: a = edges(n, 'i32')
// INPUT: s = scalar(-7, 'i32')
// INPUT: u = edges(n, 'ui8')
// INPUT: t = scalar(200, 'ui8')
// INPUT: w = edges(n, 'ui64')
// INPUT: v = scalar(2**63 + 5, 'ui64')
// EXPECT: a * s
// EXPECT: s // a
// EXPECT: a % s
// EXPECT: u + t
// EXPECT: t - u
// EXPECT: np.maximum(u, t)
// EXPECT: w // v
// EXPECT: v % w
// EXPECT: np.minimum(w, v)
!A = !usm.array<?xi32, "host:cpu:0", device>
!U = !usm.array<?xui8, "host:cpu:0", device>
!W = !usm.array<?xui64, "host:cpu:0", device>
func.func @main(%a: !A, %s: i32, %u: !U, %t: ui8, %w: !W, %v: ui64) -> (!A, !A, !A, !U, !U, !U, !W, !W, !W) {
  %0 = usm.mul %a, %s : (!A, i32) -> !A
  %1 = usm.floor_divide %s, %a : (i32, !A) -> !A
  %2 = usm.remainder %a, %s : (!A, i32) -> !A
  %3 = usm.add %u, %t : (!U, ui8) -> !U
  %4 = usm.sub %t, %u : (ui8, !U) -> !U
  %5 = usm.maximum %u, %t : (!U, ui8) -> !U
  %6 = usm.floor_divide %w, %v : (!W, ui64) -> !W
  %7 = usm.remainder %v, %w : (ui64, !W) -> !W
  %8 = usm.minimum %w, %v : (!W, ui64) -> !W
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !A, !A, !A, !U, !U, !U, !W, !W, !W
}
