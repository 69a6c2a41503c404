// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-cuda-kernels | %python %S/extract-ptx.py | FileCheck %s

// Negation in CUDA kernels flips the sign bit with an integer xor: PTX's
// neg.f32/neg.f64 do not keep a NaN's sign (NumPy's -nan has it set), and
// the xor is inline PTX so that LLVM cannot fold it back into fneg.
!F = !usm.array<?xf32, "cuda:gpu:0", device>
!D = !usm.array<?xf64, "cuda:gpu:0", device>
!C = !usm.array<?xcomplex<f32>, "cuda:gpu:0", device>

// CHECK-LABEL: .entry neg_f32
// CHECK-NOT: neg.f32
// CHECK: xor.b32 {{.*}}, 0x80000000;
func.func @neg_f32(%a: !F) -> !F {
  %0 = usm.negative %a : (!F) -> !F
  return %0 : !F
}

// CHECK-LABEL: .entry neg_f64
// CHECK-NOT: neg.f64
// CHECK: xor.b64 {{.*}}, 0x8000000000000000;
func.func @neg_f64(%a: !D) -> !D {
  %0 = usm.negative %a : (!D) -> !D
  return %0 : !D
}

// Both parts of a complex negation.
// CHECK-LABEL: .entry neg_c64
// CHECK-NOT: neg.f32
// CHECK: xor.b32 {{.*}}, 0x80000000;
// CHECK: xor.b32 {{.*}}, 0x80000000;
// CHECK-NOT: neg.f32
func.func @neg_c64(%a: !C) -> !C {
  %0 = usm.negative %a : (!C) -> !C
  return %0 : !C
}
