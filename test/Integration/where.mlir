// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// usm.where(c, x, y) against np.where: array and scalar operands in every
// position, broadcasting of all three, several element types, and a
// condition computed in the same kernel.

// FOR: n in [0, 67]
// INPUT: c = rand(n, 'i1')
// INPUT: x = rand(n, 'f32')
// INPUT: y = rand(n, 'f32')
// INPUT: s = scalar(-2.5, 'f32')
// EXPECT: np.where(c, x, y)
// EXPECT: np.where(c, x, s)
// EXPECT: np.where(c, s, y)
// EXPECT: np.where(x > y, x, np.float32(0))
!A = !usm.array<?xf32, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%c: !B, %x: !A, %y: !A, %s: f32) -> (!A, !A, !A, !A) {
  %zero = arith.constant 0.0 : f32
  %0 = usm.where %c, %x, %y : (!B, !A, !A) -> !A
  %1 = usm.where %c, %x, %s : (!B, !A, f32) -> !A
  %2 = usm.where %c, %s, %y : (!B, f32, !A) -> !A
  %gt = usm.gt %x, %y : (!A, !A) -> !B
  %3 = usm.where %gt, %x, %zero : (!B, !A, f32) -> !A
  return %0, %1, %2, %3 : !A, !A, !A, !A
}

// -----

// Broadcasting: a column condition, a row x, a scalar-shaped y; two scalars
// with an array condition; a scalar condition with arrays.
// INPUT: c = rand((5, 1), 'i1')
// INPUT: x = rand((7,), 'i64')
// INPUT: y = rand((1, 1), 'i64')
// INPUT: k = rand((5, 7), 'i1')
// INPUT: t = scalar(True, 'i1')
// INPUT: u = rand((5, 7), 'ui8')
// INPUT: v = rand((7,), 'ui8')
// EXPECT: np.where(c, x, y)
// EXPECT: np.where(k, np.int64(3), np.int64(-4))
// EXPECT: np.where(t, u, v)
// EXPECT: np.where(k, c, ~c)
!C = !usm.array<5x1xi1, "host:cpu:0", device>
!X = !usm.array<7xi64, "host:cpu:0", device>
!Y = !usm.array<1x1xi64, "host:cpu:0", device>
!R = !usm.array<5x7xi64, "host:cpu:0", device>
!K = !usm.array<5x7xi1, "host:cpu:0", device>
!U = !usm.array<5x7xui8, "host:cpu:0", device>
!V = !usm.array<7xui8, "host:cpu:0", device>
func.func @main(%c: !C, %x: !X, %y: !Y, %k: !K, %t: i1, %u: !U, %v: !V) -> (!R, !R, !U, !K) {
  %three = arith.constant 3 : i64
  %m4 = arith.constant -4 : i64
  %0 = usm.where %c, %x, %y : (!C, !X, !Y) -> !R
  %1 = usm.where %k, %three, %m4 : (!K, i64, i64) -> !R
  %2 = usm.where %t, %u, %v : (i1, !U, !V) -> !U
  %nc = usm.logical_not %c : (!C) -> !C
  %3 = usm.where %k, %c, %nc : (!K, !C, !C) -> !K
  return %0, %1, %2, %3 : !R, !R, !U, !K
}
