// RUN: sluice-opt %s --usm-expand-contractions | FileCheck %s
// RUN: sluice-opt %s --usm-expand-contractions --usm-fuse-elementwise | FileCheck %s --check-prefix=FUSED

!A = !usm.array<4x8xf32, "opencl:cpu:0", device>
!B = !usm.array<8x3xf32, "opencl:cpu:0", device>
!C = !usm.array<4x3xf32, "opencl:cpu:0", device>
!V = !usm.array<3xf32, "opencl:cpu:0", device>

// The second operand is transposed, both get a unit axis, the broadcast
// product is summed over the contracted (innermost) axis.
// CHECK-LABEL: func.func @dense
// CHECK:      %[[T:.*]] = usm.transpose %arg1 [1, 0] : {{.*}} -> !usm.array<3x8xf32, "opencl:cpu:0", device>
// CHECK-NEXT: %[[X:.*]] = usm.reshape %arg0 : {{.*}} -> !usm.array<4x1x8xf32, "opencl:cpu:0", device>
// CHECK-NEXT: %[[Y:.*]] = usm.reshape %[[T]] : {{.*}} -> !usm.array<1x3x8xf32, "opencl:cpu:0", device>
// CHECK-NEXT: %[[P:.*]] = usm.mul %[[X]], %[[Y]] : {{.*}} -> !usm.array<4x3x8xf32, "opencl:cpu:0", device>
// CHECK-NEXT: usm.sum %[[P]] axes [2] : {{.*}} -> !usm.array<4x3xf32, "opencl:cpu:0", device>
// CHECK-NOT:  usm.matmul
// The product, the sum and the epilogue (bias, relu) are one kernel.
// FUSED-LABEL: func.func @dense
// FUSED:       usm.fused "opencl:cpu:0"
// FUSED-NEXT:    arith.constant 0.0
// FUSED-NEXT:    usm.mul
// FUSED-NEXT:    usm.sum
// FUSED-NEXT:    usm.add
// FUSED-NEXT:    usm.maximum
// FUSED-NEXT:    usm.yield
func.func @dense(%a: !A, %b: !B, %bias: !V) -> !C {
  %zero = arith.constant 0.0 : f32
  %c = usm.matmul %a, %b : (!A, !B) -> !C
  %d = usm.add %c, %bias : (!C, !V) -> !C
  %r = usm.maximum %d, %zero : (!C, f32) -> !C
  return %r : !C
}

// Batched, broadcast; integer sums come back to the element type.
// CHECK-LABEL: func.func @batched_int
// CHECK:       usm.transpose %arg1 [0, 2, 1]
// CHECK:       usm.reshape %arg0 {{.*}} -> !usm.array<2x4x1x8xi32, "host:cpu:0", device>
// CHECK:       usm.reshape {{.*}} -> !usm.array<1x1x3x8xi32, "host:cpu:0", device>
// CHECK:       usm.mul {{.*}} -> !usm.array<2x4x3x8xi32, "host:cpu:0", device>
// CHECK:       usm.sum {{.*}} axes [3] {{.*}} -> !usm.array<2x4x3xi64, "host:cpu:0", device>
// CHECK:       usm.astype {{.*}} to !usm.array<2x4x3xi32, "host:cpu:0", device>
func.func @batched_int(%a: !usm.array<2x4x8xi32, "host:cpu:0", device>,
                       %b: !usm.array<1x8x3xi32, "host:cpu:0", device>)
    -> !usm.array<2x4x3xi32, "host:cpu:0", device> {
  %c = usm.matmul %a, %b : (!usm.array<2x4x8xi32, "host:cpu:0", device>, !usm.array<1x8x3xi32, "host:cpu:0", device>) -> !usm.array<2x4x3xi32, "host:cpu:0", device>
  return %c : !usm.array<2x4x3xi32, "host:cpu:0", device>
}
