// RUN: sluice-opt %s --sluice-lower-to-kernels | FileCheck %s --check-prefix=KERNELS
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-spirv-kernels | FileCheck %s

// Complex kernels of OpenCL queues: memrefs of vector<2xf32> (NumPy's
// layout), float arithmetic on the parts, one validated SPIR-V binary.
!C = !usm.array<?xcomplex<f32>, "opencl:cpu:0", device>
!D = !usm.array<?xcomplex<f64>, "opencl:cpu:0", device>
!F = !usm.array<?xf32, "opencl:cpu:0", device>

// KERNELS-LABEL: func.func @f
// KERNELS-SAME: memref<?xvector<2xf32>, #usm.placement<"opencl:cpu:0", device>>
// KERNELS: gpu.module @sluice_spirv_kernels
// KERNELS-NOT: complex<
// CHECK-LABEL: func.func @f
// CHECK: gpu.binary @sluice_spirv_kernels
// CHECK-NOT: gpu.module @sluice_spirv_kernels
func.func @f(%a: !C, %b: !C, %d: !D) -> (!C, !F, !usm.array<complex<f32>, "opencl:cpu:0", device>, !D) {
  %0 = usm.mul %a, %b : (!C, !C) -> !C
  %1 = usm.exp %0 : (!C) -> !C
  %2 = usm.div %1, %b : (!C, !C) -> !C
  %3 = usm.abs %2 : (!C) -> !F
  %4 = usm.sum %2 : !C -> !usm.array<complex<f32>, "opencl:cpu:0", device>
  %5 = usm.sqrt %d : (!D) -> !D
  %6 = usm.log %5 : (!D) -> !D
  return %2, %3, %4, %6 : !C, !F, !usm.array<complex<f32>, "opencl:cpu:0", device>, !D
}
