// RUN: sluice-opt %s -split-input-file -verify-diagnostics

// Complex numbers have no order, no floor division or remainder; the
// element types of complex arrays are complex<f32> and complex<f64>.
!C = !usm.array<4xcomplex<f32>, "host:cpu:0", device>
!B = !usm.array<4xi1, "host:cpu:0", device>
func.func @lt(%a: !C) -> !B {
  // expected-error @+2 {{'usm.lt' op complex numbers have no order ('complex<f32>' elements); compare real parts or absolute values instead}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.lt %a, %a : (!C, !C) -> !B
  return %0 : !B
}

// -----

!C = !usm.array<4xcomplex<f32>, "host:cpu:0", device>
func.func @maximum(%a: !C) -> !C {
  // expected-error @+2 {{'usm.maximum' op complex numbers have no order}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.maximum %a, %a : (!C, !C) -> !C
  return %0 : !C
}

// -----

!C = !usm.array<4xcomplex<f32>, "host:cpu:0", device>
func.func @max(%a: !C) -> !usm.array<complex<f32>, "host:cpu:0", device> {
  // expected-error @+2 {{'usm.max' op complex numbers have no order ('complex<f32>' elements); reduce real parts or absolute values instead}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.max %a : !C -> !usm.array<complex<f32>, "host:cpu:0", device>
  return %0 : !usm.array<complex<f32>, "host:cpu:0", device>
}

// -----

!C = !usm.array<4xcomplex<f64>, "host:cpu:0", device>
func.func @floor_divide(%a: !C) -> !C {
  // expected-error @+2 {{'usm.floor_divide' op is not defined for complex numbers ('complex<f64>' elements)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.floor_divide %a, %a : (!C, !C) -> !C
  return %0 : !C
}

// -----

!I = !usm.array<4xi32, "host:cpu:0", device>
func.func @real_of_int(%a: !I) -> !I {
  // expected-error @+2 {{'usm.real' op requires floating-point or complex elements, got 'i32'; convert with usm.astype}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.real %a : (!I) -> !I
  return %0 : !I
}

// -----

!H = !usm.array<4xf16, "host:cpu:0", device>
func.func @complex_of_f16(%a: !H) -> !H {
  // expected-error @+2 {{'usm.complex' op makes complex numbers of f32 or f64 parts, got 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.complex %a, %a : (!H, !H) -> !H
  return %0 : !H
}

// -----

// expected-error @+1 {{unsupported array element type 'complex<f16>'; expected i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, bf16, f32, f64, complex<f32> or complex<f64>}}
func.func @f16_parts(%a: !usm.array<4xcomplex<f16>, "host:cpu:0", device>) {
  return
}

// -----

!C = !usm.array<4xcomplex<f32>, "host:cpu:0", device>
!F = !usm.array<4xf32, "host:cpu:0", device>
func.func @mixed(%a: !C, %b: !F) -> !C {
  // expected-error @+2 {{'usm.add' op operand element types differ ('complex<f32>' and 'f32' at operand #1); convert one with usm.astype}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.add %a, %b : (!C, !F) -> !C
  return %0 : !C
}

// -----

func.func @arange(%s: complex<f32>) -> !usm.array<4xcomplex<f32>, "host:cpu:0", device> {
  // expected-error @+1 {{'usm.arange' op does not produce complex arrays (NumPy's arange is real-only)}}
  %0 = usm.arange %s, %s : complex<f32> -> !usm.array<4xcomplex<f32>, "host:cpu:0", device>
  return %0 : !usm.array<4xcomplex<f32>, "host:cpu:0", device>
}
