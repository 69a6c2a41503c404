// RUN: sluice-opt %s --sluice-lower-to-kernels | FileCheck %s
// RUN: sluice-opt %s --sluice-lower-to-kernels=workgroup-size=64 | FileCheck %s --check-prefix=WG64

// Each elementwise op becomes one kernel: a gpu.launch_func on the op's
// queue and a kernel in the gpu.module of the queue's target family. The
// temporary between the two ops is freed after its last use; the result is
// returned, not freed. The placement stays in the memref memory space all
// the way to the launch. Two dynamic sizes that meet are checked at run
// time (usm.assert), and a second kernel reads stride-0 views when one of
// them is 1 while the other is not.
!X = !usm.array<?xf32, "opencl:cpu:0", device>

// CHECK-LABEL: func.func @axpy
// CHECK-SAME: (%[[A:.*]]: f32, %[[X:.*]]: memref<?xf32, #usm.placement<"opencl:cpu:0", device>>, %[[Y:.*]]: memref<?xf32, #usm.placement<"opencl:cpu:0", device>>)
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32, #usm.placement<"opencl:cpu:0", device>>
// CHECK: gpu.launch_func @sluice_spirv_kernels::@axpy_map blocks in {{.*}} threads in (%c256, {{.*}} args({{.*}}, %[[A]] : f32) {sluice.queue = #usm.queue<"opencl:cpu:0">}
// CHECK: usm.assert %{{.*}}, "usm.add at {{.*}}lower-to-kernels.mlir:{{[0-9]+}}:8: operands could not be broadcast together with shapes ({0},) ({1},)"
// CHECK: %[[R:.*]] = memref.alloc
// CHECK: scf.if
// CHECK: gpu.launch_func @sluice_spirv_kernels::@axpy_map_0
// CHECK: } else {
// CHECK: memref.reinterpret_cast {{.*}} to memref<?xf32, strided<[?]>, #usm.placement<"opencl:cpu:0", device>>
// CHECK: gpu.launch_func @sluice_spirv_kernels::@axpy_map_1
// CHECK: }
// CHECK: memref.dealloc %[[T]]
// CHECK-NOT: memref.dealloc
// CHECK: return %[[R]]
// CHECK: gpu.module @sluice_spirv_kernels
// CHECK: gpu.func @axpy_map({{.*}}) kernel
// CHECK: arith.mulf
// CHECK: gpu.func @axpy_map_0({{.*}}) kernel
// CHECK: arith.addf
// WG64: threads in (%c64,
func.func @axpy(%a: f32, %x: !X, %y: !X) -> !X {
  %ax = usm.mul %x, %a : (!X, f32) -> !X
  %r = usm.add %ax, %y : (!X, !X) -> !X
  return %r : !X
}
