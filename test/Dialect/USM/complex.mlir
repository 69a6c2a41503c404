// RUN: sluice-opt %s | sluice-opt | FileCheck %s

// Complex arrays: complex<f32> (complex64) and complex<f64> (complex128)
// elements, the ops that take them and what they return.
!C = !usm.array<4xcomplex<f32>, "opencl:cpu:0", device>
!F = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xi1, "opencl:cpu:0", device>
!Z = !usm.array<2x3xcomplex<f64>, "host:cpu:0", host>
!D = !usm.array<2x3xf64, "host:cpu:0", host>

// CHECK-LABEL: func.func @arith
// CHECK: usm.add %{{.*}} : (!usm.array<4xcomplex<f32>, "opencl:cpu:0", device>, !usm.array<4xcomplex<f32>, "opencl:cpu:0", device>) -> !usm.array<4xcomplex<f32>, "opencl:cpu:0", device>
// CHECK: usm.mul %{{.*}} : (!usm.array<4xcomplex<f32>, "opencl:cpu:0", device>, complex<f32>)
// CHECK: usm.abs %{{.*}} -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: usm.eq
// CHECK: usm.where
func.func @arith(%a: !C, %b: !C, %s: complex<f32>, %m: !B) -> (!C, !C, !C, !F, !B, !C) {
  %0 = usm.add %a, %b : (!C, !C) -> !C
  %1 = usm.mul %a, %s : (!C, complex<f32>) -> !C
  %2 = usm.div %a, %b : (!C, !C) -> !C
  %3 = usm.abs %a : (!C) -> !F
  %4 = usm.eq %a, %b : (!C, !C) -> !B
  %5 = usm.where %m, %a, %b : (!B, !C, !C) -> !C
  return %0, %1, %2, %3, %4, %5 : !C, !C, !C, !F, !B, !C
}

// CHECK-LABEL: func.func @math
// CHECK-COUNT-7: -> !usm.array<4xcomplex<f32>, "opencl:cpu:0", device>
func.func @math(%a: !C) -> (!C, !C, !C, !C, !C, !C, !C) {
  %0 = usm.exp %a : (!C) -> !C
  %1 = usm.log %a : (!C) -> !C
  %2 = usm.sqrt %a : (!C) -> !C
  %3 = usm.sin %a : (!C) -> !C
  %4 = usm.cos %a : (!C) -> !C
  %5 = usm.tanh %a : (!C) -> !C
  %6 = usm.pow %a, %a : (!C, !C) -> !C
  return %0, %1, %2, %3, %4, %5, %6 : !C, !C, !C, !C, !C, !C, !C
}

// Every function of the Array API that takes complex numbers keeps them;
// the inspections give i1.
// CHECK-LABEL: func.func @more_math
// CHECK-COUNT-19: -> !usm.array<4xcomplex<f32>, "opencl:cpu:0", device>
// CHECK-COUNT-3: -> !usm.array<4xi1, "opencl:cpu:0", device>
func.func @more_math(%a: !C) {
  %0 = usm.tan %a : (!C) -> !C
  %1 = usm.sinh %a : (!C) -> !C
  %2 = usm.cosh %a : (!C) -> !C
  %3 = usm.asin %a : (!C) -> !C
  %4 = usm.acos %a : (!C) -> !C
  %5 = usm.atan %a : (!C) -> !C
  %6 = usm.asinh %a : (!C) -> !C
  %7 = usm.acosh %a : (!C) -> !C
  %8 = usm.atanh %a : (!C) -> !C
  %9 = usm.exp2 %a : (!C) -> !C
  %10 = usm.expm1 %a : (!C) -> !C
  %11 = usm.log2 %a : (!C) -> !C
  %12 = usm.log10 %a : (!C) -> !C
  %13 = usm.log1p %a : (!C) -> !C
  %14 = usm.rsqrt %a : (!C) -> !C
  %15 = usm.reciprocal %a : (!C) -> !C
  %16 = usm.sign %a : (!C) -> !C
  %17 = usm.rint %a : (!C) -> !C
  %18 = usm.sqrt %a : (!C) -> !C
  %19 = usm.isnan %a : (!C) -> !usm.array<4xi1, "opencl:cpu:0", device>
  %20 = usm.isinf %a : (!C) -> !usm.array<4xi1, "opencl:cpu:0", device>
  %21 = usm.isfinite %a : (!C) -> !usm.array<4xi1, "opencl:cpu:0", device>
  return
}

