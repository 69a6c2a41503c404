// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-spirv-kernels | FileCheck %s

// The kernels of OpenCL queues become one validated SPIR-V binary; the host
// kernels and the launches are left alone.
!C = !usm.array<?xf32, "opencl:cpu:0", device>
!H = !usm.array<?xf32, "host:cpu:0", device>

// CHECK-LABEL: func.func @f
// CHECK: gpu.launch_func @sluice_spirv_kernels::@f_map
// CHECK: gpu.launch_func @sluice_host_kernels::@f_map
// CHECK: gpu.module @sluice_host_kernels
// CHECK: gpu.binary @sluice_spirv_kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int8, Int16, Int64, Float64, Groups, Int64Atomics], []>, api=OpenCL, #spirv.resource_limits<>>, bin = "\03\02#\07
// CHECK-NOT: gpu.module @sluice_spirv_kernels
func.func @f(%a: !C, %b: !H) -> (!C, !H) {
  %x = usm.exp %a : (!C) -> !C
  %y = usm.sqrt %b : (!H) -> !H
  return %x, %y : !C, !H
}
