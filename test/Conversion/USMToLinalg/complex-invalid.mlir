// RUN: sluice-opt %s --convert-usm-to-linalg -verify-diagnostics

// Products of complex numbers have no lowering yet.
!C = !usm.array<4xcomplex<f32>, "host:cpu:0", device>
func.func @prod(%a: !C) -> !usm.array<complex<f32>, "host:cpu:0", device> {
  // expected-error @+1 {{'usm.prod' op of complex elements is not supported yet}}
  %0 = usm.prod %a : !C -> !usm.array<complex<f32>, "host:cpu:0", device>
  return %0 : !usm.array<complex<f32>, "host:cpu:0", device>
}
