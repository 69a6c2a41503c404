// RUN: sluice-opt %s --convert-usm-to-linalg | FileCheck %s

// A gather is one generic over the indices: each index is clamped into
// [0, size) and loaded from a flat view of the source, which the payload
// reads from above.

!S = !usm.array<?x5xf32, "host:cpu:0", device>
!I = !usm.array<2x3xi64, "host:cpu:0", device>
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[A:.*]]: memref<?x5xf32, {{.*}}>, %[[I:.*]]: memref<2x3xi64, {{.*}}>)
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%{{.*}}], strides: [1]
// CHECK-SAME: to memref<?xf32, #usm.placement<"host:cpu:0", device>>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[I]] : memref<2x3xi64
// CHECK-SAME: outs(%[[OUT]] : memref<2x3xf32
// CHECK: ^bb0(%[[X:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[F:.*]] = arith.index_cast %[[X]] : i64 to index
// CHECK: %[[LO:.*]] = arith.maxsi %[[F]]
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]]
// CHECK: %[[V:.*]] = memref.load %[[FLAT]][%[[HI]]]
// CHECK: linalg.yield %[[V]] : f32
// CHECK: return %[[OUT]]
func.func @gather(%a: !S, %i: !I) -> !usm.array<2x3xf32, "host:cpu:0", device> {
  %0 = usm.gather %a[%i] : !S, !I -> !usm.array<2x3xf32, "host:cpu:0", device>
  return %0 : !usm.array<2x3xf32, "host:cpu:0", device>
}
