// RUN: sluice-opt %s -split-input-file -verify-diagnostics

// Element rules of the function table's ops.

!I = !usm.array<4xf32, "gpu:0", device>
func.func @bits_of_float(%a: !I) -> !I {
  // expected-error @+2 {{'usm.bitwise_and' op requires integer or i1 elements, got 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.bitwise_and %a, %a : (!I, !I) -> !I
  return %0 : !I
}

// -----

!I = !usm.array<4xi32, "gpu:0", device>
func.func @tan_of_int(%a: !I) -> !I {
  // expected-error @+2 {{'usm.tan' op requires floating-point elements, got 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.tan %a : (!I) -> !I
  return %0 : !I
}
