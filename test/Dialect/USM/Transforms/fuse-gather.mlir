// RUN: sluice-opt %s --usm-fuse-elementwise | FileCheck %s
// RUN: sluice-opt %s --usm-fuse-elementwise | sluice-opt | FileCheck %s
// RUN: sluice-opt %s --usm-fuse-elementwise=report -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// A gather of static shapes joins the elementwise group of its indices'
// producers and its consumers; its source is an input of the group, read
// whole: the source's producer stays in a group of its own, and a gather
// does not join a reduction's group.

!A = !usm.array<4x8xf32, "host:cpu:0", device>
!I = !usm.array<4x8xi64, "host:cpu:0", device>
!R = !usm.array<4xf32, "host:cpu:0", device>

// CHECK-LABEL: func.func @indices_and_consumers
// CHECK:       usm.fused "host:cpu:0" ins(
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    usm.mul
// CHECK-NEXT:    usm.gather
// CHECK-NEXT:    usm.add
// CHECK-NEXT:    usm.yield
// CHECK-NOT:   usm.gather
func.func @indices_and_consumers(%a: !A, %i: !I) -> !A {
  %c2 = arith.constant 2 : i64
  %0 = usm.mul %i, %c2 : (!I, i64) -> !I
  %1 = usm.gather %a[%0] : !A, !I -> !A
  %2 = usm.add %1, %a : (!A, !A) -> !A
  return %2 : !A
}

// The source is computed first (its own kernel), then read whole.
// CHECK-LABEL: func.func @computed_source
// CHECK:       %[[SRC:.*]] = usm.exp
// CHECK:       usm.fused "host:cpu:0" ins(%{{.*}} = %[[SRC]] : !usm.array<4x8xf32
// CHECK-NEXT:    usm.gather
// CHECK-NEXT:    usm.negative
// REPORT:      fusion boundary: 'usm.exp' -> 'usm.gather': a gather reads its source whole from memory, after the source's kernel
func.func @computed_source(%a: !A, %i: !I) -> !A {
  %0 = usm.exp %a : (!A) -> !A
  %1 = usm.gather %0[%i] : !A, !I -> !A
  %2 = usm.negative %1 : (!A) -> !A
  return %2 : !A
}

// A reduction of a gathered array stays out of the gather's group.
// CHECK-LABEL: func.func @reduced
// CHECK:       %[[G:.*]] = usm.fused
// CHECK-NEXT:    usm.gather
// CHECK-NEXT:    usm.sqrt
// CHECK-NEXT:    usm.yield
// CHECK:       usm.sum %[[G]]
// REPORT:      fusion boundary: 'usm.sqrt' -> 'usm.sum': a gather fuses into elementwise groups only
func.func @reduced(%a: !A, %i: !I) -> !R {
  %0 = usm.gather %a[%i] : !A, !I -> !A
  %1 = usm.sqrt %0 : (!A) -> !A
  %2 = usm.sum %1 {axes = array<i64: 1>} : !A -> !R
  return %2 : !R
}
