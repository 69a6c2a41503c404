// RUN: sluice-opt %s -canonicalize -split-input-file | FileCheck %s

!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "host:cpu:0", shared>
!C = !usm.array<4xf32, "opencl:cpu:0", host>

// CHECK-LABEL: func.func @to_device_same_placement
// CHECK-SAME: (%[[A:.*]]: !usm.array
// CHECK-NOT: usm.to_device
// CHECK: return %[[A]]
func.func @to_device_same_placement(%a: !A) -> !A {
  %b = usm.to_device %a : !A -> !A
  return %b : !A
}

// -----

!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "host:cpu:0", shared>
!C = !usm.array<4xf32, "opencl:cpu:0", host>

// A chain of migrations collapses into one from the first placement.
// CHECK-LABEL: func.func @to_device_chain
// CHECK-SAME: (%[[A:.*]]: !usm.array
// CHECK: %[[R:.*]] = usm.to_device %[[A]] : !usm.array<4xf32, "opencl:cpu:0", device> -> !usm.array<4xf32, "opencl:cpu:0", host>
// CHECK-NOT: usm.to_device
// CHECK: return %[[R]]
func.func @to_device_chain(%a: !A) -> !C {
  %b = usm.to_device %a : !A -> !B
  %c = usm.to_device %b : !B -> !C
  return %c : !C
}

// -----

!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "host:cpu:0", shared>

// There and back again is no migration at all.
// CHECK-LABEL: func.func @to_device_round_trip
// CHECK-SAME: (%[[A:.*]]: !usm.array
// CHECK-NOT: usm.to_device
// CHECK: return %[[A]]
func.func @to_device_round_trip(%a: !A) -> !A {
  %b = usm.to_device %a : !A -> !B
  %c = usm.to_device %b : !B -> !A
  return %c : !A
}

// -----

!A = !usm.array<4xf32, "opencl:cpu:0", device>

// CHECK-LABEL: func.func @fold_constants
// CHECK: %[[C:.*]] = usm.constant dense<[5.000000e+00, 7.000000e+00, 9.000000e+00, 1.100000e+01]> : tensor<4xf32> -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK-NEXT: return %[[C]]
func.func @fold_constants() -> !A {
  %a = usm.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> -> !A
  %b = usm.constant dense<[4.0, 5.0, 6.0, 7.0]> : tensor<4xf32> -> !A
  %c = usm.add %a, %b : (!A, !A) -> !A
  return %c : !A
}

// -----

!A = !usm.array<4xf32, "opencl:cpu:0", device>

// A scalar constant and a fill of a constant fold too.
// CHECK-LABEL: func.func @fold_scalar_and_full
// CHECK: %[[C:.*]] = usm.constant dense<[-3.000000e+00, -5.000000e+00, -7.000000e+00, -9.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @fold_scalar_and_full() -> !A {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %a = usm.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> -> !A
  %f = usm.full %one : f32 -> !A
  %m = usm.mul %a, %two : (!A, f32) -> !A
  %s = usm.add %m, %f : (!A, !A) -> !A
  %n = usm.negative %s : (!A) -> !A
  return %n : !A
}

// -----

!I = !usm.array<3xui8, "host", host>

// Unsigned maximum compares as unsigned.
// CHECK-LABEL: func.func @fold_unsigned_max
// CHECK: usm.constant dense<[200, 7, 9]> : tensor<3xui8>
func.func @fold_unsigned_max() -> !I {
  %a = usm.constant dense<[200, 3, 9]> : tensor<3xui8> -> !I
  %b = usm.constant dense<[100, 7, 1]> : tensor<3xui8> -> !I
  %c = usm.maximum %a, %b : (!I, !I) -> !I
  return %c : !I
}

// -----

!A = !usm.array<4xf32, "opencl:cpu:0", device>
!R = !usm.array<4x1xf32, "opencl:cpu:0", device>

// Broadcasting constants are not folded (no broadcast in the folder), and
// non-constant operands are left alone.
// CHECK-LABEL: func.func @no_fold
// CHECK: usm.add
// CHECK: usm.sub
func.func @no_fold(%x: !A) -> (!usm.array<4x4xf32, "opencl:cpu:0", device>, !A) {
  %a = usm.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> -> !A
  %b = usm.constant dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32> -> !R
  %c = usm.add %a, %b : (!A, !R) -> !usm.array<4x4xf32, "opencl:cpu:0", device>
  %d = usm.sub %x, %a : (!A, !A) -> !A
  return %c, %d : !usm.array<4x4xf32, "opencl:cpu:0", device>, !A
}

// -----

!A = !usm.array<2x3xf32, "gpu", device>

