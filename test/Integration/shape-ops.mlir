// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// reshape (a row-major view) and transpose (a copy), static and dynamic,
// alone and between elementwise ops and reductions (which they never fuse
// with), and chains of them (which canonicalize composes).

// INPUT: a = rand((2, 6), 'f32')
// INPUT: b = rand((12,), 'i64')
// INPUT: c = rand((2, 3, 4), 'ui8')
// EXPECT: a.reshape(3, 4)
// EXPECT: b.reshape(2, 2, 3)
// EXPECT: a.reshape(1, 12, 1)
// EXPECT: c.transpose(2, 0, 1)
// EXPECT: c.transpose(1, 0, 2)
// EXPECT: a.T
// EXPECT: c.reshape(6, 4).T.reshape(2, 12)
!A = !usm.array<2x6xf32, "host:cpu:0", device>
!B = !usm.array<12xi64, "host:cpu:0", device>
!C = !usm.array<2x3x4xui8, "host:cpu:0", device>
func.func @main(%a: !A, %b: !B, %c: !C) -> (!usm.array<3x4xf32, "host:cpu:0", device>, !usm.array<2x2x3xi64, "host:cpu:0", device>, !usm.array<1x12x1xf32, "host:cpu:0", device>, !usm.array<4x2x3xui8, "host:cpu:0", device>, !usm.array<3x2x4xui8, "host:cpu:0", device>, !usm.array<6x2xf32, "host:cpu:0", device>, !usm.array<2x12xui8, "host:cpu:0", device>) {
  %0 = usm.reshape %a : !A -> !usm.array<3x4xf32, "host:cpu:0", device>
  %1 = usm.reshape %b : !B -> !usm.array<2x2x3xi64, "host:cpu:0", device>
  %2 = usm.reshape %a : !A -> !usm.array<1x12x1xf32, "host:cpu:0", device>
  %3 = usm.transpose %c [2, 0, 1] : !C -> !usm.array<4x2x3xui8, "host:cpu:0", device>
  %4 = usm.transpose %c [1, 0, 2] : !C -> !usm.array<3x2x4xui8, "host:cpu:0", device>
  %5 = usm.transpose %a [1, 0] : !A -> !usm.array<6x2xf32, "host:cpu:0", device>
  %r = usm.reshape %c : !C -> !usm.array<6x4xui8, "host:cpu:0", device>
  %t = usm.transpose %r [1, 0] : !usm.array<6x4xui8, "host:cpu:0", device> -> !usm.array<4x6xui8, "host:cpu:0", device>
  %6 = usm.reshape %t : !usm.array<4x6xui8, "host:cpu:0", device> -> !usm.array<2x12xui8, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6 : !usm.array<3x4xf32, "host:cpu:0", device>, !usm.array<2x2x3xi64, "host:cpu:0", device>, !usm.array<1x12x1xf32, "host:cpu:0", device>, !usm.array<4x2x3xui8, "host:cpu:0", device>, !usm.array<3x2x4xui8, "host:cpu:0", device>, !usm.array<6x2xf32, "host:cpu:0", device>, !usm.array<2x12xui8, "host:cpu:0", device>
}

// -----

// Dynamic shapes: flatten (?, 3) to (?), reshape the flat array back with
// another leading size, transpose (?, 3, ?) and reduce after each.
// FOR: n, m in [(0, 2), (1, 1), (4, 5), (300, 7)]
// INPUT: a = rand((n, 3), 'f32', 0.5, 1.5)
// INPUT: k = scalar(3 * n, 'i64')
// INPUT: h = scalar(n, 'i64')
// INPUT: t = rand((n, 3, m), 'i32')
// EXPECT: a.reshape(-1)
// EXPECT: a.reshape(3, n)
// EXPECT: np.exp(a).reshape(3, n).sum(axis=1)
// EXPECT: t.transpose(2, 0, 1)
// EXPECT: t.transpose(1, 2, 0).sum(axis=-1)
!A = !usm.array<?x3xf32, "host:cpu:0", device>
!F = !usm.array<?xf32, "host:cpu:0", device>
!G = !usm.array<3x?xf32, "host:cpu:0", device>
!T = !usm.array<?x3x?xi32, "host:cpu:0", device>
func.func @main(%a: !A, %k: i64, %h: i64, %t: !T) -> (!F, !G, !usm.array<3xf32, "host:cpu:0", device>, !usm.array<?x?x3xi32, "host:cpu:0", device>, !usm.array<3x?xi64, "host:cpu:0", device>) {
  %kn = arith.index_cast %k : i64 to index
  %hn = arith.index_cast %h : i64 to index
  %0 = usm.reshape %a (%kn) : !A -> !F
  %1 = usm.reshape %0 (%hn) : !F -> !G
  %e = usm.exp %a : (!A) -> !A
  %g = usm.reshape %e (%hn) : !A -> !G
  %2 = usm.sum %g axes [1] : !G -> !usm.array<3xf32, "host:cpu:0", device>
  %3 = usm.transpose %t [2, 0, 1] : !T -> !usm.array<?x?x3xi32, "host:cpu:0", device>
  %tt = usm.transpose %t [1, 2, 0] : !T -> !usm.array<3x?x?xi32, "host:cpu:0", device>
  %4 = usm.sum %tt axes [-1] : !usm.array<3x?x?xi32, "host:cpu:0", device> -> !usm.array<3x?xi64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4 : !F, !G, !usm.array<3xf32, "host:cpu:0", device>, !usm.array<?x?x3xi32, "host:cpu:0", device>, !usm.array<3x?xi64, "host:cpu:0", device>
}

// -----

// A large transpose (several host workgroups) feeding arithmetic, and a
// transpose of a boolean mask.
// INPUT: a = rand((1000, 1031), 'f64')
// INPUT: b = rand((1031, 1000), 'f64')
// EXPECT: a.T * b
// EXPECT: (a > 0).T
!A = !usm.array<1000x1031xf64, "host:cpu:0", device>
!B = !usm.array<1031x1000xf64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !B) -> (!B, !usm.array<1031x1000xi1, "host:cpu:0", device>) {
  %zero = arith.constant 0.0 : f64
  %t = usm.transpose %a [1, 0] : !A -> !B
  %0 = usm.mul %t, %b : (!B, !B) -> !B
  %m = usm.gt %a, %zero : (!A, f64) -> !usm.array<1000x1031xi1, "host:cpu:0", device>
  %1 = usm.transpose %m [1, 0] : !usm.array<1000x1031xi1, "host:cpu:0", device> -> !usm.array<1031x1000xi1, "host:cpu:0", device>
  return %0, %1 : !B, !usm.array<1031x1000xi1, "host:cpu:0", device>
}
