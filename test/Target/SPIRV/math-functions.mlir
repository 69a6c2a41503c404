// RUN: sluice-opt %s --sluice-lower-to-kernels --sluice-compile-spirv-kernels | FileCheck %s

// Every function of the table compiles to validated SPIR-V for OpenCL and
// Level Zero: the math ops OpenCL.std lacks or convert-math-to-spirv lowers
// inaccurately are expanded first (ExpandMathForOpenCL.cpp).
!C = !usm.array<?xf32, "opencl:cpu:0", device>
!D = !usm.array<?xf64, "opencl:cpu:0", device>
!B = !usm.array<?xi1, "opencl:cpu:0", device>
!I = !usm.array<?xi32, "opencl:cpu:0", device>

// CHECK: gpu.binary @sluice_spirv_kernels
// CHECK-NOT: gpu.module @sluice_spirv_kernels
func.func @f(%a: !C, %b: !C, %d: !D, %i: !I) -> (!C, !C, !C, !C, !C, !C, !C, !C, !C, !C, !C, !C, !D, !D, !B, !C, !C, !C, !I, !I, !I, !C, !C, !D, !D) {
  %0 = usm.exp2 %a : (!C) -> !C
  %1 = usm.expm1 %a : (!C) -> !C
  %2 = usm.log1p %a : (!C) -> !C
  %3 = usm.log2 %a : (!C) -> !C
  %4 = usm.log10 %a : (!C) -> !C
  %5 = usm.cbrt %a : (!C) -> !C
  %6 = usm.erfc %a : (!C) -> !C
  %7 = usm.trunc %a : (!C) -> !C
  %8 = usm.tan %a : (!C) -> !C
  %9 = usm.asinh %a : (!C) -> !C
  %10 = usm.hypot %a, %b : (!C, !C) -> !C
  %11 = usm.logaddexp %a, %b : (!C, !C) -> !C
  %12 = usm.nextafter %d, %d : (!D, !D) -> !D
  %13 = usm.ldexp %d, %d : (!D, !D) -> !D
  %14 = usm.isfinite %a : (!C) -> !B
  %15 = usm.frexp_mantissa %a : (!C) -> !C
  %16 = usm.spacing %a : (!C) -> !C
  %17 = usm.fmax %a, %b : (!C, !C) -> !C
  %18 = usm.gcd %i, %i : (!I, !I) -> !I
  %19 = usm.right_shift %i, %i : (!I, !I) -> !I
  %20 = usm.fmod %i, %i : (!I, !I) -> !I
  %21 = usm.erf %a : (!C) -> !C
  %22 = usm.logaddexp2 %a, %b : (!C, !C) -> !C
  %23 = usm.frexp_exponent %d : (!D) -> !D
  %24 = usm.erfc %d : (!D) -> !D
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24 : !C, !C, !C, !C, !C, !C, !C, !C, !C, !C, !C, !C, !D, !D, !B, !C, !C, !C, !I, !I, !I, !C, !C, !D, !D
}
