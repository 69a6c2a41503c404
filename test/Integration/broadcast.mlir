// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// NumPy broadcasting in elementwise ops and usm.broadcast_to: rows, columns,
// outer products of 1-sized dimensions, rank extension, 0-d arrays and
// scalars, static and dynamic shapes (a dynamic dimension meets an equal one
// or a static 1; see dynamic-shapes.mlir for sizes).

// Static shapes.
// INPUT: a = rand((4, 3), 'f32')
// INPUT: r = rand((3,), 'f32')
// INPUT: c = rand((4, 1), 'f32')
// INPUT: o = rand((1, 3), 'f32')
// INPUT: z = rand((), 'f32')
// INPUT: u = rand((1,), 'f32')
// INPUT: t = rand((2, 1, 3), 'f32')
// EXPECT: a + r
// EXPECT: a * c
// EXPECT: c - o
// EXPECT: a / (z + np.float32(2))
// EXPECT: np.maximum(u, a)
// EXPECT: t + c
// EXPECT: r + z
!A = !usm.array<4x3xf32, "host:cpu:0", device>
!R = !usm.array<3xf32, "host:cpu:0", device>
!C = !usm.array<4x1xf32, "host:cpu:0", device>
!O = !usm.array<1x3xf32, "host:cpu:0", device>
!Z = !usm.array<f32, "host:cpu:0", device>
!U = !usm.array<1xf32, "host:cpu:0", device>
!T = !usm.array<2x1x3xf32, "host:cpu:0", device>
!T3 = !usm.array<2x4x3xf32, "host:cpu:0", device>
func.func @main(%a: !A, %r: !R, %c: !C, %o: !O, %z: !Z, %u: !U, %t: !T) -> (!A, !A, !A, !A, !A, !T3, !R) {
  %two = arith.constant 2.0 : f32
  %0 = usm.add %a, %r : (!A, !R) -> !A
  %1 = usm.mul %a, %c : (!A, !C) -> !A
  %2 = usm.sub %c, %o : (!C, !O) -> !A
  %z2 = usm.add %z, %two : (!Z, f32) -> !Z
  %3 = usm.div %a, %z2 : (!A, !Z) -> !A
  %4 = usm.maximum %u, %a : (!U, !A) -> !A
  %5 = usm.add %t, %c : (!T, !C) -> !T3
  %6 = usm.add %r, %z : (!R, !Z) -> !R
  return %0, %1, %2, %3, %4, %5, %6 : !A, !A, !A, !A, !A, !T3, !R
}

// -----

// Dynamic leading dimension against rows, static 1s and equal dynamic
// dimensions; rank extension of a dynamic 2-D array to 3-D.
// FOR: n, m in [(0, 3), (1, 1), (5, 7), (67, 2)]
// INPUT: a = rand((n, m), 'f64')
// INPUT: b = rand((n, m), 'f64')
// INPUT: r = rand((m,), 'f64')
// INPUT: c = rand((n, 1), 'f64')
// INPUT: t = rand((2, 1, 1), 'f64')
// EXPECT: a + r
// EXPECT: a * c + b
// EXPECT: t * a
// EXPECT: r - c
!A = !usm.array<?x?xf64, "host:cpu:0", device>
!R = !usm.array<?xf64, "host:cpu:0", device>
!C = !usm.array<?x1xf64, "host:cpu:0", device>
!T = !usm.array<2x1x1xf64, "host:cpu:0", device>
!T3 = !usm.array<2x?x?xf64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %r: !R, %c: !C, %t: !T) -> (!A, !A, !T3, !A) {
  %0 = usm.add %a, %r : (!A, !R) -> !A
  %ac = usm.mul %a, %c : (!A, !C) -> !A
  %1 = usm.add %ac, %b : (!A, !A) -> !A
  %2 = usm.mul %t, %a : (!T, !A) -> !T3
  %3 = usm.sub %r, %c : (!R, !C) -> !A
  return %0, %1, %2, %3 : !A, !A, !T3, !A
}

// -----

// Integer and boolean broadcasting with scalars.
// INPUT: a = rand((3, 1, 5), 'i32')
// INPUT: b = rand((4, 1), 'i32')
// INPUT: s = scalar(7, 'i32')
// INPUT: p = rand((4, 5), 'i1')
// INPUT: q = rand((5,), 'i1')
// EXPECT: a * b + s
// EXPECT: np.logical_and(p, q)
// EXPECT: (a > s) | q
!A = !usm.array<3x1x5xi32, "host:cpu:0", device>
!B = !usm.array<4x1xi32, "host:cpu:0", device>
!R = !usm.array<3x4x5xi32, "host:cpu:0", device>
!P = !usm.array<4x5xi1, "host:cpu:0", device>
!Q = !usm.array<5xi1, "host:cpu:0", device>
!M = !usm.array<3x1x5xi1, "host:cpu:0", device>
func.func @main(%a: !A, %b: !B, %s: i32, %p: !P, %q: !Q) -> (!R, !P, !M) {
  %ab = usm.mul %a, %b : (!A, !B) -> !R
  %0 = usm.add %ab, %s : (!R, i32) -> !R
  %1 = usm.logical_and %p, %q : (!P, !Q) -> !P
  %g = usm.gt %a, %s : (!A, i32) -> !M
  %2 = usm.logical_or %g, %q : (!M, !Q) -> !M
  return %0, %1, %2 : !R, !P, !M
}

