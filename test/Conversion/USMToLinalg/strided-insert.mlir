// RUN: sluice-opt %s --convert-usm-to-linalg | FileCheck %s

// usm.strided_insert copies its destination and writes the value through a
// strided view of the copy (constant operands static in its layout), or
// writes into the destination itself when the update is in place.

!D = !usm.array<4x5xf32, "cpu:0", device>
!V = !usm.array<2x3xf32, "cpu:0", device>
!F = !usm.array<20xf32, "cpu:0", device>

// An argument nothing writes back: a copy.
// CHECK-LABEL: func.func @argument
// CHECK-SAME: (%[[D:.*]]: memref<4x5xf32, {{.*}}>, %[[V:.*]]: memref<2x3xf32
// CHECK: %[[C:.*]] = memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: linalg.generic {{.*}} ins(%[[D]] : {{.*}}) outs(%[[C]] :
// CHECK: %[[W:.*]] = memref.reinterpret_cast %[[C]] to offset: [6], sizes: [2, 3], strides: [5, 1] {{.*}} to memref<2x3xf32, strided<[5, 1], offset: 6>
// CHECK: linalg.generic {{.*}} ins(%[[V]] : {{.*}}) outs(%[[W]] :
// CHECK: return %[[C]]
func.func @argument(%d: !D, %v: !V) -> !D {
  %c6 = arith.constant 6 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %r = usm.strided_insert %v into %d[%c6] sizes(%c2, %c3) strides(%c5, %c1) : !V, !D
  return %r : !D
}

// An argument a store overwrites with the chain of its updates: both
// inserts write into it, and the store is no copy.
// CHECK-LABEL: func.func @written_back
// CHECK-SAME: (%[[D:.*]]: memref<4x5xf32, {{.*}}>, %[[V:.*]]: memref<2x3xf32
// CHECK-NOT: memref.alloc
// CHECK: %[[W:.*]] = memref.reinterpret_cast %[[D]] to offset: [6]
// CHECK: linalg.generic {{.*}} ins(%[[V]] : {{.*}}) outs(%[[W]] :
// CHECK: %[[W2:.*]] = memref.reinterpret_cast %[[D]] to offset: [19], sizes: [2, 3], strides: [-5, -1]
// CHECK: linalg.generic {{.*}} ins(%[[V]] : {{.*}}) outs(%[[W2]] :
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @written_back(%d: !D, %v: !V) {
  %c6 = arith.constant 6 : index
  %c19 = arith.constant 19 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %m5 = arith.constant -5 : index
  %m1 = arith.constant -1 : index
  %r = usm.strided_insert %v into %d[%c6] sizes(%c2, %c3) strides(%c5, %c1) : !V, !D
  %s = usm.strided_insert %v into %r[%c19] sizes(%c2, %c3) strides(%m5, %m1) : !V, !D
  usm.store %s, %d : !D, !D
  return
}

// A store that is not of this update's chain, or a later read of the
// argument: copies.
// CHECK-LABEL: func.func @read_after_store
// CHECK: memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: memref.reinterpret_cast
// CHECK-LABEL: func.func @other_store
func.func @read_after_store(%d: !D, %v: !V) -> !D {
  %c6 = arith.constant 6 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %r = usm.strided_insert %v into %d[%c6] sizes(%c2, %c3) strides(%c5, %c1) : !V, !D
  %t = usm.add %d, %d : (!D, !D) -> !D
  usm.store %r, %d : !D, !D
  return %t : !D
}

// CHECK: memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: memref.reinterpret_cast
// CHECK-LABEL: func.func @intermediate
func.func @other_store(%d: !D, %e: !D, %v: !V) {
  %c6 = arith.constant 6 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %r = usm.strided_insert %v into %d[%c6] sizes(%c2, %c3) strides(%c5, %c1) : !V, !D
  usm.store %e, %d : !D, !D
  return
}

// An intermediate whose old value is dead: in place (one allocation, the
// sum's).
// CHECK: %[[S:.*]] = memref.alloc() {{.*}} : memref<4x5xf32
// CHECK-NOT: memref.alloc
// CHECK: memref.reinterpret_cast %[[S]] to offset: [%{{.*}}], sizes: [2, 3], strides: [%{{.*}}, 1]
// CHECK-NOT: memref.alloc
// CHECK: return %[[S]]
func.func @intermediate(%d: !D, %v: !V, %o: index, %s: index) -> !D {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %t = usm.add %d, %d : (!D, !D) -> !D
  %r = usm.strided_insert %v into %t[%o] sizes(%c2, %c3) strides(%s, %c1) : !V, !D
  return %r : !D
}

// The old value read after the update, through a view of it, or the value
// a view of the destination: copies (two allocations).
// CHECK-LABEL: func.func @view_read_after
// CHECK: memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: memref.alloc() {{.*}} : memref<4x5xf32
func.func @view_read_after(%d: !D, %v: !V) -> (!D, !F) {
  %c6 = arith.constant 6 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %t = usm.add %d, %d : (!D, !D) -> !D
  %f = usm.reshape %t : !D -> !F
  %r = usm.strided_insert %v into %t[%c6] sizes(%c2, %c3) strides(%c5, %c1) : !V, !D
  %g = usm.add %f, %f : (!F, !F) -> !F
  return %r, %g : !D, !F
}

// CHECK-LABEL: func.func @value_views_destination
// CHECK: memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: memref.alloc() {{.*}} : memref<4x5xf32
func.func @value_views_destination(%d: !D) -> !D {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %t = usm.add %d, %d : (!D, !D) -> !D
  %f = usm.reshape %t : !D -> !F
  %w = usm.strided_view %f[%c0] sizes(%c2, %c3) strides(%c5, %c1) : !F -> !V
  %r = usm.strided_insert %w into %t[%c6] sizes(%c2, %c3) strides(%c5, %c1) : !V, !D
  return %r : !D
}
