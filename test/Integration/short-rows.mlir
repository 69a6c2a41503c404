// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// Reduction groups over short rows (a static reduced extent of at most 8)
// lower to one elementwise kernel with the row unrolled
// (lib/Conversion/USMToLinalg/ShortRowLowering.cpp). Every case runs fused
// and unfused against NumPy; GROUPS says the fused run has the group.

// Pairwise distances: the broadcast difference, its square, the sum over
// the 3 coordinates and the square root in one kernel; dynamic sizes of
// the points, including 1 (broadcast at run time along a `?`).
// FOR: n in [0, 1, 37]
// FOR: m in [1, 29]
// INPUT: p = rand((n, 1, 3), 'f32')
// INPUT: q = rand((1, m, 3), 'f32')
// EXPECT: np.sqrt(((p - q) * (p - q)).sum(axis=-1))
// TOL: rtol=1e-6 atol=1e-6
// GROUPS: 1
!P = !usm.array<?x1x3xf32, "host:cpu:0", device>
!Q = !usm.array<1x?x3xf32, "host:cpu:0", device>
!D = !usm.array<?x?x3xf32, "host:cpu:0", device>
!R = !usm.array<?x?xf32, "host:cpu:0", device>
func.func @main(%p: !P, %q: !Q) -> !R {
  %d = usm.sub %p, %q : (!P, !Q) -> !D
  %s = usm.mul %d, %d : (!D, !D) -> !D
  %r = usm.sum %s axes [-1] : !D -> !R
  %t = usm.sqrt %r : (!R) -> !R
  return %t : !R
}

// -----

// The same with `?` meeting `?`: the points are broadcast at run time and
// read through stride-0 views.
// FOR: n in [1, 37]
// FOR: m in [1, 29]
// INPUT: p = rand((n, 1, 3), 'f32')
// INPUT: q = rand((1, m, 3), 'f32')
// EXPECT: np.sqrt(((p - q) * (p - q)).sum(axis=-1))
// TOL: rtol=1e-6 atol=1e-6
// GROUPS: 1
!P = !usm.array<?x?x3xf32, "host:cpu:0", device>
!R = !usm.array<?x?xf32, "host:cpu:0", device>
func.func @main(%p: !P, %q: !P) -> !R {
  %d = usm.sub %p, %q : (!P, !P) -> !P
  %s = usm.mul %d, %d : (!P, !P) -> !P
  %r = usm.sum %s axes [-1] : !P -> !R
  %t = usm.sqrt %r : (!R) -> !R
  return %t : !R
}

// -----

// NaN, inf and -0.0 in the rows: sum, max and min with keepdims, an
// epilogue with a scalar, a reduction returned as it is.
// FOR: n in [0, 1, 1000]
// INPUT: a = special((n, 4), 'f32')
// INPUT: s = scalar(0.5, 'f32')
// INPUT: b = special((n, 4), 'f32')
// EXPECT: np.exp(a).sum(axis=1, keepdims=True) * s
// EXPECT: np.maximum.reduce(a * 2, axis=1)
// EXPECT: np.minimum.reduce(b - 1, axis=1, keepdims=True)
// GROUPS: 3
!A = !usm.array<?x4xf32, "host:cpu:0", device>
!K = !usm.array<?x1xf32, "host:cpu:0", device>
!V = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %s: f32, %b: !A) -> (!K, !V, !K) {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %e = usm.exp %a : (!A) -> !A
  %0 = usm.sum %e axes [1] keepdims : !A -> !K
  %1 = usm.mul %0, %s : (!K, f32) -> !K
  %a2 = usm.mul %a, %two : (!A, f32) -> !A
  %2 = usm.max %a2 axes [1] : !A -> !V
  %a1 = usm.sub %b, %one : (!A, f32) -> !A
  %3 = usm.min %a1 axes [1] keepdims : !A -> !K
  return %1, %2, %3 : !K, !V, !K
}

// -----

