// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// Fused groups give exactly the unfused program's results: every case runs
// fused and with --no-fusion, and GROUPS states how many usm.fused groups
// fusion forms (so that the fused run really runs the group kinds named).

// An elementwise chain with a scalar, broadcasting, astype, where and a
// splat constant: one kernel.
// FOR: n in [0, 1000, 70001]
// INPUT: a = rand((n, 4), 'f32')
// INPUT: b = rand((4,), 'f32')
// INPUT: s = scalar(0.75, 'f32')
// INPUT: k = rand((n, 4), 'i32', -5, 5)
// EXPECT: np.where(k > 0, np.exp(a * s + b), np.float32(0.5)) - k.astype(np.float32)
// GROUPS: 1
!A = !usm.array<?x4xf32, "host:cpu:0", device>
!K = !usm.array<?x4xi32, "host:cpu:0", device>
!B = !usm.array<4xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !B, %s: f32, %k: !K) -> !A {
  %z = arith.constant 0 : i32
  %half = usm.constant dense<0.5> : tensor<4xf32> -> !B
  %as = usm.mul %a, %s : (!A, f32) -> !A
  %ab = usm.add %as, %b : (!A, !B) -> !A
  %e = usm.exp %ab : (!A) -> !A
  %m = usm.gt %k, %z : (!K, i32) -> !usm.array<?x4xi1, "host:cpu:0", device>
  %w = usm.where %m, %e, %half : (!usm.array<?x4xi1, "host:cpu:0", device>, !A, !B) -> !A
  %kf = usm.astype %k : !K to !A
  %0 = usm.sub %w, %kf : (!A, !A) -> !A
  return %0 : !A
}

// -----

// Multi-output: a producer used by two consumers and returned itself is
// computed once and written once; siblings reading one array share a
// kernel.
// FOR: n in [0, 1000, 70001]
// INPUT: a = rand(n, 'f32')
// INPUT: b = rand(n, 'f32')
// EXPECT: a * b
// EXPECT: np.exp(a * b)
// EXPECT: np.cos(a * b) + a
// EXPECT: np.sin(a)
// GROUPS: 1
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !A, !A, !A) {
  %p = usm.mul %a, %b : (!A, !A) -> !A
  %0 = usm.exp %p : (!A) -> !A
  %c = usm.cos %p : (!A) -> !A
  %1 = usm.add %c, %a : (!A, !A) -> !A
  %2 = usm.sin %a : (!A) -> !A
  return %p, %0, %1, %2 : !A, !A, !A, !A
}

// -----

// A reduction with a prologue and an epilogue, sqrt(sum(a * b, axis=0) / n):
// one group, and a whole-array sum of the same prologue as a second
// reduction group.
// FOR: n in [1, 1000, 70001]
// INPUT: a = rand((n, 3), 'f64', 0.5, 1.5)
// INPUT: b = rand((n, 3), 'f64', 0.5, 1.5)
// INPUT: c = scalar(n, 'f64')
// EXPECT: np.sqrt(np.sum(a * b, axis=0) / c)
// EXPECT: np.sum(a * b) * np.float64(2)
// GROUPS: 2
!A = !usm.array<?x3xf64, "host:cpu:0", device>
!R = !usm.array<3xf64, "host:cpu:0", device>
!S = !usm.array<f64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %c: f64) -> (!R, !S) {
  %two = arith.constant 2.0 : f64
  %p = usm.mul %a, %b : (!A, !A) -> !A
  %s = usm.sum %p axes [0] : !A -> !R
  %m = usm.div %s, %c : (!R, f64) -> !R
  %0 = usm.sqrt %m : (!R) -> !R
  %t = usm.sum %p : !A -> !S
  %1 = usm.mul %t, %two : (!S, f64) -> !S
  return %0, %1 : !R, !S
}

// -----

// Several reductions over the same axes in one group, with an epilogue that
// combines them, and keepdims.
// FOR: n in [1, 513]
// INPUT: a = rand((n, 7), 'f32', 0.5, 1.5)
// EXPECT: np.max(a, axis=1, keepdims=True) - np.min(a, axis=1, keepdims=True)
// EXPECT: np.sum(a, axis=1, keepdims=True)
// GROUPS: 1
!A = !usm.array<?x7xf32, "host:cpu:0", device>
!K = !usm.array<?x1xf32, "host:cpu:0", device>
func.func @main(%a: !A) -> (!K, !K) {
  %mx = usm.max %a axes [1] keepdims : !A -> !K
  %mn = usm.min %a axes [1] keepdims : !A -> !K
  %0 = usm.sub %mx, %mn : (!K, !K) -> !K
  %1 = usm.sum %a axes [1] keepdims : !A -> !K
  return %0, %1 : !K, !K
}

