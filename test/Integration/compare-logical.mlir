// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// Comparisons (eq ne lt le gt ge) and logical ops (and, or, not: the truth
// value of any element type) on every element type against NumPy; results
// are i1 (bool). Floats include 0, -0, +-inf and NaN: every comparison with
// NaN is false except ne, and NaN is true. Unsigned types compare unsigned,
// i1 as False < True. Operands are drawn from a small set so that equal
// pairs are common.

// f32
// FOR: n in [0, 1000]
// INPUT: a = np.where(rand(n, 'i1'), special(n, 'f32'), rand(n, 'f32', -2, 2).round())
// INPUT: b = np.where(rand(n, 'i1'), special(n, 'f32'), rand(n, 'f32', -2, 2).round())
// EXPECT: a == b
// EXPECT: a != b
// EXPECT: a < b
// EXPECT: a <= b
// EXPECT: a > b
// EXPECT: a >= b
// EXPECT: np.logical_and(a, b)
// EXPECT: np.logical_or(a, b)
// EXPECT: np.logical_not(a)
!A = !usm.array<?xf32, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!B, !B, !B, !B, !B, !B, !B, !B, !B) {
  %0 = usm.eq %a, %b : (!A, !A) -> !B
  %1 = usm.ne %a, %b : (!A, !A) -> !B
  %2 = usm.lt %a, %b : (!A, !A) -> !B
  %3 = usm.le %a, %b : (!A, !A) -> !B
  %4 = usm.gt %a, %b : (!A, !A) -> !B
  %5 = usm.ge %a, %b : (!A, !A) -> !B
  %6 = usm.logical_and %a, %b : (!A, !A) -> !B
  %7 = usm.logical_or %a, %b : (!A, !A) -> !B
  %8 = usm.logical_not %a : (!A) -> !B
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !B, !B, !B, !B, !B, !B, !B, !B, !B
}

// -----

// f64
// FOR: n in [1000]
// INPUT: a = np.where(rand(n, 'i1'), special(n, 'f64'), rand(n, 'f64', -2, 2).round())
// INPUT: b = np.where(rand(n, 'i1'), special(n, 'f64'), rand(n, 'f64', -2, 2).round())
// EXPECT: a == b
// EXPECT: a != b
// EXPECT: a < b
// EXPECT: a <= b
// EXPECT: a > b
// EXPECT: a >= b
// EXPECT: np.logical_and(a, b)
// EXPECT: np.logical_or(a, b)
// EXPECT: np.logical_not(a)
!A = !usm.array<?xf64, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!B, !B, !B, !B, !B, !B, !B, !B, !B) {
  %0 = usm.eq %a, %b : (!A, !A) -> !B
  %1 = usm.ne %a, %b : (!A, !A) -> !B
  %2 = usm.lt %a, %b : (!A, !A) -> !B
  %3 = usm.le %a, %b : (!A, !A) -> !B
  %4 = usm.gt %a, %b : (!A, !A) -> !B
  %5 = usm.ge %a, %b : (!A, !A) -> !B
  %6 = usm.logical_and %a, %b : (!A, !A) -> !B
  %7 = usm.logical_or %a, %b : (!A, !A) -> !B
  %8 = usm.logical_not %a : (!A) -> !B
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !B, !B, !B, !B, !B, !B, !B, !B, !B
}

// -----

// f16
// FOR: n in [1000]
// INPUT: a = np.where(rand(n, 'i1'), special(n, 'f16'), rand(n, 'f16', -2, 2).round())
// INPUT: b = np.where(rand(n, 'i1'), special(n, 'f16'), rand(n, 'f16', -2, 2).round())
// EXPECT: a == b
// EXPECT: a != b
// EXPECT: a < b
// EXPECT: a <= b
// EXPECT: a > b
// EXPECT: a >= b
// EXPECT: np.logical_and(a, b)
// EXPECT: np.logical_or(a, b)
// EXPECT: np.logical_not(a)
!A = !usm.array<?xf16, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!B, !B, !B, !B, !B, !B, !B, !B, !B) {
  %0 = usm.eq %a, %b : (!A, !A) -> !B
  %1 = usm.ne %a, %b : (!A, !A) -> !B
  %2 = usm.lt %a, %b : (!A, !A) -> !B
  %3 = usm.le %a, %b : (!A, !A) -> !B
  %4 = usm.gt %a, %b : (!A, !A) -> !B
  %5 = usm.ge %a, %b : (!A, !A) -> !B
  %6 = usm.logical_and %a, %b : (!A, !A) -> !B
  %7 = usm.logical_or %a, %b : (!A, !A) -> !B
  %8 = usm.logical_not %a : (!A) -> !B
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !B, !B, !B, !B, !B, !B, !B, !B, !B
}

