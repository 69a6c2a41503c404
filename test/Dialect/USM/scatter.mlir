// RUN: sluice-opt %s | FileCheck %s
// RUN: sluice-opt %s | sluice-opt | FileCheck %s

// usm.scatter round-trips; the result has the destination's type.

!D = !usm.array<4x5xf32, "opencl:cpu:0", device>
// CHECK-LABEL: func.func @scatter
// CHECK: %{{.*}} = usm.scatter %{{.*}} into %{{.*}}[%{{.*}}] : !usm.array<?x2xf32, "opencl:cpu:0", device>, !usm.array<?x2xi64, "opencl:cpu:0", device>, !usm.array<4x5xf32, "opencl:cpu:0", device>
// CHECK: usm.scatter %{{.*}} into %{{.*}}[%{{.*}}] : !usm.array<f32, "opencl:cpu:0", device>, !usm.array<ui32, "opencl:cpu:0", device>, !usm.array<4x5xf32, "opencl:cpu:0", device>
func.func @scatter(%d: !D, %v: !usm.array<?x2xf32, "opencl:cpu:0", device>, %p: !usm.array<?x2xi64, "opencl:cpu:0", device>, %e: !usm.array<f32, "opencl:cpu:0", device>, %q: !usm.array<ui32, "opencl:cpu:0", device>) -> !D {
  %r = usm.scatter %v into %d[%p] : !usm.array<?x2xf32, "opencl:cpu:0", device>, !usm.array<?x2xi64, "opencl:cpu:0", device>, !D
  %s = usm.scatter %e into %r[%q] : !usm.array<f32, "opencl:cpu:0", device>, !usm.array<ui32, "opencl:cpu:0", device>, !D
  return %s : !D
}
