// RUN: sluice-opt %s | FileCheck %s
// RUN: sluice-opt %s | sluice-opt | FileCheck %s

// usm.strided_insert round-trips; the result has the destination's type.

!D = !usm.array<4x5xf32, "opencl:cpu:0", device>
!V = !usm.array<?x2xf32, "opencl:cpu:0", device>
// CHECK-LABEL: func.func @insert
// CHECK: %{{.*}} = usm.strided_insert %{{.*}} into %{{.*}}[%{{.*}}] sizes(%{{.*}}, %{{.*}}) strides(%{{.*}}, %{{.*}}) : !usm.array<?x2xf32, "opencl:cpu:0", device>, !usm.array<4x5xf32, "opencl:cpu:0", device>
func.func @insert(%d: !D, %v: !V, %o: index, %m: index) -> !D {
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %r = usm.strided_insert %v into %d[%o] sizes(%m, %c2) strides(%c5, %c2) : !V, !D
  return %r : !D
}

// A single element (rank-0 value) and a reversed row.
// CHECK-LABEL: func.func @element_and_reversed
// CHECK: usm.strided_insert %{{.*}} into %{{.*}}[%{{.*}}] sizes() strides() : !usm.array<f32, "opencl:cpu:0", device>, !usm.array<4x5xf32, "opencl:cpu:0", device>
// CHECK: usm.strided_insert %{{.*}} into %{{.*}}[%{{.*}}] sizes(%{{.*}}) strides(%{{.*}}) : !usm.array<5xf32, "opencl:cpu:0", device>
func.func @element_and_reversed(%d: !D, %e: !usm.array<f32, "opencl:cpu:0", device>, %row: !usm.array<5xf32, "opencl:cpu:0", device>) -> !D {
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c5 = arith.constant 5 : index
  %m1 = arith.constant -1 : index
  %0 = usm.strided_insert %e into %d[%c7] sizes() strides() : !usm.array<f32, "opencl:cpu:0", device>, !D
  %1 = usm.strided_insert %row into %0[%c9] sizes(%c5) strides(%m1) : !usm.array<5xf32, "opencl:cpu:0", device>, !D
  return %1 : !D
}
