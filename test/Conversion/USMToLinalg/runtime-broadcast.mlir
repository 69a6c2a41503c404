// RUN: sluice-opt %s --convert-usm-to-linalg --split-input-file | FileCheck %s

// Two dynamic sizes meet: the result size is the first that is not 1, the
// run-time check names the op, its location and both shapes, and a second
// generic reads stride-0 views when a size differs from the result's.
// CHECK-LABEL: func.func @dynamic_pair
// CHECK-SAME: (%[[A:.*]]: memref<?xf32, {{.*}}>, %[[B:.*]]: memref<?xf32, {{.*}}>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[DA:.*]] = memref.dim %[[A]]
// CHECK-DAG: %[[DB:.*]] = memref.dim %[[B]]
// CHECK: %[[A1:.*]] = arith.cmpi eq, %[[DA]], %[[C1]]
// CHECK: %[[R:.*]] = arith.select %[[A1]], %[[DB]], %[[DA]]
// CHECK: %[[BR:.*]] = arith.cmpi eq, %[[DB]], %[[R]]
// CHECK: %[[B1:.*]] = arith.cmpi eq, %[[DB]], %[[C1]]
// CHECK: %[[OK:.*]] = arith.ori %[[B1]], %[[BR]]
// CHECK: usm.assert %[[OK]], "usm.add at {{.*}}runtime-broadcast.mlir:{{[0-9]+}}:8: operands could not be broadcast together with shapes ({0},) ({1},)" (%[[DA]], %[[DB]])
// CHECK: %[[OUT:.*]] = memref.alloc(%[[R]])
// CHECK: %[[AR:.*]] = arith.cmpi eq, %[[DA]], %[[R]]
// CHECK: %[[SAME:.*]] = arith.andi %[[AR]], %{{.*}}
// CHECK: scf.if %[[SAME]] {
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[OUT]] : {{.*}})
// CHECK: } else {
// CHECK: %[[SA:.*]] = arith.select {{.*}} : index
// CHECK: %[[VA:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%[[R]]], strides: [%[[SA]]] : {{.*}} to memref<?xf32, strided<[?]>, #usm.placement<"host:cpu:0", device>>
// CHECK: %[[VB:.*]] = memref.reinterpret_cast %[[B]]
// CHECK: linalg.generic {{.*}} ins(%[[VA]], %[[VB]] : {{.*}}) outs(%[[OUT]] : {{.*}})
// CHECK: return %[[OUT]]
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @dynamic_pair(%a: !A, %b: !A) -> !A {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  return %0 : !A
}

// -----

// One array operand (and a scalar): nothing to check, one generic.
// CHECK-LABEL: func.func @unary
// CHECK-NOT: usm.assert
// CHECK-NOT: scf.if
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
!A = !usm.array<?x?xf32, "host:cpu:0", device>
func.func @unary(%a: !A, %s: f32) -> !A {
  %0 = usm.mul %a, %s : (!A, f32) -> !A
  return %0 : !A
}

// -----

// A dynamic size against a static one: it must be 1 or 3; the result keeps
// the static size. The static 1 of the other operand reads index 0 in both
// generics.
// CHECK-DAG: #[[COL0:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @static_meets_dynamic
// CHECK-SAME: (%[[A:.*]]: memref<?x4xi32, {{.*}}>, %[[B:.*]]: memref<3x1xi32, {{.*}}>)
// CHECK: %[[D:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK: usm.assert %{{.*}}, "usm.sub at {{.*}}: operands could not be broadcast together with shapes ({0},4) (3,1)" (%[[D]])
// CHECK: %[[OUT:.*]] = memref.alloc() {{.*}} : memref<3x4xi32
// CHECK: scf.if
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[COL0]], #{{.*}}]
// CHECK: } else {
// CHECK: memref.reinterpret_cast %[[A]] to offset: [0], sizes: [3, 4], strides: [%{{.*}}, 1] : {{.*}} to memref<3x4xi32, strided<[?, 1]>, {{.*}}>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[COL0]], #{{.*}}]
!A = !usm.array<?x4xi32, "host:cpu:0", device>
!B = !usm.array<3x1xi32, "host:cpu:0", device>
!R = !usm.array<3x4xi32, "host:cpu:0", device>
func.func @static_meets_dynamic(%a: !A, %b: !B) -> !R {
  %0 = usm.sub %a, %b : (!A, !B) -> !R
  return %0 : !R
}

