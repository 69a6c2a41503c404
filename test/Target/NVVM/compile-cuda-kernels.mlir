// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels | FileCheck %s
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels | %python %S/extract-ptx.py > %t.sm90.ptx
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_80 | %python %S/extract-ptx.py > %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.sm90.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.sm80.ptx
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=opt-level=0 | %python %S/extract-ptx.py | FileCheck %s --check-prefix=O0
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=streaming-opt-level=3 | FileCheck %s --check-prefix=ONE
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels > %t.sm90.mlir
// RUN: %python %S/extract-ptx.py --only sluice_cuda_kernels < %t.sm90.mlir > %t.reduce.ptx
// RUN: %python %S/extract-ptx.py --only sluice_cuda_kernels_streaming < %t.sm90.mlir > %t.streaming.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.reduce.ptx -o %t.reduce.cubin %}
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.streaming.ptx -o %t.streaming.cubin %}
// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels=chip=sm_80 > %t.sm80.mlir
// RUN: %python %S/extract-ptx.py --only sluice_cuda_kernels < %t.sm80.mlir > %t.sm80r.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_80 %t.sm80r.ptx -o %t.sm80.cubin %}

// The kernels of CUDA queues become PTX, with math from libdevice, 16-byte
// vector loads and stores, reductions through warp shuffles (and shared
// memory between warps) in one launch; ptxas accepts it for sm_90 and sm_80 where the
// CUDA toolkit is installed.
!G = !usm.array<?xf32, "cuda:gpu:0", device>
!S = !usm.array<f32, "cuda:gpu:0", device>

// Streaming kernels (the map) go to their own module, compiled at LLVM -O0,
// and their launch follows; reductions stay at -O3.
// CHECK: gpu.launch_func @sluice_cuda_kernels_streaming::@f_map
// CHECK: gpu.launch_func @sluice_cuda_kernels::@f_reduce
// CHECK-DAG: gpu.binary @sluice_cuda_kernels_streaming [#gpu.object<#nvvm.target<O = 0, chip = "sm_90", features = "+ptx80">
// CHECK-DAG: gpu.binary @sluice_cuda_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-NOT: gpu.module @sluice_cuda_kernels
// With streaming-opt-level equal to opt-level, one module.
// ONE-NOT: sluice_cuda_kernels_streaming
// ONE: gpu.binary @sluice_cuda_kernels [#gpu.object<#nvvm.target<O = 3,
// ONE-NOT: sluice_cuda_kernels_streaming
// PTX: .target sm_90
// USM memory is global memory (address space 1), so even unoptimised LLVM
// (opt-level=0) gives global vector accesses.
// O0: .entry f_map
// O0: ld.global.v4.b32
// O0: st.global.v4.b32
// PTX: .entry f_map
// PTX: ld.global.v4.b32
// PTX: st.global.v4.b32
// The sum is one launch: its last argument is the queue's counter word (a
// pointer the runtime passes, made global in the kernel); work-item 0 of
// each workgroup fences and takes a ticket, and the workgroup that takes the
// last folds the partials and sets the word back to zero (no combine
// kernel, no counter of the module).
// PTX-NOT: .global .align 4 .b8
// PTX: .entry f_reduce_0
// PTX: .shared
// PTX: ld.global.v4.b32
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync
// PTX: .entry f_reduce_1
// PTX: .param .u64 .ptr .align 1 f_reduce_1_param_17
// PTX: ld.param.b64 [[WORD:%rd[0-9]+]], [f_reduce_1_param_17];
// PTX-NEXT: cvta.to.global.u64 [[CTR:%rd[0-9]+]], [[WORD]];
// PTX: membar.gl;
// PTX-NEXT: atom.global.add.u32 {{%r[0-9]+}}, {{\[}}[[CTR]]{{\]}}, 1;
// PTX: bar.sync
// PTX: membar.gl;
// PTX: shfl.sync.bfly.b32
// PTX: st.global.b32 {{\[}}[[CTR]]{{\]}}, 0;
// PTX-NOT: .entry f_combine
// SM80: .target sm_80
// SM80: shfl.sync.bfly.b32
func.func @f(%a: !G) -> (!G, !S) {
  %e = usm.exp %a : (!G) -> !G
  %s = usm.sum %e : !G -> !S
  return %e, %s : !G, !S
}
