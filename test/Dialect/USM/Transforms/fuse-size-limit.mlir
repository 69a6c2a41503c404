// RUN: sluice-opt %s --split-input-file --usm-fuse-elementwise="max-group-ops=3" | FileCheck %s
// RUN: sluice-opt %s --split-input-file --usm-fuse-elementwise="max-group-ops=0" | FileCheck %s --check-prefix=ALL
// RUN: sluice-opt %s --split-input-file --usm-fuse-elementwise="max-group-inputs=3" | FileCheck %s --check-prefix=INPUTS
// RUN: sluice-opt %s --split-input-file --usm-fuse-elementwise="max-group-inputs=3 report" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

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
// ALL-LABEL: func.func @chain
// ALL-COUNT-1: usm.fused
// ALL-NOT: usm.fused
// ALL: return
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

// -----

!A = !usm.array<?xf32, "host:cpu:0", device>

// A cheap producer used on both sides of a split: it is not recomputed in
// the second group (it would drag the first group's chain along) but is a
// second result of its own group, which the second group reads.
// CHECK-LABEL: func.func @across
// CHECK:      %[[G:.*]]:2 = usm.fused {{.*}} ins(%{{.*}} = %arg0
// CHECK-NEXT:   %[[P:.*]] = usm.mul
// CHECK-NEXT:   usm.add
// CHECK-NEXT:   %[[Q:.*]] = usm.sub
// CHECK-NEXT:   usm.yield %[[P]], %[[Q]]
// CHECK:      %[[H:.*]] = usm.fused {{.*}} ins(%{{.*}} = %[[G]]#1 : {{.*}}, %{{.*}} = %arg1 : f32, %{{.*}} = %[[G]]#0 : {{.*}})
// CHECK-NEXT:   usm.mul
// CHECK-NEXT:   usm.add
// CHECK-NEXT:   usm.yield
// CHECK:      return %[[H]]
// ALL-LABEL: func.func @across
// ALL-COUNT-1: usm.fused
// ALL-NOT: usm.fused
// ALL: return
func.func @across(%x: !A, %s: f32) -> !A {
  %0 = usm.mul %x, %s : (!A, f32) -> !A
  %1 = usm.add %0, %s : (!A, f32) -> !A
  %2 = usm.sub %1, %s : (!A, f32) -> !A
  %3 = usm.mul %2, %s : (!A, f32) -> !A
  %4 = usm.add %3, %0 : (!A, !A) -> !A
  return %4 : !A
}

// -----

!M = !usm.array<4x3xf32, "host:cpu:0", device>
!K = !usm.array<1x3xf32, "host:cpu:0", device>

// x - mean(2*x) followed by two ops: the broadcast epilogue (the sub)
// joins the reduction's group, which is then full (3 ops); the two ops
// read its result. Without a limit it is one group.
// CHECK-LABEL: func.func @full
// CHECK:      %[[R:.*]] = usm.fused {{.*}} -> (!usm.array<4x3xf32, "host:cpu:0", device>)
// CHECK-NEXT:   arith.constant
// CHECK-NEXT:   usm.mul
// CHECK-NEXT:   usm.sum
// CHECK-NEXT:   usm.sub
// CHECK-NEXT:   usm.yield
// CHECK:      usm.fused {{.*}} ins(%{{.*}} = %[[R]] : {{.*}}, %{{.*}} = %arg1 : f32)
// CHECK-NEXT:   usm.mul
// CHECK-NEXT:   usm.add
// CHECK-NEXT:   usm.yield
// ALL-LABEL: func.func @full
// ALL:      usm.fused {{.*}} ins(%{{.*}} = %arg0 : {{.*}}
// ALL-NEXT:   arith.constant
// ALL-NEXT:   usm.mul
// ALL-NEXT:   usm.sum
// ALL-NEXT:   usm.sub
// ALL-NEXT:   usm.mul
// ALL-NEXT:   usm.add
// ALL-NEXT:   usm.yield
// ALL-NOT:  usm.fused
func.func @full(%a: !M, %n: f32) -> !M {
  %c = arith.constant 2.0 : f32
  %0 = usm.mul %a, %c : (!M, f32) -> !M
  %1 = usm.sum %0 axes [0] keepdims : !M -> !K
  %2 = usm.sub %0, %1 : (!M, !K) -> !M
  %3 = usm.mul %2, %n : (!M, f32) -> !M
  %4 = usm.add %3, %n : (!M, f32) -> !M
  return %4 : !M
}

// -----

!A = !usm.array<?xf32, "host:cpu:0", device>

// A sum of six arrays under a limit of 3 inputs: a group reads a0, a1, a2,
// the next one its result, a3 and a4, the last one that result, a5 and s
// (the constant is rematerialised, not an input).
// INPUTS-LABEL: func.func @sum
// INPUTS:      %[[G1:.*]] = usm.fused {{.*}} ins(%{{.*}} = %arg0 : {{.*}}, %{{.*}} = %arg1 : {{.*}}, %{{.*}} = %arg2 : {{.*}})
// INPUTS-COUNT-2: usm.add
// INPUTS:      %[[G2:.*]] = usm.fused {{.*}} ins(%{{.*}} = %[[G1]] : {{.*}}, %{{.*}} = %arg3 : {{.*}}, %{{.*}} = %arg4 : {{.*}})
// INPUTS-COUNT-2: usm.add
// INPUTS:      %[[G3:.*]] = usm.fused {{.*}} ins(%{{.*}} = %[[G2]] : {{.*}}, %{{.*}} = %arg5 : {{.*}}, %{{.*}} = %arg6 : f32)
// INPUTS-NEXT:   arith.constant
// INPUTS-NEXT:   usm.add
// INPUTS-NEXT:   usm.mul
// INPUTS-NEXT:   usm.mul
// INPUTS-NEXT:   usm.yield
// INPUTS:      return %[[G3]]
// ALL-LABEL: func.func @sum
// ALL-COUNT-1: usm.fused
// ALL-NOT: usm.fused
// ALL: return
// REPORT: remark: fusion boundary: 'usm.add' -> 'usm.add': the group would exceed the input limit (max-group-inputs)
// REPORT: remark: fusion boundary: 'usm.add' -> 'usm.add': the group would exceed the input limit (max-group-inputs)
// REPORT-NOT: fusion boundary
func.func @sum(%a0: !A, %a1: !A, %a2: !A, %a3: !A, %a4: !A, %a5: !A, %s: f32) -> !A {
  %c = arith.constant 3.0 : f32
  %1 = usm.add %a0, %a1 : (!A, !A) -> !A
  %2 = usm.add %1, %a2 : (!A, !A) -> !A
  %3 = usm.add %2, %a3 : (!A, !A) -> !A
  %4 = usm.add %3, %a4 : (!A, !A) -> !A
  %5 = usm.add %4, %a5 : (!A, !A) -> !A
  %6 = usm.mul %5, %s : (!A, f32) -> !A
  %7 = usm.mul %6, %c : (!A, f32) -> !A
  return %7 : !A
}