// -----

// A reduction broadcast back over its input (x - mean(2x)) needs a second
// pass: the reduction group (2x, sum, / n) and the subtraction on its own.
// FOR: n in [1, 1000, 70001]
// INPUT: x = rand((n, 5), 'f32', 0.5, 1.5)
// INPUT: c = scalar(n, 'f32')
// EXPECT: x - np.sum(np.float32(2) * x, axis=0) / c
// TOL: rtol=1e-5 atol=1e-5
// GROUPS: 1
!X = !usm.array<?x5xf32, "host:cpu:0", device>
!R = !usm.array<5xf32, "host:cpu:0", device>
func.func @main(%x: !X, %c: f32) -> !X {
  %two = arith.constant 2.0 : f32
  %x2 = usm.mul %x, %two : (!X, f32) -> !X
  %s = usm.sum %x2 axes [0] : !X -> !R
  %mean = usm.div %s, %c : (!R, f32) -> !R
  %0 = usm.sub %x, %mean : (!X, !R) -> !X
  return %0 : !X
}

// -----

// Rows scaled by their norm: the reduction, its epilogue over the reduced
// shape (+ 1, sqrt) and the broadcast back over the input (the division)
// are one group; sizes of 1 broadcast at run time.
// FOR: n in [1, 300]
// FOR: k in [1, 33]
// INPUT: x = rand((n, k), 'f32', -2, 2)
// EXPECT: x / np.sqrt((x * x).sum(axis=1, keepdims=True) + np.float32(1))
// GROUPS: 1
!X = !usm.array<?x?xf32, "host:cpu:0", device>
!K = !usm.array<?x1xf32, "host:cpu:0", device>
func.func @main(%x: !X) -> !X {
  %one = arith.constant 1.0 : f32
  %sq = usm.mul %x, %x : (!X, !X) -> !X
  %s = usm.sum %sq axes [1] keepdims : !X -> !K
  %s1 = usm.add %s, %one : (!K, f32) -> !K
  %r = usm.sqrt %s1 : (!K) -> !K
  %0 = usm.div %x, %r : (!X, !K) -> !X
  return %0 : !X
}

// -----

// Softmax over rows: max, exp of the shifted rows and their sum, and the
// division; integer and boolean groups alongside.
// FOR: n in [1, 300]
// INPUT: x = rand((n, 33), 'f32', -5, 5)
// INPUT: i = rand((n, 33), 'i64')
// EXPECT: np.exp(x - x.max(axis=1, keepdims=True)) / np.exp(x - x.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)
// EXPECT: np.sum(np.where(i > 0, i, -i) % 7, axis=1)
// EXPECT: np.logical_and(i > 0, x > 0)
// GROUPS: 3
!X = !usm.array<?x33xf32, "host:cpu:0", device>
!K = !usm.array<?x1xf32, "host:cpu:0", device>
!I = !usm.array<?x33xi64, "host:cpu:0", device>
!M = !usm.array<?x33xi1, "host:cpu:0", device>
func.func @main(%x: !X, %i: !I) -> (!X, !usm.array<?xi64, "host:cpu:0", device>, !M) {
  %mx = usm.max %x axes [1] keepdims : !X -> !K
  %sh = usm.sub %x, %mx : (!X, !K) -> !X
  %e = usm.exp %sh : (!X) -> !X
  %s = usm.sum %e axes [1] keepdims : !X -> !K
  %0 = usm.div %e, %s : (!X, !K) -> !X
  %z = arith.constant 0 : i64
  %seven = arith.constant 7 : i64
  %zf = arith.constant 0.0 : f32
  %pos = usm.gt %i, %z : (!I, i64) -> !M
  %neg = usm.negative %i : (!I) -> !I
  %abs = usm.where %pos, %i, %neg : (!M, !I, !I) -> !I
  %r = usm.remainder %abs, %seven : (!I, i64) -> !I
  %1 = usm.sum %r axes [1] : !I -> !usm.array<?xi64, "host:cpu:0", device>
  %xp = usm.gt %x, %zf : (!X, f32) -> !M
  %2 = usm.logical_and %pos, %xp : (!M, !M) -> !M
  return %0, %1, %2 : !X, !usm.array<?xi64, "host:cpu:0", device>, !M
}