// -----

// i8
// FOR: n in [1000]
// INPUT: a = np.where(rand(n, 'i1'), edges(n, 'i8'), rand(n, 'i8', 0, 3))
// INPUT: b = np.where(rand(n, 'i1'), edges(n, 'i8'), rand(n, 'i8', 0, 3))
// EXPECT: a == b
// EXPECT: a != b
// EXPECT: a < b
// EXPECT: a <= b
// EXPECT: a > b
// EXPECT: a >= b
// EXPECT: np.logical_and(a, b)
// EXPECT: np.logical_or(a, b)
// EXPECT: np.logical_not(a)
!A = !usm.array<?xi8, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!B, !B, !B, !B, !B, !B, !B, !B, !B) {
  %0 = usm.eq %a, %b : (!A, !A) -> !B
  %1 = usm.ne %a, %b : (!A, !A) -> !B
  %2 = usm.lt %a, %b : (!A, !A) -> !B
  %3 = usm.le %a, %b : (!A, !A) -> !B
  %4 = usm.gt %a, %b : (!A, !A) -> !B
  %5 = usm.ge %a, %b : (!A, !A) -> !B
  %6 = usm.logical_and %a, %b : (!A, !A) -> !B
  %7 = usm.logical_or %a, %b : (!A, !A) -> !B
  %8 = usm.logical_not %a : (!A) -> !B
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !B, !B, !B, !B, !B, !B, !B, !B, !B
}

// -----

// i32
// FOR: n in [1000]
// INPUT: a = np.where(rand(n, 'i1'), edges(n, 'i32'), rand(n, 'i32', 0, 3))
// INPUT: b = np.where(rand(n, 'i1'), edges(n, 'i32'), rand(n, 'i32', 0, 3))
// EXPECT: a == b
// EXPECT: a != b
// EXPECT: a < b
// EXPECT: a <= b
// EXPECT: a > b
// EXPECT: a >= b
// EXPECT: np.logical_and(a, b)
// EXPECT: np.logical_or(a, b)
// EXPECT: np.logical_not(a)
!A = !usm.array<?xi32, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!B, !B, !B, !B, !B, !B, !B, !B, !B) {
  %0 = usm.eq %a, %b : (!A, !A) -> !B
  %1 = usm.ne %a, %b : (!A, !A) -> !B
  %2 = usm.lt %a, %b : (!A, !A) -> !B
  %3 = usm.le %a, %b : (!A, !A) -> !B
  %4 = usm.gt %a, %b : (!A, !A) -> !B
  %5 = usm.ge %a, %b : (!A, !A) -> !B
  %6 = usm.logical_and %a, %b : (!A, !A) -> !B
  %7 = usm.logical_or %a, %b : (!A, !A) -> !B
  %8 = usm.logical_not %a : (!A) -> !B
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !B, !B, !B, !B, !B, !B, !B, !B, !B
}

// -----