// CHECK-LABEL: func.func @parts
// CHECK: usm.real %{{.*}} -> !usm.array<2x3xf64, "host:cpu:0", host>
// CHECK: usm.imag %{{.*}} -> !usm.array<2x3xf64, "host:cpu:0", host>
// CHECK: usm.angle %{{.*}} -> !usm.array<2x3xf64, "host:cpu:0", host>
// CHECK: usm.conj %{{.*}} -> !usm.array<2x3xcomplex<f64>, "host:cpu:0", host>
// CHECK: usm.complex %{{.*}} -> !usm.array<2x3xcomplex<f64>, "host:cpu:0", host>
// CHECK: usm.real %{{.*}} : (!usm.array<2x3xf64, "host:cpu:0", host>) -> !usm.array<2x3xf64, "host:cpu:0", host>
func.func @parts(%z: !Z, %d: !D) -> (!D, !D, !D, !Z, !Z, !D) {
  %0 = usm.real %z : (!Z) -> !D
  %1 = usm.imag %z : (!Z) -> !D
  %2 = usm.angle %z : (!Z) -> !D
  %3 = usm.conj %z : (!Z) -> !Z
  %4 = usm.complex %0, %1 : (!D, !D) -> !Z
  %5 = usm.real %d : (!D) -> !D
  return %0, %1, %2, %3, %4, %5 : !D, !D, !D, !Z, !Z, !D
}

// CHECK-LABEL: func.func @shapes_and_reductions
// CHECK: usm.sum %{{.*}} axes [1] : !usm.array<2x3xcomplex<f64>, "host:cpu:0", host> -> !usm.array<2xcomplex<f64>, "host:cpu:0", host>
// CHECK: usm.prod
// CHECK: usm.transpose
// CHECK: usm.astype %{{.*}} to !usm.array<3x2xf64, "host:cpu:0", host>
// CHECK: usm.astype %{{.*}} to !usm.array<2x3xcomplex<f32>, "host:cpu:0", host>
func.func @shapes_and_reductions(%z: !Z, %d: !D) -> (!usm.array<2xcomplex<f64>, "host:cpu:0", host>, !usm.array<complex<f64>, "host:cpu:0", host>, !usm.array<3x2xf64, "host:cpu:0", host>, !usm.array<2x3xcomplex<f32>, "host:cpu:0", host>) {
  %0 = usm.sum %z axes [1] : !Z -> !usm.array<2xcomplex<f64>, "host:cpu:0", host>
  %1 = usm.prod %z : !Z -> !usm.array<complex<f64>, "host:cpu:0", host>
  %2 = usm.transpose %z [1, 0] : !Z -> !usm.array<3x2xcomplex<f64>, "host:cpu:0", host>
  %3 = usm.astype %2 : !usm.array<3x2xcomplex<f64>, "host:cpu:0", host> to !usm.array<3x2xf64, "host:cpu:0", host>
  %4 = usm.astype %d : !D to !usm.array<2x3xcomplex<f32>, "host:cpu:0", host>
  return %0, %1, %3, %4 : !usm.array<2xcomplex<f64>, "host:cpu:0", host>, !usm.array<complex<f64>, "host:cpu:0", host>, !usm.array<3x2xf64, "host:cpu:0", host>, !usm.array<2x3xcomplex<f32>, "host:cpu:0", host>
}

// CHECK-LABEL: func.func @creation
// CHECK: usm.constant dense<(1.000000e+00,2.000000e+00)> : tensor<4xcomplex<f32>>
// CHECK: usm.full
func.func @creation(%s: complex<f32>) -> (!C, !C) {
  %0 = usm.constant dense<(1.0, 2.0)> : tensor<4xcomplex<f32>> -> !C
  %1 = usm.full %s : complex<f32> -> !C
  return %0, %1 : !C, !C
}
