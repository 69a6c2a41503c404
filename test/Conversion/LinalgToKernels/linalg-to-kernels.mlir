// RUN: sluice-opt %s --split-input-file --convert-linalg-to-kernels | FileCheck %s
// RUN: sluice-opt %s --split-input-file --convert-linalg-to-kernels=workgroup-size=64 | FileCheck %s --check-prefix=WG64

#id = affine_map<(d0) -> (d0)>
!H = memref<?xf32, #usm.placement<"host:cpu:0", device>>

// A host elementwise kernel: one launch of up to 256 groups of one work-item
// each, on the op's queue; each group walks a contiguous chunk (a multiple of
// 64 elements) with unit stride.
// CHECK-LABEL: func.func @host_map
// CHECK: %[[G:.*]] = arith.maxui %{{.*}}, %{{.*}} : index
// CHECK: gpu.launch_func @sluice_host_kernels::@host_map_map blocks in (%[[G]], %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%{{.*}} : memref<?xf32, #usm.placement<"host:cpu:0", device>>, %{{.*}} : memref<?xf32, #usm.placement<"host:cpu:0", device>>, %{{.*}} : index) {sluice.queue = #usm.queue<"host:cpu:0">}
// CHECK: gpu.module @sluice_host_kernels
// CHECK: gpu.func @host_map_map(%[[IN:.*]]: memref<?xf32, {{.*}}>, %[[OUT:.*]]: memref<?xf32, {{.*}}>, %[[N:.*]]: index) kernel
// CHECK-DAG: gpu.block_id x
// CHECK-DAG: gpu.grid_dim x
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c1
// CHECK: %[[X:.*]] = memref.load %[[IN]][%[[I]]]
// CHECK: %[[Y:.*]] = math.exp %[[X]]
// CHECK: memref.store %[[Y]], %[[OUT]][%[[I]]]
func.func @host_map(%a: !H, %out: !H) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : !H) outs(%out : !H) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
!C = memref<?xf32, #usm.placement<"opencl:cpu:0", device>>

// A GPU elementwise kernel: work-items stride over the space by the grid.
// CHECK-LABEL: func.func @gpu_map
// CHECK: gpu.launch_func @sluice_spirv_kernels::@gpu_map_map blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%c256{{.*}}, %{{.*}}, %{{.*}})
// CHECK-SAME: {sluice.queue = #usm.queue<"opencl:cpu:0">}
// CHECK: gpu.module @sluice_spirv_kernels
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK-DAG: %[[BID:.*]] = gpu.block_id x
// CHECK-DAG: %[[BDIM:.*]] = gpu.block_dim x
// CHECK-DAG: %[[GDIM:.*]] = gpu.grid_dim x
// CHECK: %[[STEP:.*]] = arith.muli %[[GDIM]], %[[BDIM]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP]]
// WG64-LABEL: func.func @gpu_map
// WG64: threads in (%c64
func.func @gpu_map(%a: !C, %out: !C) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : !C) outs(%out : !C) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return
}

// -----

#in = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
!M = memref<4x?xf32, #usm.placement<"host:cpu:0", device>>
!R = memref<?xf32, #usm.placement<"host:cpu:0", device>>

