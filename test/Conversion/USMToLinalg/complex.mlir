// RUN: sluice-opt %s --convert-usm-to-linalg --split-input-file | FileCheck %s

// Complex elements: the scalar functions are MLIR's complex dialect on
// memrefs of complex<f32>/complex<f64> (NumPy's interleaved layout).
!C = !usm.array<8xcomplex<f32>, "opencl:cpu:0", device>
!F = !usm.array<8xf32, "opencl:cpu:0", device>

// CHECK-LABEL: func.func @arith
// CHECK-SAME: memref<8xcomplex<f32>, #usm.placement<"opencl:cpu:0", device>>
// CHECK: complex.mul
// exp(x + iy) = e^x (cos y + i sin y), with C99's infinities and NaNs.
// CHECK: math.exp
// CHECK: math.cos
// CHECK: math.sin
// CHECK: complex.create
// CHECK: complex.abs
// CHECK: complex.re
// CHECK: complex.im
// CHECK: math.atan2
func.func @arith(%a: !C, %b: !C, %f: !F) -> (!C, !F, !F, !F, !F) {
  %0 = usm.mul %a, %b : (!C, !C) -> !C
  %1 = usm.exp %0 : (!C) -> !C
  %2 = usm.abs %1 : (!C) -> !F
  %3 = usm.real %1 : (!C) -> !F
  %4 = usm.imag %1 : (!C) -> !F
  %5 = usm.angle %f : (!F) -> !F
  return %1, %2, %3, %4, %5 : !C, !F, !F, !F, !F
}

// -----

// astype: real to complex has a +0 imaginary part; complex to real drops
// the imaginary part; complex to bool is `!= 0`.
!C = !usm.array<8xcomplex<f64>, "host:cpu:0", device>
!F = !usm.array<8xf32, "host:cpu:0", device>
!B = !usm.array<8xi1, "host:cpu:0", device>
// CHECK-LABEL: func.func @astype
// CHECK: arith.extf
// CHECK: complex.create
// CHECK: complex.re
// CHECK: arith.truncf
// CHECK: arith.cmpf une
// CHECK: arith.ori
func.func @astype(%f: !F, %z: !C) -> (!C, !F, !B) {
  %0 = usm.astype %f : !F to !C
  %1 = usm.astype %z : !C to !F
  %2 = usm.astype %z : !C to !B
  return %0, %1, %2 : !C, !F, !B
}

// -----

// A sum of complex numbers is the complex number of the sums of the parts
// (float reductions on every backend).
!C = !usm.array<4x8xcomplex<f32>, "host:cpu:0", device>
// CHECK-LABEL: func.func @sum
// CHECK: complex.re
// CHECK: complex.im
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: complex.create
func.func @sum(%a: !C) -> !usm.array<4xcomplex<f32>, "host:cpu:0", device> {
  %0 = usm.sum %a axes [1] : !C -> !usm.array<4xcomplex<f32>, "host:cpu:0", device>
  return %0 : !usm.array<4xcomplex<f32>, "host:cpu:0", device>
}

// -----

// Constants: a splat fills with a complex.constant; other constants are
// usm.complex of their real and imaginary parts.
!C = !usm.array<2xcomplex<f32>, "host:cpu:0", device>
// CHECK-DAG: memref.global{{.*}}dense<[1.000000e+00, 3.000000e+00]>
// CHECK-DAG: memref.global{{.*}}dense<[2.000000e+00, 4.000000e+00]>
// CHECK-LABEL: func.func @constants
// CHECK: complex.constant [1.000000e+00 : f32, -2.000000e+00 : f32] : complex<f32>
// CHECK: linalg.fill
// CHECK: complex.create
func.func @constants() -> (!C, !C) {
  %0 = usm.constant dense<(1.0, -2.0)> : tensor<2xcomplex<f32>> -> !C
  %1 = usm.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>> -> !C
  return %0, %1 : !C, !C
}

// -----

// The Array API's functions on complex numbers: rotations of sin/cos and
// of the inverse hyperbolic functions, inspections of the parts (i1
// results), Smith's reciprocal, the parts rounded.
!C = !usm.array<8xcomplex<f64>, "host:cpu:0", device>
!B = !usm.array<8xi1, "host:cpu:0", device>
// CHECK-LABEL: func.func @functions
// CHECK: linalg.generic
// sinh(z) = -i sin(iz)
// CHECK: arith.negf
// CHECK: math.sin
// CHECK: math.cosh
// CHECK: math.sinh
// CHECK: linalg.generic
// asin(z) = -i asinh(iz), Hull-Fairgrieve-Tang in the first quadrant:
// the distances to +-1 (scaled hypot), log1p of A - 1 near the real axis,
// asin of B or atan2 near B = 1, the signs of z's parts given back
// CHECK: math.absf
// CHECK: math.sqrt
// CHECK: math.log1p
// CHECK: math.atan2
// CHECK: math.asin
// CHECK: math.copysign
// CHECK: linalg.generic
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf uno
// CHECK: arith.ori
// CHECK: linalg.generic
// CHECK-NOT: complex.div
// CHECK: arith.divf
// CHECK: linalg.generic
// CHECK: math.roundeven
// CHECK: math.roundeven
func.func @functions(%a: !C) -> (!C, !C, !B, !C, !C) {
  %0 = usm.sinh %a : (!C) -> !C
  %1 = usm.asin %a : (!C) -> !C
  %2 = usm.isnan %a : (!C) -> !B
  %3 = usm.reciprocal %a : (!C) -> !C
  %4 = usm.rint %a : (!C) -> !C
  return %0, %1, %2, %3, %4 : !C, !C, !B, !C, !C
}
