// RUN: sluice-opt %s --usm-fuse-elementwise --convert-usm-to-linalg --split-input-file | FileCheck %s

!A = !usm.array<?xf32, "host:cpu:0", device>

// The only result of a fused group goes straight into the destination, which
// is also read at the element written (a += b * c): no allocation, no copy.
// When a dynamic size broadcasts at run time, a second generic reads the
// inputs through broadcast views, still with no temporary for b * c.
// CHECK-LABEL: func.func @inplace_group
// CHECK-SAME: (%[[A:.*]]: memref<?xf32, {{.*}}>, %[[B:.*]]: memref<?xf32, {{.*}}>, %[[C:.*]]: memref<?xf32, {{.*}}>)
// CHECK-NOT: memref.alloc
// CHECK: usm.assert {{.*}}"usm.store at {{.*}}: cannot store an array of shape ({0},) into one of shape ({1},)"
// CHECK-NOT: memref.alloc
// CHECK: scf.if
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[B]], %[[C]], %[[A]] : {{.*}}) outs(%[[A]] : {{.*}})
// CHECK: } else {
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} outs(%[[A]] : {{.*}})
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @inplace_group(%a: !A, %b: !A, %c: !A) {
  %0 = usm.mul %b, %c : (!A, !A) -> !A
  %1 = usm.add %a, %0 : (!A, !A) -> !A
  usm.store %1, %a : !A, !A
  return
}

// -----

!A = !usm.array<?xf32, "host:cpu:0", device>

// A single elementwise op writes into the destination too.
// CHECK-LABEL: func.func @inplace_op
// CHECK-SAME: (%[[A:.*]]: memref<?xf32, {{.*}}>, %[[B:.*]]: memref<?xf32, {{.*}}>)
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[A]] : {{.*}})
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @inplace_op(%a: !A, %b: !A) {
  %0 = usm.sub %a, %b : (!A, !A) -> !A
  usm.store %0, %a : !A, !A
  return
}

// -----

!A = !usm.array<4xf32, "host:cpu:0", device>
!T = !usm.array<4x1xf32, "host:cpu:0", device>

// A value that is used again, or an op between producer and store that reads
// the destination, or an operand that is a view of the destination: the
// value is computed into its own buffer and copied.
// CHECK-LABEL: func.func @copies
// CHECK: %[[T:.*]] = memref.alloc
// CHECK: linalg.generic {{.*}} outs(%[[T]] :
// CHECK: linalg.generic {{.*}} ins(%[[T]] : {{.*}}) outs(%arg0 :
// CHECK: return %[[T]]
func.func @copies(%a: !A, %b: !A) -> !A {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  usm.store %0, %a : !A, !A
  return %0 : !A
}

// CHECK-LABEL: func.func @read_between
// CHECK: %[[T:.*]] = memref.alloc
// CHECK: linalg.generic {{.*}} outs(%[[T]] :
// CHECK: linalg.generic {{.*}} ins(%[[T]] : {{.*}}) outs(%arg0 :
func.func @read_between(%a: !A, %b: !A) -> !usm.array<f32, "host:cpu:0", device> {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %s = usm.sum %a axes [0] : !A -> !usm.array<f32, "host:cpu:0", device>
  usm.store %0, %a : !A, !A
  return %s : !usm.array<f32, "host:cpu:0", device>
}

// CHECK-LABEL: func.func @view_operand
// CHECK: memref.alloc
// CHECK: linalg.generic {{.*}} outs(%arg0 :
func.func @view_operand(%a: !A, %b: !A) {
  %t = usm.reshape %a : !A -> !T
  %r = usm.reshape %t : !T -> !A
  %0 = usm.add %r, %b : (!A, !A) -> !A
  usm.store %0, %a : !A, !A
  return
}
