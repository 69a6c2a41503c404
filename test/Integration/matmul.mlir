// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// usm.matmul compiled and run: a dense layer relu(a @ b + bias) (one fused
// kernel), a batched product with broadcast batch axes in f64, and an
// integer product (sums in i64, converted back to i32); then products large
// enough for a library call on the host (BLAS, odd sizes, one transposed
// operand, a batch against a broadcast matrix in f64), which stay
// generated kernels on the other devices.
// INPUT: a = rand((5, 7), 'f32')
// INPUT: b = rand((7, 3), 'f32')
// INPUT: bias = rand((3,), 'f32')
// INPUT: x = rand((2, 4, 6), 'f64')
// INPUT: y = rand((1, 6, 5), 'f64')
// INPUT: i = rand((3, 4), 'i32')
// INPUT: j = rand((4, 2), 'i32')
// EXPECT[rtol=1e-5]: np.maximum(a @ b + bias, np.float32(0))
// EXPECT: x @ y
// EXPECT: i @ j
// INPUT: p = rand((33, 40), 'f32')
// INPUT: q = rand((20, 40), 'f32')
// INPUT: u = rand((3, 17, 30), 'f64')
// INPUT: w = rand((30, 19), 'f64')
// EXPECT[rtol=1e-5]: np.sqrt(np.abs(p @ q.T - 1))
// EXPECT[rtol=1e-12]: u @ w
!A = !usm.array<5x7xf32, "host:cpu:0", device>
!B = !usm.array<7x3xf32, "host:cpu:0", device>
!V = !usm.array<3xf32, "host:cpu:0", device>
!C = !usm.array<5x3xf32, "host:cpu:0", device>
!X = !usm.array<2x4x6xf64, "host:cpu:0", device>
!Y = !usm.array<1x6x5xf64, "host:cpu:0", device>
!Z = !usm.array<2x4x5xf64, "host:cpu:0", device>
!I = !usm.array<3x4xi32, "host:cpu:0", device>
!J = !usm.array<4x2xi32, "host:cpu:0", device>
!K = !usm.array<3x2xi32, "host:cpu:0", device>
!P = !usm.array<33x40xf32, "host:cpu:0", device>
!Q = !usm.array<20x40xf32, "host:cpu:0", device>
!QT = !usm.array<40x20xf32, "host:cpu:0", device>
!PQ = !usm.array<33x20xf32, "host:cpu:0", device>
!U = !usm.array<3x17x30xf64, "host:cpu:0", device>
!W = !usm.array<30x19xf64, "host:cpu:0", device>
!UW = !usm.array<3x17x19xf64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !B, %bias: !V, %x: !X, %y: !Y, %i: !I, %j: !J,
                %p: !P, %q: !Q, %u: !U, %w: !W) -> (!C, !Z, !K, !PQ, !UW) {
  %zero = arith.constant 0.0 : f32
  %c = usm.matmul %a, %b : (!A, !B) -> !C
  %d = usm.add %c, %bias : (!C, !V) -> !C
  %r = usm.maximum %d, %zero : (!C, f32) -> !C
  %z = usm.matmul %x, %y : (!X, !Y) -> !Z
  %k = usm.matmul %i, %j : (!I, !J) -> !K
  %qt = usm.transpose %q [1, 0] : !Q -> !QT
  %pq = usm.matmul %p, %qt : (!P, !QT) -> !PQ
  %one = arith.constant 1.0 : f32
  %s = usm.sub %pq, %one : (!PQ, f32) -> !PQ
  %sa = usm.abs %s : (!PQ) -> !PQ
  %sq = usm.sqrt %sa : (!PQ) -> !PQ
  %uw = usm.matmul %u, %w : (!U, !W) -> !UW
  return %r, %z, %k, %sq, %uw : !C, !Z, !K, !PQ, !UW
}
