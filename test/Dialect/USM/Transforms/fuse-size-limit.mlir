// RUN: sluice-opt %s --usm-fuse-elementwise="max-group-ops=3" | FileCheck %s
// RUN: sluice-opt %s --usm-fuse-elementwise="max-group-ops=0" | FileCheck %s --check-prefix=ALL

!A = !usm.array<?xf32, "host:cpu:0", device>

// A chain of 7 cheap ops under a limit of 3: three groups (3, 3, 1 ops,
// the last alone is not outlined), each reading the previous one's result;
// nothing is recomputed across the splits.
// CHECK-LABEL: func.func @chain
// CHECK: %[[G1:.*]] = usm.fused {{.*}} ins(%{{.*}} = %arg0
// CHECK-COUNT-3: usm.{{mul|add|sub}}
// CHECK: usm.yield
// CHECK: %[[G2:.*]] = usm.fused {{.*}} ins(%{{.*}} = %[[G1]]
// CHECK-COUNT-3: usm.{{mul|add|sub}}
// CHECK: usm.yield
// CHECK: %[[L:.*]] = usm.mul %[[G2]]
// CHECK: return %[[L]]
// ALL-COUNT-1: usm.fused
// ALL-NOT: usm.fused
func.func @chain(%x: !A, %s: f32) -> !A {
  %0 = usm.mul %x, %s : (!A, f32) -> !A
  %1 = usm.add %0, %s : (!A, f32) -> !A
  %2 = usm.sub %1, %s : (!A, f32) -> !A
  %3 = usm.mul %2, %s : (!A, f32) -> !A
  %4 = usm.add %3, %s : (!A, f32) -> !A
  %5 = usm.sub %4, %s : (!A, f32) -> !A
  %6 = usm.mul %5, %s : (!A, f32) -> !A
  return %6 : !A
}