// -----

// An elementwise group with dynamic sizes that may broadcast: one generic
// when no size of 1 meets another, else the ops one by one (the group's
// results may then differ in shape), each checked once, before.
// CHECK-LABEL: func.func @fused_dynamic
// CHECK-COUNT-2: usm.assert
// CHECK: %[[O0:.*]] = memref.alloc
// CHECK: %[[O1:.*]] = memref.alloc
// CHECK: scf.if
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[O0]], %[[O1]] : {{.*}})
// CHECK: arith.addf
// CHECK: math.exp
// CHECK: arith.mulf
// CHECK: } else {
// CHECK-NOT: usm.assert
// CHECK: %[[T:.*]] = memref.alloc
// CHECK: linalg.generic {{.*}} outs(%[[T]] : {{.*}})
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[T]] : {{.*}}) outs(%[[O0]] : {{.*}})
// CHECK: math.exp
// CHECK: outs(%[[O1]] : {{.*}})
// CHECK: arith.mulf
// CHECK: }
// CHECK: return %[[O0]], %[[O1]]
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @fused_dynamic(%a: !A, %b: !A, %c: !A) -> (!A, !A) {
  %r:2 = usm.fused "host:cpu:0" ins(%x = %a : !A, %y = %b : !A, %z = %c : !A) -> (!A, !A) {
    %0 = usm.add %x, %z : (!A, !A) -> !A
    %1 = usm.exp %0 : (!A) -> !A
    %2 = usm.mul %y, %z : (!A, !A) -> !A
    usm.yield %1, %2 : !A, !A
  }
  return %r#0, %r#1 : !A, !A
}

// -----

// A group with one result keeps one generic when a size of 1 meets another:
// every value of the group feeds the result, so the group's space is the
// result's shape, and the second generic reads the inputs that may be
// broadcast through stride-0 views (no op-by-op buffers).
// CHECK-LABEL: func.func @fused_dynamic_one_result
// CHECK-COUNT-3: usm.assert
// CHECK: %[[O:.*]] = memref.alloc
// CHECK: scf.if
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[O]] : {{.*}})
// CHECK: } else {
// CHECK-NOT: usm.assert
// CHECK-NOT: memref.alloc
// CHECK: memref.reinterpret_cast
// CHECK: linalg.generic {{.*}} outs(%[[O]] : {{.*}})
// CHECK: arith.addf
// CHECK: math.exp
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK-NOT: linalg.generic
// CHECK: }
// CHECK: return %[[O]]
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @fused_dynamic_one_result(%a: !A, %b: !A, %c: !A) -> !A {
  %r = usm.fused "host:cpu:0" ins(%x = %a : !A, %y = %b : !A, %z = %c : !A) -> (!A) {
    %0 = usm.add %x, %z : (!A, !A) -> !A
    %1 = usm.exp %0 : (!A) -> !A
    %2 = usm.mul %1, %y : (!A, !A) -> !A
    %3 = usm.sub %2, %z : (!A, !A) -> !A
    usm.yield %3 : !A
  }
  return %r : !A
}

// -----

// Static groups are one generic, with no check.
// CHECK-LABEL: func.func @fused_static
// CHECK-NOT: usm.assert
// CHECK-NOT: scf.if
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
!A = !usm.array<4x3xf32, "host:cpu:0", device>
!R = !usm.array<3xf32, "host:cpu:0", device>
func.func @fused_static(%a: !A, %b: !R) -> !A {
  %r = usm.fused "host:cpu:0" ins(%x = %a : !A, %y = %b : !R) -> (!A) {
    %0 = usm.add %x, %y : (!A, !R) -> !A
    usm.yield %0 : !A
  }
  return %r : !A
}

// -----