// f64 and integers (the sum of i32 widens to i64, the product of i8 too),
// a row over two axes (2 x 3) and a column (axis 0, extent 4), keepdims
// off and on.
// FOR: n in [0, 5, 300]
// INPUT: x = rand((2, 3, n), 'f64')
// INPUT: y = rand((n, 2, 3), 'f64')
// INPUT: k = rand((4, n), 'i32', -1000, 1000)
// INPUT: b = rand((n, 5), 'i8', -3, 3)
// EXPECT: np.sqrt(np.abs(x + 1).sum(axis=(0, 1)))
// EXPECT: (y * y).sum(axis=(1, 2), keepdims=True) - 1
// EXPECT: (k * 2).sum(axis=0)
// EXPECT: (b + 1).prod(axis=1, keepdims=True)
// GROUPS: 4
!X = !usm.array<2x3x?xf64, "host:cpu:0", device>
!Y = !usm.array<?x2x3xf64, "host:cpu:0", device>
!F = !usm.array<?xf64, "host:cpu:0", device>
!G = !usm.array<?x1x1xf64, "host:cpu:0", device>
!I = !usm.array<4x?xi32, "host:cpu:0", device>
!J = !usm.array<?xi64, "host:cpu:0", device>
!B = !usm.array<?x5xi8, "host:cpu:0", device>
!C = !usm.array<?x1xi64, "host:cpu:0", device>
func.func @main(%x: !X, %y: !Y, %k: !I, %b: !B) -> (!F, !G, !J, !C) {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2 : i32
  %i1 = arith.constant 1 : i8
  %x1 = usm.add %x, %one : (!X, f64) -> !X
  %ax = usm.abs %x1 : (!X) -> !X
  %sx = usm.sum %ax axes [0, 1] : !X -> !F
  %0 = usm.sqrt %sx : (!F) -> !F
  %yy = usm.mul %y, %y : (!Y, !Y) -> !Y
  %sy = usm.sum %yy axes [1, 2] keepdims : !Y -> !G
  %1 = usm.sub %sy, %one : (!G, f64) -> !G
  %k2 = usm.mul %k, %two : (!I, i32) -> !I
  %2 = usm.sum %k2 axes [0] : !I -> !J
  %b1 = usm.add %b, %i1 : (!B, i8) -> !B
  %3 = usm.prod %b1 axes [1] keepdims : !B -> !C
  return %0, %1, %2, %3 : !F, !G, !J, !C
}

// -----

// Rows outside the bound keep the general reduction group: 9 elements,
// and a row of 0 (the identity).
// FOR: n in [0, 3, 100]
// INPUT: a = rand((n, 9), 'f32')
// INPUT: z = rand((n, 0), 'f32')
// EXPECT: np.sqrt((a * a).sum(axis=1))
// EXPECT: (z + 1).sum(axis=1) + 2
// GROUPS: 2
!A = !usm.array<?x9xf32, "host:cpu:0", device>
!Z = !usm.array<?x0xf32, "host:cpu:0", device>
!V = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %z: !Z) -> (!V, !V) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %aa = usm.mul %a, %a : (!A, !A) -> !A
  %s = usm.sum %aa axes [1] : !A -> !V
  %0 = usm.sqrt %s : (!V) -> !V
  %z1 = usm.add %z, %one : (!Z, f32) -> !Z
  %t = usm.sum %z1 axes [1] : !Z -> !V
  %1 = usm.add %t, %two : (!V, f32) -> !V
  return %0, %1 : !V, !V
}

// -----

// Every axis reduced (a 0-d result, and a 1x1 one with keepdims), booleans
// counted (the sum of i1 widens to i64), f16.
// FOR: n in [1]
// INPUT: x = special((2, 3), 'f32')
// INPUT: m = rand((5, 2), 'i1')
// INPUT: h = rand((3, 4), 'f16')
// EXPECT: np.abs(x).sum() + 1
// EXPECT: np.maximum.reduce(np.maximum.reduce(x, axis=1, keepdims=True), axis=0, keepdims=True) * 2
// EXPECT: (~m).sum(axis=1)
// EXPECT: (h * h).sum(axis=1)
// TOL: rtol=2e-3 atol=1e-3
// GROUPS: 4
!X = !usm.array<2x3xf32, "host:cpu:0", device>
!S = !usm.array<f32, "host:cpu:0", device>
!T = !usm.array<1x1xf32, "host:cpu:0", device>
!M = !usm.array<5x2xi1, "host:cpu:0", device>
!C = !usm.array<5xi64, "host:cpu:0", device>
!H = !usm.array<3x4xf16, "host:cpu:0", device>
!G = !usm.array<3xf16, "host:cpu:0", device>
func.func @main(%x: !X, %m: !M, %h: !H) -> (!S, !T, !C, !G) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %ax = usm.abs %x : (!X) -> !X
  %s = usm.sum %ax : !X -> !S
  %0 = usm.add %s, %one : (!S, f32) -> !S
  %x2 = usm.mul %x, %two : (!X, f32) -> !X
  %1 = usm.max %x2 keepdims : !X -> !T
  %nm = usm.logical_not %m : (!M) -> !M
  %2 = usm.sum %nm axes [1] : !M -> !C
  %hh = usm.mul %h, %h : (!H, !H) -> !H
  %3 = usm.sum %hh axes [1] : !H -> !G
  return %0, %1, %2, %3 : !S, !T, !C, !G
}
