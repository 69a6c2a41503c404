// RUN: sluice-opt %s --convert-usm-to-linalg | FileCheck %s

// usm.strided_view is a strided memref view of its base: an elementwise op
// reads it in place (no copy), and any other use reads a contiguous copy.

!F = !usm.array<?xf32, "cpu:0", device>
!V = !usm.array<?x?xf32, "cpu:0", device>

// CHECK-LABEL: func.func @add_views
// CHECK: %[[A:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}, %{{.*}}], strides: [%{{.*}}, %{{.*}}] {{.*}} to memref<?x?xf32, strided<[?, ?], offset: ?>
// CHECK: %[[B:.*]] = memref.reinterpret_cast
// CHECK-NOT: memref.copy
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[B]] : memref<?x?xf32, strided<[?, ?], offset: ?>, {{.*}}>, memref<?x?xf32, strided<[?, ?], offset: ?>, {{.*}}>)
func.func @add_views(%base: !F, %o1: index, %o2: index, %m: index, %n: index,
                     %s: index) -> !V {
  %c1 = arith.constant 1 : index
  %a = usm.strided_view %base[%o1] sizes(%m, %n) strides(%s, %c1) : !F -> !V
  %b = usm.strided_view %base[%o2] sizes(%m, %n) strides(%c1, %s) : !F -> !V
  %r = usm.add %a, %b : (!V, !V) -> !V
  return %r : !V
}

// CHECK-LABEL: func.func @returned_view
// CHECK: %[[V:.*]] = memref.reinterpret_cast
// CHECK: %[[C:.*]] = memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[V]] : {{.*}}) outs(%[[C]] :
// CHECK: return %[[C]]
func.func @returned_view(%base: !F, %o: index, %m: index, %n: index,
                         %s: index) -> !V {
  %c1 = arith.constant 1 : index
  %a = usm.strided_view %base[%o] sizes(%m, %n) strides(%s, %c1) : !F -> !V
  return %a : !V
}