// Broadcast operands are read through their map. On the host the work is
// rows of the innermost loop: the outer indices are computed once a row
// (here the row is the outer index), and the inner loop reads the identity-mapped operand at
// the flat index and the broadcast one at its own index, with no division.
// CHECK-LABEL: func.func @broadcast
// CHECK: gpu.func @broadcast_map
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK: arith.muli %[[ROW]]
// CHECK: scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: %[[FLAT:.*]] = arith.addi %{{.*}}, %[[COL]]
// CHECK: memref.load %{{.*}}[%[[FLAT]]]
// CHECK: memref.load
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[FLAT]]]
func.func @broadcast(%a: !M, %b: !R, %out: !M) {
  linalg.generic {indexing_maps = [#in, #row, #in], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : !M, !R) outs(%out : !M) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
!M = memref<?x?xf32, #usm.placement<"opencl:cpu:0", device>>
!V = memref<?x?xf32, strided<[?, 0]>, #usm.placement<"opencl:cpu:0", device>>

// A strided view (a stride-0 broadcast) is read from its base buffer at
// offset + sum(i_k * stride_k); the dynamic stride is a kernel argument.
// Contiguous operands keep the flat index.
// CHECK-LABEL: func.func @strided
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf32, {{.*}}>, %[[V:.*]]: memref<?x?xf32, strided<[?, 0]>, {{.*}}>, %[[OUT:.*]]: memref
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[V]]
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<f32, {{.*}}> to memref<?xf32, {{.*}}>
// CHECK: gpu.launch_func @sluice_spirv_kernels::@strided_map {{.*}} args(%{{.*}} : memref<?xf32, {{.*}}>, %[[FLAT]] : memref<?xf32, {{.*}}>, %[[STRIDES]]#0 : index, %{{.*}} : memref<?xf32, {{.*}}>, %{{.*}} : index, %{{.*}} : index)
// CHECK: gpu.func @strided_map(%[[FA:.*]]: memref<?xf32, {{.*}}>, %[[FV:.*]]: memref<?xf32, {{.*}}>, %[[S0:.*]]: index, %[[FO:.*]]: memref<?xf32, {{.*}}>, %{{.*}}: index, %{{.*}}: index) kernel
// CHECK: scf.for %[[I:.*]] =
// CHECK: memref.load %[[FA]][%[[I]]]
// CHECK: arith.divui %[[I]], %{{.*}}
// CHECK: arith.muli %{{.*}}, %[[S0]]
// CHECK: memref.load %[[FV]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[FO]][%[[I]]]
func.func @strided(%a: !M, %v: !V, %out: !M) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %v : !M, !V) outs(%out : !M) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#in = affine_map<(d0) -> (d0)>
#out = affine_map<(d0) -> ()>
!V = memref<?xf32, #usm.placement<"host:cpu:0", device>>
!S = memref<f32, #usm.placement<"host:cpu:0", device>>

// A full reduction of a dynamic size: slices chosen at run time; with one
// slice one kernel stores the output, else partials in a temporary buffer,
// then a combine kernel folds them into the output.
// CHECK-LABEL: func.func @sum_dynamic
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[SLICES:.*]], %{{.*}} : index
// CHECK: scf.if %[[ONE]] {
// CHECK: gpu.launch_func @sluice_host_kernels::@sum_dynamic_reduce blocks
// CHECK: } else {
// CHECK: %[[P:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32, #usm.placement<"host:cpu:0", device>>
// CHECK: gpu.launch_func @sluice_host_kernels::@sum_dynamic_reduce_0
// CHECK-SAME: %[[SLICES]] : index
// CHECK: gpu.launch_func @sluice_host_kernels::@sum_dynamic_combine
// CHECK: memref.dealloc %[[P]]
// CHECK: gpu.func @sum_dynamic_reduce(
// CHECK-NOT: gpu.func
// CHECK: memref.load
// CHECK: scf.for
// CHECK: memref.store
// CHECK: gpu.func @sum_dynamic_reduce_0
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32)
// CHECK: arith.addf %[[ACC]], %{{.*}} fastmath<reassoc> : f32
// CHECK: gpu.func @sum_dynamic_combine
// CHECK: scf.for
// CHECK: arith.addf
func.func @sum_dynamic(%a: !V, %out: !S) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction"]}
      ins(%a : !V) outs(%out : !S) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
!M = memref<100000x8xi32, #usm.placement<"host:cpu:0", device>>
!R = memref<100000xi32, #usm.placement<"host:cpu:0", device>>

// Many outputs with short rows: statically one slice, so one kernel that
// starts from the output's initial value.
// CHECK-LABEL: func.func @rows_max
// CHECK: gpu.launch_func @sluice_host_kernels::@rows_max_reduce
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.func @rows_max_reduce
// CHECK: %[[INIT:.*]] = memref.load
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (i32)
// CHECK: arith.maxsi
func.func @rows_max(%a: !M, %out: !R) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : !M) outs(%out : !R) {
  ^bb0(%x: i32, %acc: i32):
    %m = arith.maxsi %acc, %x : i32
    linalg.yield %m : i32
  }
  return
}

// -----

#in = affine_map<(d0) -> (d0)>
#out = affine_map<(d0) -> ()>
!C = memref<1048576xf32, #usm.placement<"opencl:cpu:0", device>>
!S = memref<f32, #usm.placement<"opencl:cpu:0", device>>

// On SPIR-V targets each work-item reduces whole slices serially (OpenCL CPU
// drivers lack work-group collectives); the partials are then combined.
// CHECK-LABEL: func.func @spirv_sum
// CHECK: gpu.launch_func @sluice_spirv_kernels::@spirv_sum_reduce
// CHECK: gpu.launch_func @sluice_spirv_kernels::@spirv_sum_combine
// CHECK: gpu.func @spirv_sum_reduce
// CHECK-NOT: gpu.barrier
// CHECK: scf.for {{.*}} iter_args
// CHECK: arith.addf
// CHECK: gpu.func @spirv_sum_combine
func.func @spirv_sum(%a: !C, %out: !S) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction"]}
      ins(%a : !C) outs(%out : !S) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// CUDA kernel shapes are tested in cuda-kernels.mlir.

