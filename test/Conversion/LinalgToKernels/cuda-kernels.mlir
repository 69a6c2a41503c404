// RUN: sluice-opt %s --split-input-file --convert-linalg-to-kernels --canonicalize --cse | FileCheck %s

// The kernel shapes of CUDA queues (CudaKernelBodies.cpp): vector accesses
// guarded by a run-time alignment check, reductions through warp shuffles,
// a workgroup per output in the final combine (or, for one output, the
// last workgroup of the reduction itself), and no fill kernel for outputs
// that start as the combiner's identity.

#id = affine_map<(d0) -> (d0)>
!V = memref<?xf32, #usm.placement<"cuda:gpu:0", device>>

// Every buffer at the flat index: 16-byte loads and stores while all
// addresses are aligned, one payload per lane, a scalar loop for the rest;
// a vector per work-item sizes the grid.
// CHECK-LABEL: func.func @cuda_axpy
// CHECK: %[[G:.*]] = arith.ceildivui %{{.*}}, %c1024
// CHECK: gpu.launch_func @sluice_cuda_kernels::@cuda_axpy_map
// CHECK: gpu.func @cuda_axpy_map(%[[A:.*]]: memref<?xf32, {{.*}}>, %[[B:.*]]: memref<?xf32, {{.*}}>, %[[O:.*]]: memref<?xf32, {{.*}}>, %[[N:.*]]: index) kernel
// CHECK: %[[NV:.*]] = arith.divui %[[N]], %c4
// CHECK: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: arith.remui %{{.*}}, %c16
// CHECK: memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: memref.extract_aligned_pointer_as_index %[[O]]
// CHECK: %[[VECS:.*]] = arith.select %{{.*}}, %[[NV]], %c0
// CHECK: scf.for %[[V:.*]] = %{{.*}} to %[[VECS]]
// CHECK: %[[BASE:.*]] = arith.muli %[[V]], %c4
// CHECK: %[[VA:.*]] = vector.load %[[A]][%[[BASE]]] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// CHECK: %[[VB:.*]] = vector.load %[[B]][%[[BASE]]] {alignment = 16 : i64}
// CHECK-COUNT-4: vector.extract %[[VA]]
// CHECK: %[[R:.*]] = vector.from_elements
// CHECK: vector.store %[[R]], %[[O]][%[[BASE]]] {alignment = 16 : i64}
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK: memref.load %[[A]][%[[I]]]
// CHECK: memref.store %{{.*}}, %[[O]][%[[I]]]
func.func @cuda_axpy(%a: !V, %b: !V, %o: !V) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : !V, !V) outs(%o : !V) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A broadcast input is not at the flat index: no vector accesses.
// CHECK-LABEL: func.func @cuda_broadcast
// CHECK: %[[G:.*]] = arith.ceildivui %{{.*}}, %c256
// CHECK: gpu.func @cuda_broadcast_map
// CHECK-NOT: vector.
// CHECK: gpu.return
#bc = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
!M = memref<?x?xf32, #usm.placement<"cuda:gpu:0", device>>
!R = memref<?xf32, #usm.placement<"cuda:gpu:0", device>>
func.func @cuda_broadcast(%a: !M, %b: !R, %o: !M) {
  linalg.generic {indexing_maps = [#id2, #bc, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : !M, !R) outs(%o : !M) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// sum: its output's fill with 0.0 is dropped (no _map kernel) and the
// result stored. One launch: a workgroup per slice of the row, four vector
// loads per step with an accumulator per lane, then the vectors left one
// per step; shuffles within warps, one value per warp through workgroup
// memory, shuffles again. Work-item 0 stores the partial, fences and takes
// a ticket from the queue's counter word (an !llvm.ptr argument the host
// code fills in: `sluice.launch_counter` names its operand, a placeholder);
// the workgroup that takes the last (flag through workgroup memory) folds
// the partials in a fixed order, stores the output and sets the word back
// to zero.
// CHECK-LABEL: func.func @cuda_sum
// CHECK-NOT: linalg.fill
// CHECK-NOT: @cuda_sum_map
// CHECK: %[[WORD:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[PART:.*]] = memref.alloc() {alignment = 64 : i64} : memref<512xf32
// CHECK: gpu.launch_func @sluice_cuda_kernels::@cuda_sum_reduce blocks in (%c512, %c1, %c1) threads in (%c256, %c1, %c1) args({{.*}}, %[[WORD]] : !llvm.ptr) {sluice.launch_counter = 4 : i64, sluice.queue = #usm.queue<"cuda:gpu:0">}
// CHECK-NOT: gpu.launch_func
// CHECK: memref.dealloc %[[PART]]
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.module @sluice_cuda_kernels
// CHECK-NOT: memref.global
// CHECK: gpu.func @cuda_sum_reduce({{.*}}, %[[SLICES:.*]]: index, %[[P:.*]]: memref<?xf32, {{.*}}>, %[[CTR:.*]]: !llvm.ptr) workgroup(%[[SCRATCH:.*]] : memref<256xf32, #gpu.address_space<workgroup>>, %[[FLAG:.*]] : memref<1xi32, #gpu.address_space<workgroup>>) kernel
// CHECK: scf.for
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-4: vector.load {{.*}} {alignment = 16 : i64}
// CHECK-COUNT-16: arith.addf
// CHECK: scf.yield
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32)
// CHECK: vector.load {{.*}} {alignment = 16 : i64}
// CHECK-COUNT-4: arith.addf
// CHECK: scf.yield
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: memref.store %{{.*}}, %[[SCRATCH]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[SCRATCH]]
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[P]]
// CHECK: %[[T:.*]] = llvm.addrspacecast %[[CTR]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: scf.if
// CHECK-NEXT: nvvm.memory.barrier <gpu>
// CHECK-NEXT: %[[OLD:.*]] = llvm.atomicrmw add %[[T]], %c1_i32 monotonic : !llvm.ptr<1>, i32
// CHECK-NEXT: %[[OLDI:.*]] = arith.index_castui %[[OLD]]
// CHECK-NEXT: %[[LASTITEM:.*]] = arith.subi %[[SLICES]], %c1
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[OLDI]], %[[LASTITEM]]
// CHECK-NEXT: %[[LASTI:.*]] = arith.extui %[[LAST]]
// CHECK-NEXT: memref.store %[[LASTI]], %[[FLAG]][%c0]
// CHECK: gpu.barrier
// CHECK: %[[F:.*]] = memref.load %[[FLAG]][%c0]
// CHECK: %[[ISLAST:.*]] = arith.cmpi ne, %[[F]], %c0_i32
// CHECK: scf.if %[[ISLAST]]
// CHECK-NEXT: nvvm.memory.barrier <gpu>
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %[[SLICES]] step %{{.*}} iter_args
// CHECK: memref.load %[[P]][%[[S]]]
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.barrier
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: scf.if
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: llvm.store %c0_i32, %[[T]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: gpu.return
// CHECK-NOT: gpu.func @cuda_sum_combine
#in = affine_map<(d0) -> (d0)>
#out = affine_map<(d0) -> ()>
!G = memref<1048576xf32, #usm.placement<"cuda:gpu:0", device>>
!S = memref<f32, #usm.placement<"cuda:gpu:0", device>>
func.func @cuda_sum(%a: !G, %out: !S) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : !S)
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction"]}
      ins(%a : !G) outs(%out : !S) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Reduced loops outside the parallel ones: work-items reduce serially,
