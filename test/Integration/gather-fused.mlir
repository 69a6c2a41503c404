// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// Gathers fused with the elementwise work around them (usm-fuse-elementwise
// puts a gather of static shapes in its consumers' group and computes its
// indices there): a reversed read plus the source itself (the source is
// read whole by the gather and elementwise by the add), indices clamped
// into range, unsigned indices, a gather of a strided view (read whole as
// a contiguous copy), and a masked update as @sluice.jit writes it.

// INPUT: a = rand((3, 4), 'f32')
// INPUT: r = np.arange(11, -1, -1, dtype=np.int64).reshape(3, 4)
// INPUT: k = np.array([7, 1, 200], dtype=np.uint32)
// EXPECT: a.reshape(-1)[r.reshape(-1)].reshape(3, 4) * 2.0 + a
// EXPECT: np.exp(a.reshape(-1)[np.clip(r.reshape(-1) * 3 - 8, 0, 11)]).reshape(3, 4)
// EXPECT: a.reshape(-1)[np.clip(k, 0, 11)] + 1.0
// EXPECT: a[::2, 1:3].reshape(-1)[np.array([3, 0, 2])] - 1.0
// EXPECT: np.where(np.arange(4) % 2 == 1, np.concatenate([[0], a[0, :3]]).astype(np.float32), a)
!A = !usm.array<3x4xf32, "host:cpu:0", device>
!R = !usm.array<3x4xi64, "host:cpu:0", device>
!K = !usm.array<3xui32, "host:cpu:0", device>
!F = !usm.array<12xf32, "host:cpu:0", device>
!V = !usm.array<2x2xf32, "host:cpu:0", device>
!I3 = !usm.array<3xi64, "host:cpu:0", device>
!R3 = !usm.array<3xf32, "host:cpu:0", device>
func.func @main(%a: !A, %r: !R, %k: !K) -> (!A, !A, !R3, !R3, !A) {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %0 = usm.gather %a[%r] : !A, !R -> !A
  %1 = usm.mul %0, %two : (!A, f32) -> !A
  %2 = usm.add %1, %a : (!A, !A) -> !A

  %c3 = arith.constant 3 : i64
  %c8 = arith.constant 8 : i64
  %3 = usm.mul %r, %c3 : (!R, i64) -> !R
  %4 = usm.sub %3, %c8 : (!R, i64) -> !R
  %5 = usm.gather %a[%4] : !A, !R -> !A
  %6 = usm.exp %5 : (!A) -> !A

  %7 = usm.gather %a[%k] : !A, !K -> !R3
  %8 = usm.add %7, %one : (!R3, f32) -> !R3

  %flat = usm.reshape %a : !A -> !F
  %off = arith.constant 1 : index
  %s0 = arith.constant 2 : index
  %s1 = arith.constant 2 : index
  %t0 = arith.constant 8 : index
  %t1 = arith.constant 1 : index
  %view = usm.strided_view %flat[%off] sizes(%s0, %s1) strides(%t0, %t1) : !F -> !V
  %idx = usm.constant dense<[3, 0, 2]> : tensor<3xi64> -> !I3
  %9 = usm.gather %view[%idx] : !V, !I3 -> !R3
  %10 = usm.sub %9, %one : (!R3, f32) -> !R3

  // x[:, 1::2] = concatenate([0], x[0, :3]) broadcast, as a where over
  // a gather whose positions are computed from a column index.
  %col = usm.constant dense<[[0, 0, 1, 2]]> : tensor<1x4xi64> -> !usm.array<1x4xi64, "host:cpu:0", device>
  %odd = usm.constant dense<[[false, true, false, true]]> : tensor<1x4xi1> -> !usm.array<1x4xi1, "host:cpu:0", device>
  %row = usm.gather %a[%col] : !A, !usm.array<1x4xi64, "host:cpu:0", device> -> !usm.array<1x4xf32, "host:cpu:0", device>
  %zero = arith.constant 0.0 : f32
  %first = usm.constant dense<[[true, false, false, false]]> : tensor<1x4xi1> -> !usm.array<1x4xi1, "host:cpu:0", device>
  %shifted = usm.where %first, %zero, %row : (!usm.array<1x4xi1, "host:cpu:0", device>, f32, !usm.array<1x4xf32, "host:cpu:0", device>) -> !usm.array<1x4xf32, "host:cpu:0", device>
  %11 = usm.where %odd, %shifted, %a : (!usm.array<1x4xi1, "host:cpu:0", device>, !usm.array<1x4xf32, "host:cpu:0", device>, !A) -> !A
  return %2, %6, %8, %10, %11 : !A, !A, !R3, !R3, !A
}