// -----

#p = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#q = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#v = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#o = affine_map<(d0, d1, d2) -> (d0, d1)>
!P = memref<?x1x?xf32, #usm.placement<"host:cpu:0", device>>
!Q = memref<1x?x?xf32, #usm.placement<"host:cpu:0", device>>
!PV = memref<?x?x?xf32, strided<[?, 0, ?]>, #usm.placement<"host:cpu:0", device>>
!QV = memref<?x?x?xf32, strided<[0, ?, ?]>, #usm.placement<"host:cpu:0", device>>
!O = memref<?x?xf32, #usm.placement<"host:cpu:0", device>>

// A fused reduction as convert-usm-to-linalg makes it: the identity fill,
// the broadcast check, then one of two generics. The fill is dropped (both
// reductions store their outputs), and each generic runs in one phase when
// it has one slice per output.
// CHECK-LABEL: func.func @broadcast_sum
// CHECK-NOT: linalg.fill
// CHECK-NOT: @broadcast_sum_map
// CHECK: scf.if %{{.*}} {
// CHECK: scf.if
// CHECK: gpu.launch_func @sluice_host_kernels::@broadcast_sum_reduce blocks
// CHECK: } else {
// CHECK: scf.if
// CHECK: gpu.launch_func @sluice_host_kernels::@broadcast_sum_reduce_1 blocks
// CHECK: gpu.func @broadcast_sum_reduce(
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT: memref.load %arg2
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32)
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %arg2
func.func @broadcast_sum(%p: !P, %q: !Q, %pv: !PV, %qv: !QV, %out: !O, %same: i1) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : !O)
  scf.if %same {
    linalg.generic {indexing_maps = [#p, #q, #o], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%p, %q : !P, !Q) outs(%out : !O) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %d = arith.subf %x, %y : f32
      %s = arith.mulf %d, %d : f32
      %r = arith.addf %acc, %s : f32
      linalg.yield %r : f32
    }
  } else {
    linalg.generic {indexing_maps = [#v, #v, #o], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%pv, %qv : !PV, !QV) outs(%out : !O) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %d = arith.subf %x, %y : f32
      %s = arith.mulf %d, %d : f32
      %r = arith.addf %acc, %s : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

#p = affine_map<(d0, d1) -> (d0, d1)>
#o = affine_map<(d0, d1) -> (d0)>
!X = memref<?x?xf32, #usm.placement<"host:cpu:0", device>>
!XV = memref<?x?xf32, strided<[?, ?]>, #usm.placement<"host:cpu:0", device>>
!O = memref<?xf32, #usm.placement<"host:cpu:0", device>>

// The same when a branch makes its stride-0 views before its generic (the
// softmax's row sum, lowered by FusedLowering.cpp): the fill is dropped.
// CHECK-LABEL: func.func @viewed_sum
// CHECK-NOT: linalg.fill
// CHECK-NOT: @viewed_sum_map
// CHECK: gpu.launch_func @sluice_host_kernels::@viewed_sum_reduce blocks
// CHECK: } else {
// CHECK: memref.reinterpret_cast
// CHECK: gpu.launch_func @sluice_host_kernels::@viewed_sum_reduce_1 blocks
func.func @viewed_sum(%x: !X, %out: !O, %same: i1, %n: index, %m: index, %s: index) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : !O)
  scf.if %same {
    linalg.generic {indexing_maps = [#p, #o], iterator_types = ["parallel", "reduction"]}
        ins(%x : !X) outs(%out : !O) {
    ^bb0(%a: f32, %acc: f32):
      %e = math.exp %a : f32
      %r = arith.addf %acc, %e : f32
      linalg.yield %r : f32
    }
  } else {
    %v = memref.reinterpret_cast %x to offset: [0], sizes: [%n, %m], strides: [%s, 0] : !X to !XV
    linalg.generic {indexing_maps = [#p, #o], iterator_types = ["parallel", "reduction"]}
        ins(%v : !XV) outs(%out : !O) {
    ^bb0(%a: f32, %acc: f32):
      %e = math.exp %a : f32
      %r = arith.addf %acc, %e : f32
      linalg.yield %r : f32
    }
  }
  return
}
