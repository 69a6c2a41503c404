// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// usm.matmul compiled and run: a dense layer relu(a @ b + bias) (one fused
// kernel), a batched product with broadcast batch axes in f64, and an
// integer product (sums in i64, converted back to i32).
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
func.func @main(%a: !A, %b: !B, %bias: !V, %x: !X, %y: !Y, %i: !I, %j: !J) -> (!C, !Z, !K) {
  %zero = arith.constant 0.0 : f32
  %c = usm.matmul %a, %b : (!A, !B) -> !C
  %d = usm.add %c, %bias : (!C, !V) -> !C
  %r = usm.maximum %d, %zero : (!C, f32) -> !C
  %z = usm.matmul %x, %y : (!X, !Y) -> !Z
  %k = usm.matmul %i, %j : (!I, !J) -> !K
  return %r, %z, %k : !C, !Z, !K
}
