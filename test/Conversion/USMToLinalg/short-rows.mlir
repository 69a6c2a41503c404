// RUN: sluice-opt %s --convert-usm-to-linalg --split-input-file | FileCheck %s

// Pairwise distances over 3 coordinates: one elementwise generic over the
// result, each point read once per coordinate through a map with the
// coordinate as a constant; the sum starts from the identity and adds in
// ascending order (the unfused reduction's order), then the square root.
// No fill, no reduction loop, no second generic for the epilogue.
// CHECK-DAG: #[[P0:.*]] = affine_map<(d0, d1) -> (d0, 0, 0)>
// CHECK-DAG: #[[Q0:.*]] = affine_map<(d0, d1) -> (0, d1, 0)>
// CHECK-DAG: #[[P1:.*]] = affine_map<(d0, d1) -> (d0, 0, 1)>
// CHECK-DAG: #[[Q1:.*]] = affine_map<(d0, d1) -> (0, d1, 1)>
// CHECK-DAG: #[[P2:.*]] = affine_map<(d0, d1) -> (d0, 0, 2)>
// CHECK-DAG: #[[Q2:.*]] = affine_map<(d0, d1) -> (0, d1, 2)>
// CHECK-LABEL: func.func @pairwise
// CHECK-SAME: (%[[P:.*]]: memref<?x1x3xf32, {{.*}}>, %[[Q:.*]]: memref<1x?x3xf32, {{.*}}>)
// CHECK-NOT: linalg.fill
// CHECK: %[[R:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {{.*}} : memref<?x?xf32,
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[P0]], #[[Q0]], #[[P1]], #[[Q1]], #[[P2]], #[[Q2]], #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%[[P]], %[[Q]], %[[P]], %[[Q]], %[[P]], %[[Q]] : {{.*}}) outs(%[[R]] :
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[D0:.*]] = arith.subf
// CHECK-NEXT: %[[S0:.*]] = arith.mulf %[[D0]], %[[D0]]
// CHECK-NEXT: %[[A0:.*]] = arith.addf %[[ZERO]], %[[S0]]
// CHECK: %[[S1:.*]] = arith.mulf
// CHECK-NEXT: %[[A1:.*]] = arith.addf %[[A0]], %[[S1]]
// CHECK: %[[S2:.*]] = arith.mulf
// CHECK-NEXT: %[[A2:.*]] = arith.addf %[[A1]], %[[S2]]
// CHECK-NEXT: %[[T:.*]] = math.sqrt %[[A2]]
// CHECK-NEXT: linalg.yield %[[T]]
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
!P = !usm.array<?x1x3xf32, "host:cpu:0", device>
!Q = !usm.array<1x?x3xf32, "host:cpu:0", device>
!D = !usm.array<?x?x3xf32, "host:cpu:0", device>
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

// `?` meeting `?`: the operands may be broadcast at run time, so they are
// read through stride-0 views with the result's sizes (built once each).
// CHECK-LABEL: func.func @views
// CHECK: usm.assert {{.*}}could not be broadcast together
// CHECK: %[[V:.*]] = memref.reinterpret_cast %arg0 {{.*}} sizes: [%{{.*}}, %{{.*}}, 3]
// CHECK: %[[W:.*]] = memref.reinterpret_cast %arg1 {{.*}} sizes: [%{{.*}}, %{{.*}}, 3]
// CHECK-NOT: reinterpret_cast
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[V]], %[[W]], %[[V]], %[[W]], %[[V]], %[[W]] :
!P = !usm.array<?x?x3xf32, "host:cpu:0", device>
!R = !usm.array<?x?xf32, "host:cpu:0", device>
func.func @views(%p: !P, %q: !P) -> !R {
  %0 = usm.fused "host:cpu:0" ins(%a = %p : !P, %b = %q : !P) -> (!R) {
    %d = usm.sub %a, %b : (!P, !P) -> !P
    %s = usm.mul %d, %d : (!P, !P) -> !P
    %r = usm.sum %s axes [-1] : !P -> !R
    %t = usm.sqrt %r : (!R) -> !R
    usm.yield %t : !R
  }
  return %0 : !R
}

// -----

