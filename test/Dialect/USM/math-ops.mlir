// RUN: sluice-opt %s | sluice-opt | FileCheck %s

// The ops of the function table (USMMathOps.td) round-trip with the
// elementwise syntax, broadcast, and infer their result types by rule.
!F = !usm.array<4x3xf32, "gpu:0", device>
!R = !usm.array<3xf32, "gpu:0", device>
!B = !usm.array<4x3xi1, "gpu:0", device>
!I = !usm.array<4xi32, "gpu:0", device>
!U = !usm.array<4xui8, "gpu:0", device>

// CHECK-LABEL: func.func @float
// CHECK: usm.tan %{{.*}} : (!usm.array<4x3xf32, "*:gpu:0", device>) -> !usm.array<4x3xf32, "*:gpu:0", device>
// CHECK: usm.atan2 %{{.*}}, %{{.*}} : (!usm.array<4x3xf32
// CHECK: usm.isnan
// CHECK: usm.ldexp
// CHECK: usm.frexp_mantissa
func.func @float(%a: !F, %b: !R, %s: f32) -> (!F, !F, !B, !F, !F) {
  %0 = usm.tan %a : (!F) -> !F
  %1 = usm.atan2 %a, %b : (!F, !R) -> !F
  %2 = usm.isnan %a : (!F) -> !B
  %3 = usm.ldexp %a, %s : (!F, f32) -> !F
  %4 = usm.frexp_mantissa %a : (!F) -> !F
  return %0, %1, %2, %3, %4 : !F, !F, !B, !F, !F
}

// CHECK-LABEL: func.func @integer
// CHECK: usm.left_shift
// CHECK: usm.gcd
// CHECK: usm.bitwise_not
// CHECK: usm.right_shift
func.func @integer(%a: !I, %u: !U, %c: ui8) -> (!I, !I, !I, !U) {
  %0 = usm.left_shift %a, %a : (!I, !I) -> !I
  %1 = usm.gcd %a, %a : (!I, !I) -> !I
  %2 = usm.bitwise_not %a : (!I) -> !I
  %3 = usm.right_shift %u, %c : (!U, ui8) -> !U
  return %0, %1, %2, %3 : !I, !I, !I, !U
}
