// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}

// usm.strided_insert against NumPy's slice assignment, fused and unfused:
// a Jacobi step (the value reads the destination's neighbours, so it is
// computed first), an update in place of an intermediate chained with a
// reversed window and a single element, and a window of one column fed by
// a view of the destination itself (copied, not in place).

// INPUT: u = rand((6, 7), 'f32')
// INPUT: r = rand((7,), 'f32')
// EXPECT: (lambda e: (e.__setitem__((slice(1, -1), slice(1, -1)), 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])), e)[1])(u.copy())
// EXPECT: (lambda e: (e.__setitem__((slice(None, None, -2),), r), e.__setitem__((2, 3), r[0]), e)[2])(u * 2.0)
// EXPECT: (lambda e: (e.__setitem__((slice(None), 0), e[:, 6]), e)[1])(u + 1.0)
!U = !usm.array<6x7xf32, "host:cpu:0", device>
!F = !usm.array<42xf32, "host:cpu:0", device>
!W = !usm.array<4x5xf32, "host:cpu:0", device>
!R = !usm.array<7xf32, "host:cpu:0", device>
!C = !usm.array<6xf32, "host:cpu:0", device>
func.func @main(%u: !U, %r: !R) -> (!U, !U, !U) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %f = usm.reshape %u : !U -> !F
  %o1 = arith.constant 1 : index
  %o8 = arith.constant 8 : index
  %o9 = arith.constant 9 : index
  %o15 = arith.constant 15 : index
  %n = usm.strided_view %f[%o1] sizes(%c4, %c5) strides(%c7, %c1) : !F -> !W
  %s = usm.strided_view %f[%o15] sizes(%c4, %c5) strides(%c7, %c1) : !F -> !W
  %w = usm.strided_view %f[%c7] sizes(%c4, %c5) strides(%c7, %c1) : !F -> !W
  %e = usm.strided_view %f[%o9] sizes(%c4, %c5) strides(%c7, %c1) : !F -> !W
  %a1 = usm.add %n, %s : (!W, !W) -> !W
  %a2 = usm.add %a1, %w : (!W, !W) -> !W
  %a3 = usm.add %a2, %e : (!W, !W) -> !W
  %q = arith.constant 0.25 : f32
  %rhs = usm.mul %q, %a3 : (f32, !W) -> !W
  %jacobi = usm.strided_insert %rhs into %u[%o8] sizes(%c4, %c5) strides(%c7, %c1) : !W, !U

  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %o17 = arith.constant 17 : index
  %o35 = arith.constant 35 : index
  %m14 = arith.constant -14 : index
  %two = arith.constant 2.0 : f32
  %t = usm.mul %u, %two : (!U, f32) -> !U
  %rows = usm.broadcast_to %r : !R -> !usm.array<3x7xf32, "host:cpu:0", device>
  %t1 = usm.strided_insert %rows into %t[%o35] sizes(%c3, %c7) strides(%m14, %c1) : !usm.array<3x7xf32, "host:cpu:0", device>, !U
  %r0 = usm.strided_view %r[%c0] sizes() strides() : !R -> !usm.array<f32, "host:cpu:0", device>
  %t2 = usm.strided_insert %r0 into %t1[%o17] sizes() strides() : !usm.array<f32, "host:cpu:0", device>, !U

  %one = arith.constant 1.0 : f32
  %p = usm.add %u, %one : (!U, f32) -> !U
  %pf = usm.reshape %p : !U -> !F
  %col = usm.strided_view %pf[%c6] sizes(%c6) strides(%c7) : !F -> !C
  %p1 = usm.strided_insert %col into %p[%c0] sizes(%c6) strides(%c7) : !C, !U
  return %jacobi, %t2, %p1 : !U, !U, !U
}
