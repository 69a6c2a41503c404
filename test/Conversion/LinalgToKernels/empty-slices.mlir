// RUN: sluice-opt %s --convert-linalg-to-kernels | FileCheck %s

// A work-item of a SPIR-V (or CUDA) reduction kernel whose slice is empty
// (an empty reduced extent, or a slice past the end of the reduced range)
// runs its loop no time (here the two-phase kernel). SPIR-V's lowering of scf.for leaves the loop's
// result undefined then (PoCL returned another work-item's partial: a sum of
// 4194369 ones gave 4197444), so the kernel takes the initial value itself
// when the loop does not run.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
!V = memref<?x4xi32, #usm.placement<"opencl:cpu:0", device>>
!R = memref<4xi32, #usm.placement<"opencl:cpu:0", device>>

// CHECK-LABEL: func.func @sum_columns
// CHECK: gpu.func @sum_columns_reduce_0
// CHECK: scf.for
// CHECK: %[[LO:.*]] = arith.minui
// CHECK: %[[HI:.*]] = arith.minui
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} = %[[LO]] to %[[HI]] step %{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (i32)
// CHECK: %[[RAN:.*]] = arith.cmpi ult, %[[LO]], %[[HI]] : index
// CHECK: %[[PARTIAL:.*]] = arith.select %[[RAN]], %[[ACC]], %[[ZERO]] : i32
// CHECK: memref.store %[[PARTIAL]]
func.func @sum_columns(%a: !V, %out: !R) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%a : !V) outs(%out : !R) {
  ^bb0(%x: i32, %acc: i32):
    %s = arith.addi %acc, %x : i32
    linalg.yield %s : i32
  }
  return
}
