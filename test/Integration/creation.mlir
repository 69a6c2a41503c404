// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// Creation ops: full (static and dynamic sizes, from a constant or an
// argument), arange (float, signed, unsigned, dynamic length) and constant
// (dense and splat, every kind of element type), alone and combined with
// inputs.

// FOR: n in [0, 1, 100]
// INPUT: k = scalar(n, 'i64')
// INPUT: s = scalar(-2.25, 'f64')
// INPUT: a = rand(n, 'f32')
// EXPECT: np.full((2, 3), 1.5, np.float32)
// EXPECT: np.full(n, -2.25)
// EXPECT: np.arange(n, dtype=np.float32) * np.float32(0.5) + np.float32(-3)
// EXPECT: np.arange(n, dtype=np.int64) * -7 + 11
// EXPECT: np.arange(16, dtype=np.uint32) * np.uint32(3) + np.uint32(4000000000)
// EXPECT: a + np.arange(n, dtype=np.float32)
// EXPECT: np.full((n, 2), 9, np.int16)
// EXPECT: np.arange(n) * s + s
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%k: i64, %s: f64, %a: !A) -> (!usm.array<2x3xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>, !A, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<16xui32, "host:cpu:0", device>, !A, !usm.array<?x2xi16, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %n = arith.index_cast %k : i64 to index
  %c15 = arith.constant 1.5 : f32
  %0 = usm.full %c15 : f32 -> !usm.array<2x3xf32, "host:cpu:0", device>
  %1 = usm.full %s (%n) : f64 -> !usm.array<?xf64, "host:cpu:0", device>
  %start = arith.constant -3.0 : f32
  %step = arith.constant 0.5 : f32
  %2 = usm.arange %start, %step (%n) : f32 -> !A
  %i0 = arith.constant 11 : i64
  %is = arith.constant -7 : i64
  %3 = usm.arange %i0, %is (%n) : i64 -> !usm.array<?xi64, "host:cpu:0", device>
  %u0 = arith.constant 4000000000 : i32
  %us = arith.constant 3 : i32
  %4 = usm.arange %u0, %us : i32 -> !usm.array<16xui32, "host:cpu:0", device>
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %r = usm.arange %f0, %f1 (%n) : f32 -> !A
  %5 = usm.add %a, %r : (!A, !A) -> !A
  %nine = arith.constant 9 : i16
  %6 = usm.full %nine (%n) : i16 -> !usm.array<?x2xi16, "host:cpu:0", device>
  %7 = usm.arange %s, %s (%n) : f64 -> !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7 : !usm.array<2x3xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>, !A, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<16xui32, "host:cpu:0", device>, !A, !usm.array<?x2xi16, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// Constants: dense and splat, f32, f64, f16, i1, i8, i64, ui8, ui64; a
// constant operand broadcast against an input.
// INPUT: a = rand((2, 3), 'f32')
// EXPECT: np.array([[1.5, -2.0, 3.25], [0.0, -0.0, 1e30]], np.float32)
// EXPECT: np.array([1e-300, -2.5, np.pi], np.float64)
// EXPECT: np.array([0.5, 65504, -1], np.float16)
// EXPECT: np.array([True, False, True, True])
// EXPECT: np.array([-128, 127, 0], np.int8)
// EXPECT: np.array([-2**63, 2**63 - 1], np.int64)
// EXPECT: np.array([255, 0, 7], np.uint8)
// EXPECT: np.array([2**64 - 1, 1], np.uint64)
// EXPECT: np.full((2, 2), 7, np.int32)
// EXPECT: a * np.array([1, 2, 3], np.float32) + np.float32(4)
!F = !usm.array<2x3xf32, "host:cpu:0", device>
func.func @main(%a: !F) -> (!F, !usm.array<3xf64, "host:cpu:0", device>, !usm.array<3xf16, "host:cpu:0", device>, !usm.array<4xi1, "host:cpu:0", device>, !usm.array<3xi8, "host:cpu:0", device>, !usm.array<2xi64, "host:cpu:0", device>, !usm.array<3xui8, "host:cpu:0", device>, !usm.array<2xui64, "host:cpu:0", device>, !usm.array<2x2xi32, "host:cpu:0", device>, !F) {
  %0 = usm.constant dense<[[1.5, -2.0, 3.25], [0.0, -0.0, 1.0e30]]> : tensor<2x3xf32> -> !F
  %1 = usm.constant dense<[1.0e-300, -2.5, 3.141592653589793]> : tensor<3xf64> -> !usm.array<3xf64, "host:cpu:0", device>
  %2 = usm.constant dense<[0.5, 65504.0, -1.0]> : tensor<3xf16> -> !usm.array<3xf16, "host:cpu:0", device>
  %3 = usm.constant dense<[true, false, true, true]> : tensor<4xi1> -> !usm.array<4xi1, "host:cpu:0", device>
  %4 = usm.constant dense<[-128, 127, 0]> : tensor<3xi8> -> !usm.array<3xi8, "host:cpu:0", device>
  %5 = usm.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64> -> !usm.array<2xi64, "host:cpu:0", device>
  %6 = usm.constant dense<[255, 0, 7]> : tensor<3xui8> -> !usm.array<3xui8, "host:cpu:0", device>
  %7 = usm.constant dense<[18446744073709551615, 1]> : tensor<2xui64> -> !usm.array<2xui64, "host:cpu:0", device>
  %8 = usm.constant dense<7> : tensor<2x2xi32> -> !usm.array<2x2xi32, "host:cpu:0", device>
  %w = usm.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> -> !usm.array<3xf32, "host:cpu:0", device>
  %four = usm.constant dense<4.0> : tensor<2x3xf32> -> !F
  %aw = usm.mul %a, %w : (!F, !usm.array<3xf32, "host:cpu:0", device>) -> !F
  %9 = usm.add %aw, %four : (!F, !F) -> !F
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !F, !usm.array<3xf64, "host:cpu:0", device>, !usm.array<3xf16, "host:cpu:0", device>, !usm.array<4xi1, "host:cpu:0", device>, !usm.array<3xi8, "host:cpu:0", device>, !usm.array<2xi64, "host:cpu:0", device>, !usm.array<3xui8, "host:cpu:0", device>, !usm.array<2xui64, "host:cpu:0", device>, !usm.array<2x2xi32, "host:cpu:0", device>, !F
}

// -----

// A program without inputs.
// EXPECT: np.arange(10, dtype=np.float64).sum()
!S = !usm.array<f64, "host:cpu:0", device>
func.func @main() -> !S {
  %z = arith.constant 0.0 : f64
  %o = arith.constant 1.0 : f64
  %r = usm.arange %z, %o : f64 -> !usm.array<10xf64, "host:cpu:0", device>
  %0 = usm.sum %r : !usm.array<10xf64, "host:cpu:0", device> -> !S
  return %0 : !S
}