// i64
// FOR: n in [1000]
// INPUT: a = np.where(rand(n, 'i1'), edges(n, 'i64'), rand(n, 'i64', 0, 3))
// INPUT: b = np.where(rand(n, 'i1'), edges(n, 'i64'), rand(n, 'i64', 0, 3))
// EXPECT: a == b
// EXPECT: a != b
// EXPECT: a < b
// EXPECT: a <= b
// EXPECT: a > b
// EXPECT: a >= b
// EXPECT: np.logical_and(a, b)
// EXPECT: np.logical_or(a, b)
// EXPECT: np.logical_not(a)
!A = !usm.array<?xi64, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!B, !B, !B, !B, !B, !B, !B, !B, !B) {
  %0 = usm.eq %a, %b : (!A, !A) -> !B
  %1 = usm.ne %a, %b : (!A, !A) -> !B
  %2 = usm.lt %a, %b : (!A, !A) -> !B
  %3 = usm.le %a, %b : (!A, !A) -> !B
  %4 = usm.gt %a, %b : (!A, !A) -> !B
  %5 = usm.ge %a, %b : (!A, !A) -> !B
  %6 = usm.logical_and %a, %b : (!A, !A) -> !B
  %7 = usm.logical_or %a, %b : (!A, !A) -> !B
  %8 = usm.logical_not %a : (!A) -> !B
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !B, !B, !B, !B, !B, !B, !B, !B, !B
}

// -----

// ui8
// FOR: n in [1000]
// INPUT: a = np.where(rand(n, 'i1'), edges(n, 'ui8'), rand(n, 'ui8', 0, 3))
// INPUT: b = np.where(rand(n, 'i1'), edges(n, 'ui8'), rand(n, 'ui8', 0, 3))
// EXPECT: a == b
// EXPECT: a != b
// EXPECT: a < b
// EXPECT: a <= b
// EXPECT: a > b
// EXPECT: a >= b
// EXPECT: np.logical_and(a, b)
// EXPECT: np.logical_or(a, b)
// EXPECT: np.logical_not(a)
!A = !usm.array<?xui8, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!B, !B, !B, !B, !B, !B, !B, !B, !B) {
  %0 = usm.eq %a, %b : (!A, !A) -> !B
  %1 = usm.ne %a, %b : (!A, !A) -> !B
  %2 = usm.lt %a, %b : (!A, !A) -> !B
  %3 = usm.le %a, %b : (!A, !A) -> !B
  %4 = usm.gt %a, %b : (!A, !A) -> !B
  %5 = usm.ge %a, %b : (!A, !A) -> !B
  %6 = usm.logical_and %a, %b : (!A, !A) -> !B
  %7 = usm.logical_or %a, %b : (!A, !A) -> !B
  %8 = usm.logical_not %a : (!A) -> !B
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !B, !B, !B, !B, !B, !B, !B, !B, !B
}

// -----

// ui32
// FOR: n in [1000]
// INPUT: a = np.where(rand(n, 'i1'), edges(n, 'ui32'), rand(n, 'ui32', 0, 3))
// INPUT: b = np.where(rand(n, 'i1'), edges(n, 'ui32'), rand(n, 'ui32', 0, 3))
// EXPECT: a == b
// EXPECT: a != b
// EXPECT: a < b
// EXPECT: a <= b
// EXPECT: a > b
// EXPECT: a >= b
// EXPECT: np.logical_and(a, b)
// EXPECT: np.logical_or(a, b)
// EXPECT: np.logical_not(a)
!A = !usm.array<?xui32, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!B, !B, !B, !B, !B, !B, !B, !B, !B) {
  %0 = usm.eq %a, %b : (!A, !A) -> !B
  %1 = usm.ne %a, %b : (!A, !A) -> !B
  %2 = usm.lt %a, %b : (!A, !A) -> !B
  %3 = usm.le %a, %b : (!A, !A) -> !B
  %4 = usm.gt %a, %b : (!A, !A) -> !B
  %5 = usm.ge %a, %b : (!A, !A) -> !B
  %6 = usm.logical_and %a, %b : (!A, !A) -> !B
  %7 = usm.logical_or %a, %b : (!A, !A) -> !B
  %8 = usm.logical_not %a : (!A) -> !B
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !B, !B, !B, !B, !B, !B, !B, !B, !B
}

// -----