// CHECK-LABEL: func.func @shape_noops
// CHECK-SAME: (%[[A:.*]]: !usm.array
// CHECK-NOT: = usm.
// CHECK: return %[[A]], %[[A]], %[[A]], %[[A]]
func.func @shape_noops(%a: !A) -> (!A, !A, !A, !A) {
  %b = usm.broadcast_to %a : !A -> !A
  %c = usm.reshape %a : !A -> !A
  %d = usm.transpose %a [0, 1] : !A -> !A
  %e = usm.astype %a : !A to !A
  return %b, %c, %d, %e : !A, !A, !A, !A
}

// -----

// CHECK-LABEL: func.func @transpose_of_transpose
// CHECK: %[[T:.*]] = usm.transpose %{{.*}} [2, 0, 1] : !usm.array<2x3x4xf32, "*:gpu:0", device> -> !usm.array<4x2x3xf32, "*:gpu:0", device>
// CHECK-NEXT: return %[[T]]
func.func @transpose_of_transpose(%a: !usm.array<2x3x4xf32, "gpu", device>) -> !usm.array<4x2x3xf32, "gpu", device> {
  %t = usm.transpose %a [1, 2, 0] : !usm.array<2x3x4xf32, "gpu", device> -> !usm.array<3x4x2xf32, "gpu", device>
  %u = usm.transpose %t [1, 2, 0] : !usm.array<3x4x2xf32, "gpu", device> -> !usm.array<4x2x3xf32, "gpu", device>
  return %u : !usm.array<4x2x3xf32, "gpu", device>
}

// -----

// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK: %[[R:.*]] = usm.reshape %{{.*}} : !usm.array<12xf32, "*:gpu:0", device> -> !usm.array<6x2xf32, "*:gpu:0", device>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_reshape(%a: !usm.array<12xf32, "gpu", device>) -> !usm.array<6x2xf32, "gpu", device> {
  %r = usm.reshape %a : !usm.array<12xf32, "gpu", device> -> !usm.array<3x4xf32, "gpu", device>
  %s = usm.reshape %r : !usm.array<3x4xf32, "gpu", device> -> !usm.array<6x2xf32, "gpu", device>
  return %s : !usm.array<6x2xf32, "gpu", device>
}

// -----

// A dynamic reshape can fail at run time (element counts that differ): a
// reshape of it keeps it.
// CHECK-LABEL: func.func @reshape_of_dynamic_reshape
// CHECK: %[[R:.*]] = usm.reshape %{{.*}}(%{{.*}}) : !usm.array<?xf32, "*:gpu:0", device> -> !usm.array<?xf32, "*:gpu:0", device>
// CHECK: usm.reshape %[[R]] : !usm.array<?xf32, "*:gpu:0", device> -> !usm.array<2x3xf32, "*:gpu:0", device>
func.func @reshape_of_dynamic_reshape(%a: !usm.array<?xf32, "gpu", device>, %n: index) -> !usm.array<2x3xf32, "gpu", device> {
  %r = usm.reshape %a (%n) : !usm.array<?xf32, "gpu", device> -> !usm.array<?xf32, "gpu", device>
  %s = usm.reshape %r : !usm.array<?xf32, "gpu", device> -> !usm.array<2x3xf32, "gpu", device>
  return %s : !usm.array<2x3xf32, "gpu", device>
}

// -----

// Checks of constant true conditions go; others stay.
// CHECK-LABEL: func.func @assert_true
// CHECK-NOT: "always"
// CHECK: usm.assert %{{.*}}, "maybe"
func.func @assert_true(%ok: i1) {
  %t = arith.constant true
  usm.assert %t, "always"
  usm.assert %ok, "maybe"
  return
}

// -----

// CHECK-LABEL: func.func @reshape_constant
// CHECK: usm.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32> -> !usm.array<2x2xi32, "*:gpu:0", device>
func.func @reshape_constant() -> !usm.array<2x2xi32, "gpu", device> {
  %a = usm.constant dense<[1, 2, 3, 4]> : tensor<4xi32> -> !usm.array<4xi32, "gpu", device>
  %r = usm.reshape %a : !usm.array<4xi32, "gpu", device> -> !usm.array<2x2xi32, "gpu", device>
  return %r : !usm.array<2x2xi32, "gpu", device>
}

// -----

// A broadcast between dynamic shapes may do work: it stays.
// CHECK-LABEL: func.func @dynamic_broadcast_kept
// CHECK: usm.broadcast_to
func.func @dynamic_broadcast_kept(%a: !usm.array<?xf32, "gpu", device>, %n: index) -> !usm.array<?xf32, "gpu", device> {
  %b = usm.broadcast_to %a (%n) : !usm.array<?xf32, "gpu", device> -> !usm.array<?xf32, "gpu", device>
  return %b : !usm.array<?xf32, "gpu", device>
}