// -----

// usm.broadcast_to: new leading axes, stretched 1s, dynamic result sizes
// (given as i64 arguments), and a broadcast feeding arithmetic.
// FOR: n in [0, 1, 9]
// INPUT: r = rand((3,), 'f32')
// INPUT: c = rand((4, 1), 'i64')
// INPUT: k = scalar(n, 'i64')
// INPUT: b = rand((n, 4, 3), 'f32')
// EXPECT: np.broadcast_to(r, (2, 4, 3))
// EXPECT: np.broadcast_to(c, (4, 6))
// EXPECT: np.broadcast_to(r, (n, 3))
// EXPECT: np.broadcast_to(c, (n, 4, 5))
// EXPECT: np.broadcast_to(r, (n, 4, 3)) * b
!R = !usm.array<3xf32, "host:cpu:0", device>
!C = !usm.array<4x1xi64, "host:cpu:0", device>
!B = !usm.array<?x4x3xf32, "host:cpu:0", device>
func.func @main(%r: !R, %c: !C, %k: i64, %b: !B) -> (!usm.array<2x4x3xf32, "host:cpu:0", device>, !usm.array<4x6xi64, "host:cpu:0", device>, !usm.array<?x3xf32, "host:cpu:0", device>, !usm.array<?x4x5xi64, "host:cpu:0", device>, !B) {
  %n = arith.index_cast %k : i64 to index
  %0 = usm.broadcast_to %r : !R -> !usm.array<2x4x3xf32, "host:cpu:0", device>
  %1 = usm.broadcast_to %c : !C -> !usm.array<4x6xi64, "host:cpu:0", device>
  %2 = usm.broadcast_to %r (%n) : !R -> !usm.array<?x3xf32, "host:cpu:0", device>
  %3 = usm.broadcast_to %c (%n) : !C -> !usm.array<?x4x5xi64, "host:cpu:0", device>
  %rb = usm.broadcast_to %r (%n) : !R -> !B
  %4 = usm.mul %rb, %b : (!B, !B) -> !B
  return %0, %1, %2, %3, %4 : !usm.array<2x4x3xf32, "host:cpu:0", device>, !usm.array<4x6xi64, "host:cpu:0", device>, !usm.array<?x3xf32, "host:cpu:0", device>, !usm.array<?x4x5xi64, "host:cpu:0", device>, !B
}

// -----

// A keepdims reduction broadcast back over its dynamic input (x - mean),
// and broadcast_to with two dynamic result sizes feeding a reduction.
// FOR: n, m in [(0, 3), (1, 1), (7, 5), (300, 33)]
// INPUT: x = rand((n, m), 'f32')
// INPUT: r = rand((m,), 'f32')
// INPUT: k = scalar(n, 'i64')
// INPUT: j = scalar(m, 'i64')
// EXPECT: x - np.sum(x, axis=0, keepdims=True) / np.float32(max(n, 1))
// EXPECT: np.broadcast_to(r, (n, m))
// EXPECT: np.broadcast_to(r, (2, n, m)).sum(axis=(0, 1))
// TOL: rtol=1e-5 atol=1e-5
!X = !usm.array<?x?xf32, "host:cpu:0", device>
!K = !usm.array<1x?xf32, "host:cpu:0", device>
!R = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%x: !X, %r: !R, %k: i64, %j: i64) -> (!X, !X, !R) {
  %kn = arith.index_cast %k : i64 to index
  %one = arith.constant 1 : i64
  %kk = arith.maxsi %k, %one : i64
  %kf = arith.sitofp %kk : i64 to f32
  %s = usm.sum %x axes [0] keepdims : !X -> !K
  %mean = usm.div %s, %kf : (!K, f32) -> !K
  %0 = usm.sub %x, %mean : (!X, !K) -> !X
  %c0 = arith.constant 1 : index
  %jn = arith.index_cast %j : i64 to index
  %1 = usm.broadcast_to %r (%kn, %jn) : !R -> !X
  %b3 = usm.broadcast_to %r (%kn, %jn) : !R -> !usm.array<2x?x?xf32, "host:cpu:0", device>
  %2 = usm.sum %b3 axes [0, 1] : !usm.array<2x?x?xf32, "host:cpu:0", device> -> !R
  return %0, %1, %2 : !X, !X, !R
}
