// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}

// usm.scatter against NumPy's assignment through flat positions, fused and
// unfused: into an intermediate that is read afterwards (a copy is
// written), into one that is dead afterwards (written in place, then
// updated again with a single element), and with positions outside the
// array, which are clamped into it.

// INPUT: u = rand((6, 7), 'f32')
// INPUT: p = rng.permutation(42)[:10].astype(np.int64)
// INPUT: v = rand((10,), 'f32')
// INPUT: q = np.array([-5, 100], dtype=np.int32)
// EXPECT: (lambda e: (e.reshape(-1).__setitem__(p, v * 2), e)[1])(u + 1.0)
// EXPECT: u + 1.0
// EXPECT: (lambda e: (e.reshape(-1).__setitem__(p, v), e.reshape(-1).__setitem__(p[3], v[0]), e)[2])(u * 2.0)
// EXPECT: (lambda e: (e.reshape(-1).__setitem__([0, 41], v[:2]), e)[1])(u - 1.0)
!U = !usm.array<6x7xf32, "host:cpu:0", device>
!P = !usm.array<10xi64, "host:cpu:0", device>
!V = !usm.array<10xf32, "host:cpu:0", device>
!Q = !usm.array<2xi32, "host:cpu:0", device>
!Q2 = !usm.array<2xf32, "host:cpu:0", device>
!S = !usm.array<f32, "host:cpu:0", device>
!SP = !usm.array<i64, "host:cpu:0", device>
func.func @main(%u: !U, %p: !P, %v: !V, %q: !Q) -> (!U, !U, !U, !U) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %x = usm.add %u, %one : (!U, f32) -> !U
  %v2 = usm.mul %v, %two : (!V, f32) -> !V
  %s = usm.scatter %v2 into %x[%p] : !V, !P, !U

  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %t = usm.mul %u, %two : (!U, f32) -> !U
  %t1 = usm.scatter %v into %t[%p] : !V, !P, !U
  %v0 = usm.strided_view %v[%c0] sizes() strides() : !V -> !S
  %p3 = usm.strided_view %p[%c3] sizes() strides() : !P -> !SP
  %t2 = usm.scatter %v0 into %t1[%p3] : !S, !SP, !U

  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %w = usm.sub %u, %one : (!U, f32) -> !U
  %vq = usm.strided_view %v[%c0] sizes(%c2) strides(%c1) : !V -> !Q2
  %w1 = usm.scatter %vq into %w[%q] : !Q2, !Q, !U
  return %s, %x, %t2, %w1 : !U, !U, !U, !U
}
