// RUN: sluice-opt %s --split-input-file --convert-linalg-to-kernels --canonicalize --cse | FileCheck %s

// Host reductions whose reduced loops come before their parallel ones
// (`x.sum(axis=0)`) take tiles of contiguous outputs: the launch passes the
// tile's width (about an eighth of the outputs, 64 to 1024, a multiple of
// 16); the kernel stores the identity into its tile, then folds the rows
// into it four at a time (one load and one store of each output per four
// rows, the innermost loop over outputs with unit stride), then the rest
// one by one. With one slice per output it stores into the output; with
// several, into slice-major partials, which the combine kernel reads at
// s * outputs + o.

#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
!X = memref<?x?xf32, #usm.placement<"host:cpu:0", device>>
!C = memref<?xf32, #usm.placement<"host:cpu:0", device>>

// CHECK-LABEL: func.func @colsum
// CHECK: %[[N:.*]] = memref.dim %arg0, %c1
// CHECK: scf.if
// CHECK: %[[T:.*]] = arith.ceildivui %[[N]], %c8
// CHECK: %[[T16:.*]] = arith.ceildivui %[[T]], %c16
// CHECK: %[[W16:.*]] = arith.muli %[[T16]], %c16
// CHECK: %[[WMAX:.*]] = arith.minui %[[W16]], %c1024
// CHECK: %[[W:.*]] = arith.maxui %[[WMAX]], %c64
// CHECK: gpu.launch_func @sluice_host_kernels::@colsum_reduce blocks in {{.*}} args({{.*}}, %[[W]] : index)
// CHECK: } else {
// CHECK: gpu.launch_func @sluice_host_kernels::@colsum_reduce_0
// CHECK: gpu.launch_func @sluice_host_kernels::@colsum_combine
// CHECK: gpu.func @colsum_reduce(%[[IN:.*]]: memref<?xf32, {{.*}}>, %[[OUT:.*]]: memref<?xf32, {{.*}}>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index) kernel
// CHECK: scf.for
// CHECK: scf.for %[[O0:.*]] = %[[LO:.*]] to %[[HI:.*]] step %c1 {
// CHECK-NEXT: %[[F:.*]] = arith.addi %{{.*}}, %[[O0]] : index
// CHECK-NEXT: memref.store %cst, %[[OUT]][%[[F]]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4 {
// CHECK-NEXT: scf.for %[[O:.*]] = %[[LO]] to %[[HI]] step %c1 {
// CHECK-NEXT: %[[OFF:.*]] = arith.addi %{{.*}}, %[[O]] : index
// CHECK-NEXT: %[[ACC:.*]] = memref.load %[[OUT]][%[[OFF]]]
// CHECK: %[[X0:.*]] = memref.load %[[IN]]
// CHECK-NEXT: %[[S0:.*]] = arith.addf %[[ACC]], %[[X0]]
// CHECK: %[[S1:.*]] = arith.addf %[[S0]]
// CHECK: %[[S2:.*]] = arith.addf %[[S1]]
// CHECK: %[[S3:.*]] = arith.addf %[[S2]]
// CHECK-NEXT: memref.store %[[S3]], %[[OUT]][%[[OFF]]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 {
// CHECK-NEXT: scf.for %{{.*}} = %[[LO]] to %[[HI]] step %c1 {
// CHECK: gpu.func @colsum_reduce_0(%{{.*}}, %[[P:[a-z0-9]+]]: memref<?xf32, {{[^%]*}}>, %{{.*}}: index) kernel
// CHECK: %[[OB:.*]] = arith.muli %{{.*}}, %arg3 : index
// CHECK-NEXT: %[[SB:.*]] = arith.muli %{{.*}}, %arg3 : index
// CHECK-NEXT: %[[PB:.*]] = arith.addi %[[SB]], %[[OB]] : index
// CHECK: %[[PO0:.*]] = arith.addi %[[PB]], %{{.*}} : index
// CHECK-NEXT: memref.store %cst, %[[P]][%[[PO0]]]
// CHECK: gpu.func @colsum_combine(
// CHECK: scf.for %[[S:.*]] = %c0 to %arg4 step %c1
// CHECK-NEXT: %[[SO:.*]] = arith.muli %[[S]], %arg3 : index
// CHECK-NEXT: %[[PO:.*]] = arith.addi %{{.*}}, %[[SO]] : index
// CHECK-NEXT: memref.load %arg5[%[[PO]]]
func.func @colsum(%x: !X, %out: !C) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : !C)
  linalg.generic {indexing_maps = [#in, #out],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : !X) outs(%out : !C) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A column max folds with arith.maximumf elementwise (no compare-and-select:
// the host lowers it to llvm.maximum, whose vectors keep NaNs).
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
!X = memref<?x?xf32, #usm.placement<"host:cpu:0", device>>
!C = memref<?xf32, #usm.placement<"host:cpu:0", device>>
// CHECK-LABEL: gpu.func @colmax_reduce(
// CHECK-NOT: arith.cmpf
// CHECK: arith.maximumf
// CHECK-NOT: arith.cmpf
// CHECK: gpu.return
func.func @colmax(%x: !X, %out: !C) {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%out : !C)
  linalg.generic {indexing_maps = [#in, #out],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : !X) outs(%out : !C) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A reduced loop between parallel ones (`x.sum(axis=1)` of a 3-D array):
// items are (outer index, slice, tile); the tiles run over the inner
// parallel loop, element (po, r, o) of the input is at
// (po * reduced + r) * inner + o and output (po, o) at po * inner + o.
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d2)>
!X = memref<?x?x?xf32, #usm.placement<"host:cpu:0", device>>
!C = memref<?x?xf32, #usm.placement<"host:cpu:0", device>>
// CHECK-LABEL: gpu.func @middle_reduce(
// CHECK-SAME: %[[IN:[a-z0-9]*]]: memref<?xf32, {{[^%]*}}>, %[[OUT:[a-z0-9]*]]: memref<?xf32, {{[^%]*}}>, %[[D0:[a-z0-9]*]]: index, %[[D1:[a-z0-9]*]]: index, %[[D2:[a-z0-9]*]]: index, %{{.*}}: index, %{{.*}}: index) kernel
// CHECK: %[[PO:.*]] = arith.divui %{{.*}}, %[[PER:.*]] : index
// CHECK: %[[BASE:.*]] = arith.muli %[[PO]], %[[D2]] : index
// CHECK: %[[ORIGIN:.*]] = arith.muli %[[PO]], %[[D1]] : index
// CHECK: memref.store %cst, %[[OUT]]
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c4 {
// CHECK: scf.for %[[O:.*]] = %{{.*}} to %{{.*}} step %c1 {
// CHECK-NEXT: %[[OFF:.*]] = arith.addi %[[BASE]], %[[O]] : index
// CHECK-NEXT: memref.load %[[OUT]][%[[OFF]]]
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[ORIGIN]], %[[R]] : index
// CHECK-NEXT: %[[ROWOFF:.*]] = arith.muli %[[ROW]], %[[D2]] : index
// CHECK-NEXT: %[[AT:.*]] = arith.addi %[[ROWOFF]], %[[O]] : index
// CHECK-NEXT: memref.load %[[IN]][%[[AT]]]
// CHECK: gpu.return
func.func @middle(%x: !X, %out: !C) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : !C)
  linalg.generic {indexing_maps = [#in, #out],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : !X) outs(%out : !C) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A row reduction (reduced loop innermost) keeps the per-output kernel
// (no tile argument, no groups of four rows).
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
!X = memref<?x?xf32, #usm.placement<"host:cpu:0", device>>
!C = memref<?xf32, #usm.placement<"host:cpu:0", device>>
// CHECK-LABEL: gpu.func @rowsum_reduce(
// CHECK-SAME: %{{.*}}: memref<?xf32, {{[^%]*}}>, %{{.*}}: memref<?xf32, {{[^%]*}}>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index) kernel
// CHECK-NOT: step %c4
// CHECK: gpu.return
func.func @rowsum(%x: !X, %out: !C) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : !C)
  linalg.generic {indexing_maps = [#in, #out],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : !X) outs(%out : !C) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}
