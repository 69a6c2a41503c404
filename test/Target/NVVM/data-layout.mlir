// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels | %python %S/extract-ptx.py | FileCheck %s

// The kernels are translated to LLVM IR with NVPTX's data layout, so 64-bit
// values are 8-byte aligned: a scalar float64 or int64 access is one 64-bit
// access, not two 32-bit halves (as with LLVM's default layout).
!G = !usm.array<?xf64, "cuda:gpu:0", device>
!I = !usm.array<?xi64, "cuda:gpu:0", device>

// CHECK-NOT: {{(ld|st)}}.global.b32
// CHECK: .entry f_map
// CHECK-NOT: {{(ld|st)}}.global.b32
// CHECK: ld.global.b64
// CHECK-NOT: {{(ld|st)}}.global.b32
// CHECK: st.global.b64
// CHECK-NOT: {{(ld|st)}}.global.b32
func.func @f(%a: !G, %b: !G) -> !G {
  %0 = usm.mul %a, %b : (!G, !G) -> !G
  return %0 : !G
}

// (The only 32-bit access of the sum is its reset of the queue's counter
// word, `st.global.b32 [%rd..], 0`, a store of an immediate.)
// CHECK: .entry g_reduce
// CHECK-NOT: {{ld.global.b32|st.global.b32 .*, %}}
func.func @g(%a: !I) -> !usm.array<i64, "cuda:gpu:0", device> {
  %0 = usm.sum %a : !I -> !usm.array<i64, "cuda:gpu:0", device>
  return %0 : !usm.array<i64, "cuda:gpu:0", device>
}