// A maximum over two axes (2 x 2) with keepdims, a scalar input read by the
// epilogue, the result returned twice (two buffers, one generic): the
// maximum starts from -inf; the epilogue's scalar has an empty map.
// CHECK-LABEL: func.func @max_keepdims
// CHECK: linalg.generic {indexing_maps = [{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]} ins({{.*}}) outs(%{{.*}}, %{{.*}} :
// CHECK: arith.constant 0xFF800000 : f32
// CHECK-COUNT-4: arith.maximumf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
!X = !usm.array<?x2x2xf32, "host:cpu:0", device>
!K = !usm.array<?x1x1xf32, "host:cpu:0", device>
func.func @max_keepdims(%x: !X, %s: f32) -> (!K, !K) {
  %0:2 = usm.fused "host:cpu:0" ins(%a = %x : !X, %t = %s : f32) -> (!K, !K) {
    %m = usm.max %a axes [1, 2] keepdims : !X -> !K
    %r = usm.mul %m, %t : (!K, f32) -> !K
    usm.yield %r, %r : !K, !K
  }
  return %0#0, %0#1 : !K, !K
}

// -----

// Rows of 9 (above the bound) keep the reduction generic.
// CHECK-LABEL: func.func @long_rows
// CHECK: linalg.fill
// CHECK: iterator_types = ["parallel", "reduction"]
!A = !usm.array<?x9xf32, "host:cpu:0", device>
!V = !usm.array<?xf32, "host:cpu:0", device>
func.func @long_rows(%x: !A) -> !V {
  %0 = usm.fused "host:cpu:0" ins(%a = %x : !A) -> (!V) {
    %s = usm.mul %a, %a : (!A, !A) -> !A
    %r = usm.sum %s axes [1] : !A -> !V
    usm.yield %r : !V
  }
  return %0 : !V
}

// -----

// The group also returns `d`, a value of its prologue the program uses too:
// it is split into an elementwise group that writes `d` and the reduction
// group, whose rows are unrolled as above and recompute `d` from the
// inputs (never reading the written `d` back).
// CHECK-LABEL: func.func @pairwise_and_d
// CHECK-SAME: (%[[P:.*]]: memref<?x1x3xf32, {{.*}}>, %[[Q:.*]]: memref<1x?x3xf32, {{.*}}>)
// CHECK-NOT: linalg.fill
// CHECK: %[[D:.*]] = memref.alloc({{.*}}) {{.*}} : memref<?x?x3xf32,
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[P]], %[[Q]] : {{.*}}) outs(%[[D]] :
// CHECK: arith.subf
// CHECK: %[[R:.*]] = memref.alloc({{.*}}) {{.*}} : memref<?x?xf32,
// CHECK-NEXT: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[P]], %[[Q]], %[[P]], %[[Q]], %[[P]], %[[Q]] : {{.*}}) outs(%[[R]] :
// CHECK: math.sqrt
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.reduce
// CHECK: return %[[D]], %[[R]]
!P = !usm.array<?x1x3xf32, "host:cpu:0", device>
!Q = !usm.array<1x?x3xf32, "host:cpu:0", device>
!D = !usm.array<?x?x3xf32, "host:cpu:0", device>
!R = !usm.array<?x?xf32, "host:cpu:0", device>
func.func @pairwise_and_d(%p: !P, %q: !Q) -> (!D, !R) {
  %0:2 = usm.fused "host:cpu:0" ins(%a = %p : !P, %b = %q : !Q) -> (!D, !R) {
    %d = usm.sub %a, %b : (!P, !Q) -> !D
    %s = usm.mul %d, %d : (!D, !D) -> !D
    %r = usm.sum %s axes [2] : !D -> !R
    %t = usm.sqrt %r : (!R) -> !R
    usm.yield %d, %t : !D, !R
  }
  return %0#0, %0#1 : !D, !R
}

// -----

// Prologue values of two shapes make no elementwise group: the group is
// not split and lowers as a reduction group.
// CHECK-LABEL: func.func @two_prologue_shapes
// CHECK: return
!P = !usm.array<?x1x3xf32, "host:cpu:0", device>
!Q = !usm.array<1x?x3xf32, "host:cpu:0", device>
!D = !usm.array<?x?x3xf32, "host:cpu:0", device>
!R = !usm.array<?x?xf32, "host:cpu:0", device>
func.func @two_prologue_shapes(%p: !P, %q: !Q) -> (!D, !P, !R) {
  %0:3 = usm.fused "host:cpu:0" ins(%a = %p : !P, %b = %q : !Q) -> (!D, !P, !R) {
    %e = usm.negative %a : (!P) -> !P
    %d = usm.sub %e, %b : (!P, !Q) -> !D
    %s = usm.mul %d, %d : (!D, !D) -> !D
    %r = usm.sum %s axes [2] : !D -> !R
    usm.yield %d, %e, %r : !D, !P, !R
  }
  return %0#0, %0#1, %0#2 : !D, !P, !R
}
