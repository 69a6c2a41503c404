// RUN: sluice-opt %s --convert-usm-to-linalg | FileCheck %s

// usm.scatter copies its destination and stores each value at its clamped
// position into a flat view of the copy, or into the destination itself
// when the update is in place.

!D = !usm.array<4x5xf32, "cpu:0", device>
!V = !usm.array<3xf32, "cpu:0", device>
!P = !usm.array<3xi64, "cpu:0", device>

// An argument nothing writes back: a copy.
// CHECK-LABEL: func.func @argument
// CHECK-SAME: (%[[D:.*]]: memref<4x5xf32, {{.*}}>, %[[V:.*]]: memref<3xf32, {{.*}}>, %[[P:.*]]: memref<3xi64
// CHECK: %[[C:.*]] = memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: linalg.generic {{.*}} ins(%[[D]] : {{.*}}) outs(%[[C]] :
// CHECK: %[[F:.*]] = memref.reinterpret_cast %[[C]] to offset: [0], sizes: [%{{.*}}], strides: [1]
// CHECK: linalg.generic {{.*}} ins(%[[P]], %[[V]] : {{.*}}) outs(%{{.*}} : memref<3xi8
// CHECK: arith.index_cast
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: memref.store %{{.*}}, %[[F]][%{{.*}}]
// CHECK: return %[[C]]
func.func @argument(%d: !D, %v: !V, %p: !P) -> !D {
  %r = usm.scatter %v into %d[%p] : !V, !P, !D
  return %r : !D
}

// An argument a store overwrites with its chain of updates (a scatter,
// then a strided insert): both write into it, and the store is no copy.
// CHECK-LABEL: func.func @written_back
// CHECK-SAME: (%[[D:.*]]: memref<4x5xf32, {{.*}}>, %[[V:.*]]: memref<3xf32
// CHECK-NOT: memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: memref.reinterpret_cast %[[D]] to offset: [0]
// CHECK: memref.store
// CHECK: memref.reinterpret_cast %[[D]] to offset: [6]
// CHECK-NOT: memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: return
func.func @written_back(%d: !D, %v: !V, %p: !P) {
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = usm.scatter %v into %d[%p] : !V, !P, !D
  %s = usm.strided_insert %v into %r[%c6] sizes(%c3) strides(%c1) : !V, !D
  usm.store %s, %d : !D, !D
  return
}

// An intermediate read after the update: a copy. One that is dead: in
// place (no second alloc of its type).
// CHECK-LABEL: func.func @intermediates
// CHECK: %[[X:.*]] = memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: %[[C:.*]] = memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: linalg.generic {{.*}} ins(%[[X]] : {{.*}}) outs(%[[C]] :
// CHECK: memref.reinterpret_cast %[[C]] to offset: [0]
// CHECK: %[[Y:.*]] = memref.alloc() {{.*}} : memref<4x5xf32
// CHECK-NOT: memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: memref.reinterpret_cast %[[Y]] to offset: [0]
// CHECK: return
func.func @intermediates(%d: !D, %v: !V, %p: !P) -> (!D, !D, !D) {
  %x = usm.add %d, %d : (!D, !D) -> !D
  %r = usm.scatter %v into %x[%p] : !V, !P, !D
  %y = usm.mul %d, %d : (!D, !D) -> !D
  %s = usm.scatter %v into %y[%p] : !V, !P, !D
  return %r, %x, %s : !D, !D, !D
}

// The value a view of the destination: a copy.
// CHECK-LABEL: func.func @value_views_dest
// CHECK: %[[Y:.*]] = memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: memref.alloc() {{.*}} : memref<4x5xf32
// CHECK: return
func.func @value_views_dest(%d: !D, %p: !P) -> !D {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %y = usm.mul %d, %d : (!D, !D) -> !D
  %f = usm.reshape %y : !D -> !usm.array<20xf32, "cpu:0", device>
  %w = usm.strided_view %f[%c0] sizes(%c3) strides(%c1) : !usm.array<20xf32, "cpu:0", device> -> !V
  %s = usm.scatter %w into %y[%p] : !V, !P, !D
  return %s : !D
}
