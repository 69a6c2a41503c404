// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels | FileCheck %s
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels | %python %S/extract-ptx.py > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// Complex kernels of CUDA queues become PTX, where complex numbers are loaded and
// stored as two-element vectors, the arithmetic is on the parts.
!C = !usm.array<?xcomplex<f32>, "cuda:gpu:0", device>
!F = !usm.array<?xf32, "cuda:gpu:0", device>

// CHECK-LABEL: func.func @f
// CHECK: gpu.binary @sluice_cuda_kernels
// PTX: .entry
// PTX: ld.global.v2.b32
// PTX: st.global.v2.b32
func.func @f(%a: !C, %b: !C) -> (!C, !F, !usm.array<complex<f32>, "cuda:gpu:0", device>) {
  %0 = usm.mul %a, %b : (!C, !C) -> !C
  %1 = usm.exp %0 : (!C) -> !C
  %2 = usm.abs %1 : (!C) -> !F
  %3 = usm.sum %1 : !C -> !usm.array<complex<f32>, "cuda:gpu:0", device>
  return %1, %2, %3 : !C, !F, !usm.array<complex<f32>, "cuda:gpu:0", device>
}
