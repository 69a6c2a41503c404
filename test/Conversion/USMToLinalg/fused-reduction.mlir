// RUN: sluice-opt %s --convert-usm-to-linalg --split-input-file | FileCheck %s

// Pairwise squared distances: the broadcast difference and its square are
// evaluated inside the reduction's generic (no buffer of the n x n x k
// space); sizes that may be 1 at run time take a second generic reading
// stride-0 views; the epilogue (sqrt) is a generic over the result.
// CHECK-LABEL: func.func @pairwise
// CHECK-SAME: (%[[P:.*]]: memref<?x1x?xf32, {{.*}}>, %[[Q:.*]]: memref<1x?x?xf32, {{.*}}>)
// CHECK: usm.assert {{.*}}"usm.sub at {{.*}}operands could not be broadcast together
// CHECK: %[[R:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {{.*}} : memref<?x?xf32,
// CHECK-NOT: memref.alloc
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[R]] :
// CHECK: scf.if
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[MP:.*]], #[[MQ:.*]], #[[MO:.*]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[P]], %[[Q]] : {{.*}}) outs(%[[R]] :
// CHECK: arith.subf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK: } else {
// CHECK: %[[PV:.*]] = memref.reinterpret_cast %[[P]]
// CHECK: %[[QV:.*]] = memref.reinterpret_cast %[[Q]]
// CHECK: linalg.generic {{.*}} ins(%[[PV]], %[[QV]] : {{.*}}) outs(%[[R]] :
// CHECK: %[[T:.*]] = memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[R]] : {{.*}}) outs(%[[T]] :
// CHECK: math.sqrt
// CHECK: return %[[T]]
!P = !usm.array<?x1x?xf32, "host:cpu:0", device>
!Q = !usm.array<1x?x?xf32, "host:cpu:0", device>
!D = !usm.array<?x?x?xf32, "host:cpu:0", device>
!R = !usm.array<?x?xf32, "host:cpu:0", device>
func.func @pairwise(%p: !P, %q: !Q) -> !R {
  %0 = usm.fused "host:cpu:0" ins(%a = %p : !P, %b = %q : !Q) -> (!R) {
    %d = usm.sub %a, %b : (!P, !Q) -> !D
    %s = usm.mul %d, %d : (!D, !D) -> !D
    %r = usm.sum %s axes [2] : !D -> !R
    %t = usm.sqrt %r : (!R) -> !R
    usm.yield %t : !R
  }
  return %0 : !R
}

// -----

// A softmax's second group: exp(x - m) is a result too, so one generic
// writes it, and the reduction reads it back (no recomputation of exp).
// CHECK-LABEL: func.func @softmax_sum
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf32, {{.*}}>, %[[M:.*]]: memref<?x1xf32, {{.*}}>)
// CHECK: %[[E:.*]] = memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[M]] : {{.*}}) outs(%[[E]] :
// CHECK: math.exp
// CHECK: %[[S:.*]] = memref.alloc
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[SC:.*]] :
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[E]] : {{.*}}) outs(%[[SC]] :
// CHECK-NOT: math.exp
// CHECK: arith.addf
// CHECK: return %[[E]], %[[S]]
!X = !usm.array<?x?xf32, "host:cpu:0", device>
!K = !usm.array<?x1xf32, "host:cpu:0", device>
func.func @softmax_sum(%x: !X, %m: !K) -> (!X, !K) {
  %0:2 = usm.fused "host:cpu:0" ins(%a = %x : !X, %b = %m : !K) -> (!X, !K) {
    %d = usm.sub %a, %b : (!X, !K) -> !X
    %e = usm.exp %d : (!X) -> !X
    %s = usm.sum %e axes [1] keepdims : !X -> !K
    usm.yield %e, %s : !X, !K
  }
  return %0#0, %0#1 : !X, !K
}

// -----

// A broadcast epilogue (the softmax's division by the row sums): one
// generic over the input's space after the reduction, recomputing
// exp(x - m) from the inputs; nothing of that space is stored but the
// result (two allocations: the sums and the result).
// CHECK-LABEL: func.func @softmax_epilogue
// CHECK-SAME: (%[[X:.*]]: memref<?x?xf32, {{.*}}>, %[[M:.*]]: memref<?x1xf32, {{.*}}>)
// CHECK: %[[S:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<?x1xf32,
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[M]] : {{.*}}) outs(
// CHECK: math.exp
// CHECK-NEXT: arith.addf
// CHECK: %[[R:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {{.*}} : memref<?x?xf32,
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[M]], %[[S]] : {{.*}}) outs(%[[R]] :
// CHECK: arith.subf
// CHECK-NEXT: math.exp
// CHECK-NEXT: arith.divf
// CHECK: return %[[R]]
!X = !usm.array<?x?xf32, "host:cpu:0", device>
!K = !usm.array<?x1xf32, "host:cpu:0", device>
func.func @softmax_epilogue(%x: !X, %m: !K) -> !X {
  %0 = usm.fused "host:cpu:0" ins(%a = %x : !X, %b = %m : !K) -> (!X) {
    %d = usm.sub %a, %b : (!X, !K) -> !X
    %e = usm.exp %d : (!X) -> !X
    %s = usm.sum %e axes [1] keepdims : !X -> !K
    %r = usm.div %e, %s : (!X, !K) -> !X
    usm.yield %r : !X
  }
  return %0 : !X
}
