// RUN: sluice-opt %s -usm-verify-placement | FileCheck %s

// Programs that respect compute-follows-data pass unchanged: the pass only
// reports. (verify-placement-invalid.mlir has the violations.)

!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// A usm.to_device reconciles the two uses of the host data; unplaced values
// stay unplaced (usm-infer-placement places them).
// CHECK-LABEL: func.func @migrated
// CHECK: %[[H:.*]] = usm.from_host %{{.*}} : memref<4xf32> -> !usm.array<4xf32, ?>
// CHECK: usm.add %[[H]], %{{.*}} : (!usm.array<4xf32, ?>, !usm.array<4xf32, "opencl:cpu:0", device>)
// CHECK: %[[M:.*]] = usm.to_device %[[H]]
// CHECK: usm.mul %[[M]], %{{.*}} : (!usm.array<4xf32, "level_zero:gpu:0", device>, !usm.array<4xf32, "level_zero:gpu:0", device>)
func.func @migrated(%m: memref<4xf32>, %a: !A, %b: !B) -> (!A, !B) {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %x = usm.add %h, %a : (!U, !A) -> !A
  %hb = usm.to_device %h : !U -> !B
  %y = usm.mul %hb, %b : (!B, !B) -> !B
  return %x, %y : !A, !B
}

// Branches that yield one placement, one of them after a migration.
// CHECK-LABEL: func.func @if_reconciled
// CHECK: scf.if
// CHECK: usm.to_device
// CHECK: scf.yield
func.func @if_reconciled(%c: i1, %a: !A, %b: !B) -> !A {
  %r = scf.if %c -> !A {
    scf.yield %a : !A
  } else {
    %m = usm.to_device %b : !B -> !A
    scf.yield %m : !A
  }
  return %r : !A
}

// A loop whose carried value stays on its queue.
// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK-SAME: -> (!usm.array<4xf32, ?>)
func.func @loop(%m: memref<4xf32>, %a: !A, %n: index) -> !A {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = usm.from_host %m : memref<4xf32> -> !U
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %h) -> (!U) {
    %e = usm.exp %it : (!U) -> !U
    scf.yield %e : !U
  }
  %s = usm.add %r, %a : (!U, !A) -> !A
  return %s : !A
}

// A generic function called with arrays on two queues: each call is checked
// with its own placement (as usm-infer-placement specialises it); recursion
// reuses the placement it was called with.
// CHECK-LABEL: func.func private @scale
// CHECK-SAME: (%{{.*}}: !usm.array<4xf32, ?>, %{{.*}}: f32, %{{.*}}: index) -> !usm.array<4xf32, ?>
func.func private @scale(%x: !U, %s: f32, %n: index) -> !U {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> !U {
    scf.yield %x : !U
  } else {
    %y = usm.mul %x, %s : (!U, f32) -> !U
    %k = arith.subi %n, %c1 : index
    %z = func.call @scale(%y, %s, %k) : (!U, f32, index) -> !U
    scf.yield %z : !U
  }
  return %r : !U
}

// CHECK-LABEL: func.func @two_placements
// CHECK: call @scale(%{{.*}}) : (!usm.array<4xf32, ?>, f32, index) -> !usm.array<4xf32, ?>
// CHECK: call @scale(%{{.*}}) : (!usm.array<4xf32, ?>, f32, index) -> !usm.array<4xf32, ?>
func.func @two_placements(%m: memref<4xf32>, %a: !A, %b: !B, %s: f32,
                          %n: index) -> (!A, !B) {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %g = usm.from_host %m : memref<4xf32> -> !U
  %x = func.call @scale(%h, %s, %n) : (!U, f32, index) -> !U
  %y = func.call @scale(%g, %s, %n) : (!U, f32, index) -> !U
  %xa = usm.add %x, %a : (!U, !A) -> !A
  %yb = usm.add %y, %b : (!U, !B) -> !B
  return %xa, %yb : !A, !B
}

// Branches of cf that agree.
// CHECK-LABEL: func.func @cf_agree
// CHECK: ^bb3(%{{.*}}: !usm.array<4xf32, ?>)
func.func @cf_agree(%c: i1, %m: memref<4xf32>, %a: !A) -> !A {
  cf.cond_br %c, ^left, ^right
^left:
  %h = usm.from_host %m : memref<4xf32> -> !U
  cf.br ^join(%h : !U)
^right:
  %g = usm.from_host %m : memref<4xf32> -> !U
  cf.br ^join(%g : !U)
^join(%j: !U):
  %s = usm.add %j, %a : (!U, !A) -> !A
  return %s : !A
}