// ui64
// FOR: n in [1000]
// INPUT: a = np.where(rand(n, 'i1'), edges(n, 'ui64'), rand(n, 'ui64', 0, 3))
// INPUT: b = np.where(rand(n, 'i1'), edges(n, 'ui64'), rand(n, 'ui64', 0, 3))
// EXPECT: a == b
// EXPECT: a != b
// EXPECT: a < b
// EXPECT: a <= b
// EXPECT: a > b
// EXPECT: a >= b
// EXPECT: np.logical_and(a, b)
// EXPECT: np.logical_or(a, b)
// EXPECT: np.logical_not(a)
!A = !usm.array<?xui64, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!B, !B, !B, !B, !B, !B, !B, !B, !B) {
  %0 = usm.eq %a, %b : (!A, !A) -> !B
  %1 = usm.ne %a, %b : (!A, !A) -> !B
  %2 = usm.lt %a, %b : (!A, !A) -> !B
  %3 = usm.le %a, %b : (!A, !A) -> !B
  %4 = usm.gt %a, %b : (!A, !A) -> !B
  %5 = usm.ge %a, %b : (!A, !A) -> !B
  %6 = usm.logical_and %a, %b : (!A, !A) -> !B
  %7 = usm.logical_or %a, %b : (!A, !A) -> !B
  %8 = usm.logical_not %a : (!A) -> !B
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !B, !B, !B, !B, !B, !B, !B, !B, !B
}

// -----

// i1
// FOR: n in [1000]
// INPUT: a = rand(n, 'i1')
// INPUT: b = rand(n, 'i1')
// EXPECT: a == b
// EXPECT: a != b
// EXPECT: a < b
// EXPECT: a <= b
// EXPECT: a > b
// EXPECT: a >= b
// EXPECT: np.logical_and(a, b)
// EXPECT: np.logical_or(a, b)
// EXPECT: np.logical_not(a)
!A = !usm.array<?xi1, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!B, !B, !B, !B, !B, !B, !B, !B, !B) {
  %0 = usm.eq %a, %b : (!A, !A) -> !B
  %1 = usm.ne %a, %b : (!A, !A) -> !B
  %2 = usm.lt %a, %b : (!A, !A) -> !B
  %3 = usm.le %a, %b : (!A, !A) -> !B
  %4 = usm.gt %a, %b : (!A, !A) -> !B
  %5 = usm.ge %a, %b : (!A, !A) -> !B
  %6 = usm.logical_and %a, %b : (!A, !A) -> !B
  %7 = usm.logical_or %a, %b : (!A, !A) -> !B
  %8 = usm.logical_not %a : (!A) -> !B
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !B, !B, !B, !B, !B, !B, !B, !B, !B
}

// -----

// Scalars against arrays, maximum/minimum of booleans (or/and), and
// comparisons feeding logical ops (one fused kernel).
// FOR: n in [67]
// INPUT: a = rand(n, 'f32', -2, 2).round()
// INPUT: s = scalar(1.0, 'f32')
// INPUT: i = rand(n, 'ui16', 0, 4)
// INPUT: t = scalar(2, 'ui16')
// INPUT: p = rand(n, 'i1')
// INPUT: q = rand(n, 'i1')
// EXPECT: a < s
// EXPECT: s == a
// EXPECT: i >= t
// EXPECT: t != i
// EXPECT: np.maximum(p, q)
// EXPECT: np.minimum(p, q)
// EXPECT: np.logical_or(np.logical_and(a > s, p), np.logical_not(i <= t))
!A = !usm.array<?xf32, "host:cpu:0", device>
!I = !usm.array<?xui16, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %s: f32, %i: !I, %t: ui16, %p: !B, %q: !B) -> (!B, !B, !B, !B, !B, !B, !B) {
  %0 = usm.lt %a, %s : (!A, f32) -> !B
  %1 = usm.eq %s, %a : (f32, !A) -> !B
  %2 = usm.ge %i, %t : (!I, ui16) -> !B
  %3 = usm.ne %t, %i : (ui16, !I) -> !B
  %4 = usm.maximum %p, %q : (!B, !B) -> !B
  %5 = usm.minimum %p, %q : (!B, !B) -> !B
  %g = usm.gt %a, %s : (!A, f32) -> !B
  %and = usm.logical_and %g, %p : (!B, !B) -> !B
  %le = usm.le %i, %t : (!I, ui16) -> !B
  %not = usm.logical_not %le : (!B) -> !B
  %6 = usm.logical_or %and, %not : (!B, !B) -> !B
  return %0, %1, %2, %3, %4, %5, %6 : !B, !B, !B, !B, !B, !B, !B
}
