// RUN: sluice-opt %s --usm-expand-contractions=library-calls=false --usm-fuse-elementwise --sluice-lower-to-kernels --sluice-compile-cuda-kernels | FileCheck %s
// RUN: sluice-opt %s --usm-expand-contractions=library-calls=false --usm-fuse-elementwise --sluice-lower-to-kernels --sluice-compile-cuda-kernels | %python %S/extract-ptx.py --only sluice_cuda_kernels > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// A dense layer on a CUDA queue, relu(a @ b + bias): usm.matmul is
// expanded, fused with its epilogue into one reduction kernel, and compiled
// to PTX for sm_90 (no GPU needed here).
!A = !usm.array<64x128xf32, "cuda:gpu:0", device>
!B = !usm.array<128x32xf32, "cuda:gpu:0", device>
!V = !usm.array<32xf32, "cuda:gpu:0", device>
!C = !usm.array<64x32xf32, "cuda:gpu:0", device>
// CHECK-DAG: gpu.launch_func @sluice_cuda_kernels::
// CHECK-DAG: gpu.binary @sluice_cuda_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90"
// CHECK-NOT: usm.matmul
// PTX: .target sm_90
// PTX: .entry
func.func @dense(%a: !A, %b: !B, %bias: !V) -> !C {
  %zero = arith.constant 0.0 : f32
  %c = usm.matmul %a, %b : (!A, !B) -> !C
  %d = usm.add %c, %bias : (!C, !V) -> !C
  %r = usm.maximum %d, %zero : (!C, f32) -> !C
  return %r : !C
}
