// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-spirv-kernels | FileCheck %s --check-prefix=EMU
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-spirv-kernels=native-f16=true | FileCheck %s --check-prefix=NATIVE
// RUN: %if spirv-dis %{ sluice-opt %s --sluice-lower-to-kernels --sluice-compile-spirv-kernels | %python %S/extract-spirv.py %t.emu.spv %}
// RUN: %if spirv-dis %{ spirv-dis %t.emu.spv | FileCheck %s --check-prefix=EMU-SPV %}
// RUN: %if spirv-dis %{ sluice-opt %s --sluice-lower-to-kernels --sluice-compile-spirv-kernels=native-f16=true | %python %S/extract-spirv.py %t.native.spv %}
// RUN: %if spirv-dis %{ spirv-dis %t.native.spv | FileCheck %s --check-prefix=NATIVE-SPV %}

// f16 kernels for OpenCL devices. By default they need no Float16
// capability (cl_khr_fp16, which PoCL's CPU device lacks): f16 data stays 16
// bits in memory (ushort buffers and arguments) and is computed in float,
// every f16 result rounded to f16 with integer code. With native-f16 they
// compute on half and declare Float16 (validated with SPIRV-Tools'
// universal environment, as its OpenCL one does not grant Float16).
!H = !usm.array<?xf16, "opencl:cpu:0", device>
!S = !usm.array<f16, "opencl:cpu:0", device>

// EMU: gpu.binary @sluice_spirv_kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int8, Int16, Int64, Float64, Groups, Int64Atomics], []>
// NATIVE: gpu.binary @sluice_spirv_kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int8, Int16, Int64, Float64, Groups, Int64Atomics, Float16], []>

// EMU-SPV-NOT: OpCapability Float16
// EMU-SPV: OpCapability Int16
// EMU-SPV-NOT: OpTypeFloat 16
// EMU-SPV: OpFunction
// EMU-SPV: OpLoad %ushort
// EMU-SPV: OpFAdd %float
// EMU-SPV: OpSConvert %ushort
// EMU-SPV: OpStore

// NATIVE-SPV: OpCapability Float16
// NATIVE-SPV: OpTypeFloat 16
// NATIVE-SPV: OpFAdd %half
func.func @f(%a: !H, %b: !H, %s: f16) -> (!H, !S) {
  %x = usm.add %a, %b : (!H, !H) -> !H
  %y = usm.mul %x, %s : (!H, f16) -> !H
  %m = usm.max %y : !H -> !S
  return %y, %m : !H, !S
}
