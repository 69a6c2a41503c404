// RUN: sluice-opt %s --split-input-file --convert-host-to-runtime | FileCheck %s

// Launch arguments live in slots of the function's entry block, shared by
// every launch (sized for the largest): no stacksave/stackrestore and no
// allocation in the loop's body. A module without host kernels is marked
// as launch code only (compiled without optimisation).
!C = memref<?xf32, #usm.placement<"cuda:gpu:0", device>>
// CHECK: module attributes {sluice.launch_code_only}
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func internal @two(
  // CHECK-NEXT: %[[B0:.*]] = llvm.mlir.constant(48 : i64) : i64
  // CHECK-NEXT: %[[S0:.*]] = llvm.alloca %[[B0]] x i8 {alignment = 16 : i64}
  // CHECK-NEXT: %[[B1:.*]] = llvm.mlir.constant(48 : i64) : i64
  // CHECK-NEXT: %[[S1:.*]] = llvm.alloca %[[B1]] x i8 {alignment = 8 : i64}
  // CHECK-NEXT: %[[B2:.*]] = llvm.mlir.constant(48 : i64) : i64
  // CHECK-NEXT: %[[S2:.*]] = llvm.alloca %[[B2]] x i8 {alignment = 8 : i64}
  // CHECK-NOT: llvm.alloca
  // CHECK-NOT: llvm.intr.stacksave
  // CHECK: llvm.cond_br
  // CHECK: llvm.getelementptr %[[S0]][0, 0]
  // CHECK: llvm.call @sluiceProgramLaunch(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[S1]], %[[S2]])
  // CHECK: llvm.getelementptr %[[S0]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64)>
  // CHECK: llvm.call @sluiceProgramLaunch(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[S1]], %[[S2]])
  // CHECK-NOT: llvm.intr.stackrestore
  // CHECK: llvm.return
  func.func @two(%a: !C, %n: index) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @sluice_cuda_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : !C, %n : index) {sluice.queue = #usm.queue<"cuda:gpu:0">}
    }
    gpu.launch_func @sluice_cuda_kernels::@k2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index) {sluice.queue = #usm.queue<"cuda:gpu:0">}
    return
  }
  gpu.binary @sluice_cuda_kernels [#gpu.object<#nvvm.target, "ptx">]
}

// -----

// Host kernels keep the host code optimised: no marker.
!H = memref<?xf32, #usm.placement<"host:cpu:0", device>>
// CHECK-LABEL: module {
// CHECK-NOT: sluice.launch_code_only
module attributes {gpu.container_module} {
  func.func @h(%a: !H) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @sluice_host_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : !H) {sluice.queue = #usm.queue<"host:cpu:0">}
    return
  }
  gpu.module @sluice_host_kernels {
    gpu.func @k(%in: !H) kernel {
      gpu.return
    }
  }
}

// -----

// The operand that `sluice.launch_counter` names (a placeholder) gets the
// queue's counter word from the runtime (a CUDA reduction to one output).
// CHECK: module attributes {sluice.launch_code_only}
// CHECK-LABEL: llvm.func internal @counted(
// CHECK: %[[Q:.*]] = llvm.call @sluiceProgramQueue(
// CHECK: %[[W:.*]] = llvm.call @sluiceProgramLaunchCounter(%[[Q]]) : (!llvm.ptr) -> !llvm.ptr
// CHECK: %[[F:.*]] = llvm.getelementptr %{{.*}}[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, ptr)>
// CHECK-NEXT: llvm.store %[[W]], %[[F]] : !llvm.ptr, !llvm.ptr
// CHECK: llvm.call @sluiceProgramLaunch(%[[Q]],
module attributes {gpu.container_module} {
  func.func @counted(%n: index) {
    %c1 = arith.constant 1 : index
    %z = llvm.mlir.zero : !llvm.ptr
    gpu.launch_func @sluice_cuda_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index, %z : !llvm.ptr) {sluice.launch_counter = 1 : i64, sluice.queue = #usm.queue<"cuda:gpu:0">}
    return
  }
  gpu.binary @sluice_cuda_kernels [#gpu.object<#nvvm.target, "ptx">]
}
