// RUN: sluice-opt %s --sluice-lower-to-kernels | FileCheck %s
// RUN: sluice-opt %s --sluice-lower-to-kernels=workgroup-size=64 | FileCheck %s --check-prefix=WG64

// Each elementwise op becomes one kernel: a gpu.launch_func on the host side
// with workgroups of 256 work-items, and an outlined gpu.module whose kernel
// guards its index against the dynamic bound. The placement stays in the
// memref memory space all the way to the launch.
!X = !usm.array<?xf32, "opencl:cpu:0", device>

// CHECK-LABEL: func.func @axpy
// CHECK-SAME: (%[[A:.*]]: f32, %[[X:.*]]: memref<?xf32, #usm.placement<"opencl:cpu:0", device>>, %[[Y:.*]]: memref<?xf32, #usm.placement<"opencl:cpu:0", device>>)
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32, #usm.placement<"opencl:cpu:0", device>>
// CHECK: gpu.launch_func @[[K1:.*]]::@{{.*}} blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[C256:.*]], %{{.*}}, %{{.*}}) args({{.*}}%[[X]] : memref<?xf32, #usm.placement<"opencl:cpu:0", device>>, %[[A]] : f32, %[[T]] : memref<?xf32, #usm.placement<"opencl:cpu:0", device>>)
// CHECK: %[[R:.*]] = memref.alloc
// CHECK: gpu.launch_func @[[K2:.*]]::@{{.*}} blocks in {{.*}} args({{.*}}%[[T]] : {{.*}}, %[[Y]] : {{.*}}, %[[R]] : {{.*}})
// CHECK: return %[[R]]
// CHECK: gpu.module @[[K1]]
// CHECK: gpu.func @{{.*}} kernel
// CHECK: gpu.block_id x
// CHECK: gpu.thread_id x
// CHECK: arith.cmpi ult
// CHECK: scf.if
// CHECK: arith.mulf
// CHECK: gpu.module @[[K2]]
// CHECK: arith.addf
// WG64: threads in (%c64,
func.func @axpy(%a: f32, %x: !X, %y: !X) -> !X {
  %ax = usm.mul %x, %a : (!X, f32) -> !X
  %r = usm.add %ax, %y : (!X, !X) -> !X
  return %r : !X
}