// broadcast_to: sizes not negative, each input size 1 or the target's.
// CHECK-LABEL: func.func @broadcast_to
// CHECK-SAME: (%[[A:.*]]: memref<?xf32, {{.*}}>, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[D:.*]] = memref.dim %[[A]]
// CHECK: usm.assert %{{.*}}, "usm.broadcast_to at {{.*}}: negative dimensions are not allowed: ({0},{1})" (%[[N]], %[[M]])
// CHECK: usm.assert %{{.*}}, "usm.broadcast_to at {{.*}}: cannot broadcast shape ({0},) to ({1},{2})" (%[[D]], %[[N]], %[[M]])
// CHECK: scf.if
// CHECK: } else {
// CHECK: memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%[[M]]], strides: [%{{.*}}]
!A = !usm.array<?xf32, "host:cpu:0", device>
!B = !usm.array<?x?xf32, "host:cpu:0", device>
func.func @broadcast_to(%a: !A, %n: index, %m: index) -> !B {
  %0 = usm.broadcast_to %a (%n, %m) : !A -> !B
  return %0 : !B
}

// -----

// reshape with dynamic sizes: not negative, and as many elements.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[A:.*]]: memref<?x4xf32, {{.*}}>, %[[N:.*]]: index)
// CHECK: usm.assert %{{.*}}, "usm.reshape at {{.*}}: negative dimensions are not allowed: ({0},2)" (%[[N]])
// CHECK: %[[D:.*]] = memref.dim %[[A]]
// CHECK: %[[IN:.*]] = arith.muli %[[D]], %{{.*}}
// CHECK: %[[OUT:.*]] = arith.muli %[[N]], %{{.*}}
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[IN]], %[[OUT]]
// CHECK: usm.assert %[[EQ]], "usm.reshape at {{.*}}: cannot reshape array of size {0} into shape ({1},2)" (%[[IN]], %[[N]])
// CHECK: memref.reinterpret_cast %[[A]]
!A = !usm.array<?x4xf32, "host:cpu:0", device>
!B = !usm.array<?x2xf32, "host:cpu:0", device>
func.func @reshape(%a: !A, %n: index) -> !B {
  %0 = usm.reshape %a (%n) : !A -> !B
  return %0 : !B
}

// -----

// max and min need a reduced extent that is not 0; sum does not.
// CHECK-LABEL: func.func @reductions
// CHECK: usm.assert %{{.*}}, "usm.max at {{.*}}: zero-size array to reduction operation maximum which has no identity"
// CHECK: usm.assert %{{.*}}, "usm.min at {{.*}}: zero-size array to reduction operation minimum which has no identity"
// CHECK-NOT: usm.assert
!A = !usm.array<3x?xf32, "host:cpu:0", device>
!R = !usm.array<3xf32, "host:cpu:0", device>
func.func @reductions(%a: !A) -> (!R, !R, !R) {
  %0 = usm.max %a axes [1] : !A -> !R
  %1 = usm.min %a axes [1] : !A -> !R
  %2 = usm.sum %a axes [1] : !A -> !R
  return %0, %1, %2 : !R, !R, !R
}

// -----

// Statically non-empty reductions need no check.
// CHECK-LABEL: func.func @static_max
// CHECK-NOT: usm.assert
!A = !usm.array<?x3xf32, "host:cpu:0", device>
!R = !usm.array<?xf32, "host:cpu:0", device>
func.func @static_max(%a: !A) -> !R {
  %0 = usm.max %a axes [1] : !A -> !R
  return %0 : !R
}

// -----

// Creation ops with dynamic sizes: none negative.
// CHECK-LABEL: func.func @creation
// CHECK: usm.assert %{{.*}}, "usm.empty at {{.*}}: negative dimensions are not allowed: ({0},3)"
// CHECK: usm.assert %{{.*}}, "usm.full at {{.*}}: negative dimensions are not allowed: ({0},3)"
// CHECK: usm.assert %{{.*}}, "usm.arange at {{.*}}: negative dimensions are not allowed: ({0},)"
!A = !usm.array<?x3xf32, "host:cpu:0", device>
!V = !usm.array<?xf32, "host:cpu:0", device>
func.func @creation(%n: index, %v: f32) -> (!A, !A, !V) {
  %0 = usm.empty(%n) : !A
  %1 = usm.full %v (%n) : f32 -> !A
  %2 = usm.arange %v, %v (%n) : f32 -> !V
  return %0, %1, %2 : !A, !A, !V
}