// neighbouring work-items taking neighbouring outputs (item % outputs). A
// fill that is not the identity stays and is folded in. With dynamic
// sizes, one slice per output (chosen when the program runs) needs no
// partials and no combine.
// CHECK-LABEL: func.func @cuda_column_sum
// CHECK: gpu.launch_func @sluice_cuda_kernels::@cuda_column_sum_map
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %{{.*}}, %c1 : index
// CHECK: scf.if %[[ONE]] {
// CHECK: gpu.launch_func @sluice_cuda_kernels::@cuda_column_sum_reduce blocks
// CHECK-NEXT: } else {
// CHECK: gpu.launch_func @sluice_cuda_kernels::@cuda_column_sum_reduce_0
// CHECK: gpu.launch_func @sluice_cuda_kernels::@cuda_column_sum_combine
// CHECK: gpu.func @cuda_column_sum_reduce(
// CHECK-NOT: gpu.func
// CHECK: memref.load
// CHECK: arith.addf
// CHECK: memref.store
// CHECK: gpu.func @cuda_column_sum_reduce_0(%{{.*}}, %{{.*}}, %[[S:.*]]: index, %[[P:.*]]: index, %{{.*}}: index, %[[PART:.*]]: memref<?xf64
// CHECK-NOT: gpu.shuffle
// CHECK: arith.remui %{{.*}}, %[[P]]
// CHECK: arith.divui %{{.*}}, %[[P]]
// CHECK: memref.store %{{.*}}, %[[PART]]
// CHECK: gpu.func @cuda_column_sum_combine
// CHECK: memref.load
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f64
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.load
// CHECK: arith.addf
// CHECK: memref.store
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
!C = memref<?x?xf64, #usm.placement<"cuda:gpu:0", device>>
!O = memref<?xf64, #usm.placement<"cuda:gpu:0", device>>
func.func @cuda_column_sum(%a: !C, %out: !O) {
  %one = arith.constant 1.0 : f64
  linalg.fill ins(%one : f64) outs(%out : !O)
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%a : !C) outs(%out : !O) {
  ^bb0(%x: f64, %acc: f64):
    %s = arith.addf %acc, %x : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// f16 values do not go through shuffles: a tree in workgroup memory.
// CHECK-LABEL: func.func @cuda_row_max_f16
// CHECK: gpu.func @cuda_row_max_f16_reduce
// CHECK: vector.load {{.*}} {alignment = 8 : i64} : {{.*}}, vector<4xf16>
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.barrier
// CHECK: arith.maximumf
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
!C = memref<64x128xf16, #usm.placement<"cuda:gpu:0", device>>
!O = memref<64xf16, #usm.placement<"cuda:gpu:0", device>>
func.func @cuda_row_max_f16(%a: !C, %out: !O) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : !C) outs(%out : !O) {
  ^bb0(%x: f16, %acc: f16):
    %s = arith.maximumf %acc, %x : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// Rows of a length known only at run time: rows shorter than 64 elements
// take a work-item each (no workgroup tree), longer ones a workgroup.
// CHECK-LABEL: func.func @cuda_dynamic_rows
// CHECK: %[[SHORT:.*]] = arith.cmpi ult, %{{.*}}, %c64 : index
// CHECK: scf.if %[[SHORT]] {
// CHECK: gpu.launch_func @sluice_cuda_kernels::@cuda_dynamic_rows_reduce blocks
// CHECK: } else {
// CHECK: gpu.launch_func @sluice_cuda_kernels::@cuda_dynamic_rows_reduce_{{[0-9]+}} blocks
// CHECK: gpu.func @cuda_dynamic_rows_reduce(
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// CHECK: gpu.func @cuda_dynamic_rows_reduce_
// CHECK: gpu.shuffle
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
!C = memref<?x?xf32, #usm.placement<"cuda:gpu:0", device>>
!O = memref<?xf32, #usm.placement<"cuda:gpu:0", device>>
func.func @cuda_dynamic_rows(%a: !C, %out: !O) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : !O)
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : !C) outs(%out : !O) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}
