// RUN: sluice-opt %s | FileCheck %s
// RUN: sluice-opt %s | sluice-opt | FileCheck %s

// usm.matmul round-trips; its result type follows NumPy's matmul: batch
// axes broadcast, the queue is the operands', the USM kind the coerced one.
!A = !usm.array<8x4x16xf32, "opencl:cpu:0", device>
!B = !usm.array<16x32xf32, "opencl:cpu:0", shared>
!C = !usm.array<8x4x32xf32, "opencl:cpu:0", device>
// CHECK-LABEL: func.func @batched
// CHECK: usm.matmul %{{.*}}, %{{.*}} : (!usm.array<8x4x16xf32, "opencl:cpu:0", device>, !usm.array<16x32xf32, "opencl:cpu:0", shared>) -> !usm.array<8x4x32xf32, "opencl:cpu:0", device>
func.func @batched(%a: !A, %b: !B) -> !C {
  %c = usm.matmul %a, %b : (!A, !B) -> !C
  return %c : !C
}

!E = !usm.array<2x1x?x5xi32, "host:cpu:0", device>
!G = !usm.array<3x5x7xi32, "host:cpu:0", device>
// CHECK-LABEL: func.func @dynamic
// CHECK: usm.matmul {{.*}} -> !usm.array<2x3x?x7xi32, "host:cpu:0", device>
func.func @dynamic(%e: !E, %g: !G) -> !usm.array<2x3x?x7xi32, "host:cpu:0", device> {
  %c = usm.matmul %e, %g : (!E, !G) -> !usm.array<2x3x?x7xi32, "host:cpu:0", device>
  return %c : !usm.array<2x3x?x7xi32, "host:cpu:0", device>
}

// usm.library_matmul (the buffer form convert-usm-to-linalg gives products
// a library computes) round-trips; the first operand broadcasts over the
// batch.
!HA = memref<1x64x32xf32, #usm.placement<"host:cpu:0", device>>
!HB = memref<3x32x16xf32, #usm.placement<"host:cpu:0", device>>
!HC = memref<3x64x16xf32, #usm.placement<"host:cpu:0", device>>
// CHECK-LABEL: func.func @library
// CHECK: usm.library_matmul %{{.*}}, %{{.*}}, %{{.*}} : memref<1x64x32xf32, #usm.placement<"host:cpu:0", device>>, memref<3x32x16xf32, #usm.placement<"host:cpu:0", device>>, memref<3x64x16xf32, #usm.placement<"host:cpu:0", device>>
func.func @library(%a: !HA, %b: !HB, %c: !HC) {
  usm.library_matmul %a, %b, %c : !HA, !HB, !HC
  return
}
