// RUN: sluice-opt %s --convert-usm-to-linalg | FileCheck %s

// Scalar lowering of the function table (MathEmitter.cpp): math ops where
// the math dialect has the function, arith on the bits elsewhere, NumPy's
// integer semantics.
!F = !usm.array<8xf32, "host:cpu:0", device>
!B = !usm.array<8xi1, "host:cpu:0", device>
!I = !usm.array<8xi8, "host:cpu:0", device>
!U = !usm.array<8xui8, "host:cpu:0", device>

// CHECK-LABEL: func.func @transcendental
// CHECK: linalg.generic
// CHECK: math.tan
// CHECK: linalg.generic
// CHECK: math.expm1
// CHECK: linalg.generic
// CHECK: math.atan2
func.func @transcendental(%a: !F) -> (!F, !F, !F) {
  %0 = usm.tan %a : (!F) -> !F
  %1 = usm.expm1 %a : (!F) -> !F
  %2 = usm.atan2 %a, %a : (!F, !F) -> !F
  return %0, %1, %2 : !F, !F, !F
}

// isnan is an unordered self-comparison; signbit reads the sign bit.
// CHECK-LABEL: func.func @inspect
// CHECK: arith.cmpf uno
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.cmpi slt
func.func @inspect(%a: !F) -> (!B, !B) {
  %0 = usm.isnan %a : (!F) -> !B
  %1 = usm.signbit %a : (!F) -> !B
  return %0, %1 : !B, !B
}

// Counts outside [0, 8) shift everything out: a signed right shift by 7
// (the sign), a left shift to 0, an unsigned right shift to 0.
// CHECK-LABEL: func.func @shifts
// CHECK: arith.cmpi ult
// CHECK: arith.shli
// CHECK: arith.select
// CHECK: arith.cmpi ult
// CHECK: arith.constant 7 : i8
// CHECK: arith.shrsi
// CHECK: arith.cmpi ult
// CHECK: arith.shrui
// CHECK: arith.select
func.func @shifts(%a: !I, %u: !U) -> (!I, !I, !U) {
  %0 = usm.left_shift %a, %a : (!I, !I) -> !I
  %1 = usm.right_shift %a, %a : (!I, !I) -> !I
  %2 = usm.right_shift %u, %u : (!U, !U) -> !U
  return %0, %1, %2 : !I, !I, !U
}

// gcd: Euclid's algorithm unrolled on the absolute values (unsigned).
// CHECK-LABEL: func.func @gcd
// CHECK: arith.remui
// CHECK-NOT: arith.remsi
func.func @gcd(%a: !I) -> !I {
  %0 = usm.gcd %a, %a : (!I, !I) -> !I
  return %0 : !I
}
