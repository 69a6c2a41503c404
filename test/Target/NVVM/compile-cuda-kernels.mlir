// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels | FileCheck %s
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels | %python %S/extract-ptx.py > %t.sm90.ptx
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_80 | %python %S/extract-ptx.py > %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.sm90.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.sm80.ptx
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=opt-level=0 | %python %S/extract-ptx.py | FileCheck %s --check-prefix=O0
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas %{ ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}

// The kernels of CUDA queues become PTX, with math from libdevice, 16-byte
// vector loads and stores, reductions through warp shuffles (and shared
// memory between warps); ptxas accepts it for sm_90 and sm_80 where the
// CUDA toolkit is installed.
!G = !usm.array<?xf32, "cuda:gpu:0", device>
!S = !usm.array<f32, "cuda:gpu:0", device>

// CHECK: gpu.binary @sluice_cuda_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-NOT: gpu.module @sluice_cuda_kernels
// PTX: .target sm_90
// Unoptimised LLVM (opt-level=0) leaves the address spaces generic: the
// vector accesses stay, without `.global`.
// O0: .entry f_map
// O0-NOT: ld.global.v4
// O0: ld.v4.b32
// PTX: .entry f_map
// PTX: ld.global.v4.b32
// PTX: st.global.v4.b32
// PTX: .entry f_reduce
// PTX: .shared
// PTX: ld.global.v4.b32
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync
// PTX: .entry f_combine
// PTX: shfl.sync.bfly.b32
// SM80: .target sm_80
// SM80: shfl.sync.bfly.b32
func.func @f(%a: !G) -> (!G, !S) {
  %e = usm.exp %a : (!G) -> !G
  %s = usm.sum %e : !G -> !S
  return %e, %s : !G, !S
}
