// RUN: sluice-opt %s -usm-infer-placement -split-input-file | FileCheck %s
// RUN: sluice-opt %s -usm-infer-placement -split-input-file | sluice-opt -usm-verify-placement -split-input-file

!A = !usm.array<4xf32, "opencl:cpu:0", device>
!S = !usm.array<4xf32, "opencl:cpu:0", shared>
!U = !usm.array<4xf32, ?>

// Host data follows the USM array it meets, queue and kind (dpctl: the NumPy
// operand takes the USM operand's queue and coerced usm_type); values
// computed from it follow too.
// CHECK-LABEL: func.func @follows
// CHECK: usm.from_host %{{.*}} : memref<4xf32> -> !usm.array<4xf32, "opencl:cpu:0", shared>
// CHECK: usm.full %{{.*}} : f32 -> !usm.array<4xf32, "opencl:cpu:0", shared>
// CHECK: usm.mul %{{.*}} : (!usm.array<4xf32, "opencl:cpu:0", shared>, !usm.array<4xf32, "opencl:cpu:0", shared>) -> !usm.array<4xf32, "opencl:cpu:0", shared>
// CHECK: usm.add %{{.*}} -> !usm.array<4xf32, "opencl:cpu:0", shared>
func.func @follows(%m: memref<4xf32>, %s: f32, %a: !S) -> !S {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %f = usm.full %s : f32 -> !U
  %p = usm.mul %h, %f : (!U, !U) -> !U
  %r = usm.add %p, %a : (!U, !S) -> !S
  return %r : !S
}

// USM kinds: an unplaced array met by a device-result op and a shared-result
// op becomes shared, so that neither result changes kind (device < shared).
// CHECK-LABEL: func.func @kinds
// CHECK: usm.from_host %{{.*}} -> !usm.array<4xf32, "opencl:cpu:0", shared>
// CHECK: usm.add %{{.*}} : (!usm.array<4xf32, "opencl:cpu:0", shared>, !usm.array<4xf32, "opencl:cpu:0", device>) -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: usm.add %{{.*}} : (!usm.array<4xf32, "opencl:cpu:0", shared>, !usm.array<4xf32, "opencl:cpu:0", shared>) -> !usm.array<4xf32, "opencl:cpu:0", shared>
func.func @kinds(%m: memref<4xf32>, %a: !A, %b: !S) -> (!A, !S) {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %x = usm.add %h, %a : (!U, !A) -> !A
  %y = usm.add %h, %b : (!U, !S) -> !S
  return %x, %y : !A, !S
}

// A migration of unplaced data places it at the target when nothing else
// does (the migration then changes nothing and folds away).
// CHECK-LABEL: func.func @to_device_target
// CHECK: usm.from_host %{{.*}} -> !usm.array<4xf32, "opencl:cpu:0", shared>
func.func @to_device_target(%m: memref<4xf32>) -> !S {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %d = usm.to_device %h : !U -> !S
  return %d : !S
}

// -----

!A = !usm.array<4xf32, "opencl:cpu:0", device>
!U = !usm.array<4xf32, ?>

// Through scf.if: both branches take the placement of the use after it.
// CHECK-LABEL: func.func @if_join
// CHECK: scf.if %{{.*}} -> (!usm.array<4xf32, "opencl:cpu:0", device>)
// CHECK: usm.from_host {{.*}} -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: usm.from_host {{.*}} -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: usm.exp {{.*}} -> !usm.array<4xf32, "opencl:cpu:0", device>
func.func @if_join(%c: i1, %m: memref<4xf32>, %a: !A) -> !A {
  %r = scf.if %c -> !U {
    %h = usm.from_host %m : memref<4xf32> -> !U
    scf.yield %h : !U
  } else {
    %h = usm.from_host %m : memref<4xf32> -> !U
    %e = usm.exp %h : (!U) -> !U
    scf.yield %e : !U
  }
  %s = usm.add %r, %a : (!U, !A) -> !A
  return %s : !A
}

// Through scf.for: the loop-carried value, its init and its yield.
// CHECK-LABEL: func.func @for_carried
// CHECK: usm.from_host {{.*}} -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!usm.array<4xf32, "opencl:cpu:0", device>)
// CHECK: usm.exp {{.*}} -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: scf.yield {{.*}} : !usm.array<4xf32, "opencl:cpu:0", device>
func.func @for_carried(%m: memref<4xf32>, %a: !A, %n: index) -> !A {
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

// Through scf.while: a use inside the loop places the value entering it.
// CHECK-LABEL: func.func @while_inside
// CHECK: usm.from_host {{.*}} -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (!usm.array<4xf32, "opencl:cpu:0", device>) -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: ^bb0(%{{.*}}: !usm.array<4xf32, "opencl:cpu:0", device>)
func.func @while_inside(%m: memref<4xf32>, %a: !A, %c: i1) -> !U {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %r = scf.while (%w = %h) : (!U) -> !U {
    scf.condition(%c) %w : !U
  } do {
  ^bb0(%v: !U):
    %s = usm.add %v, %a : (!U, !A) -> !A
    scf.yield %v : !U
  }
  return %r : !U
}

// Through cf branches and block arguments; the function's result follows.
// CHECK-LABEL: func.func @cf_join
// CHECK-SAME: -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: ^bb3(%{{.*}}: !usm.array<4xf32, "opencl:cpu:0", device>)
func.func @cf_join(%c: i1, %m: memref<4xf32>, %a: !A) -> !U {
  cf.cond_br %c, ^left, ^right
^left:
  %h = usm.from_host %m : memref<4xf32> -> !U
  %x = usm.add %h, %a : (!U, !A) -> !A
  cf.br ^join(%h : !U)
^right:
  %g = usm.from_host %m : memref<4xf32> -> !U
  cf.br ^join(%g : !U)
^join(%j: !U):
  return %j : !U
}

// -----

!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// Specialisation: a function called with arrays on two queues becomes two
// functions; the generic one, now unused, is removed. Recursion calls the
// specialisation itself.
// CHECK-NOT: func.func private @scale(
// CHECK-LABEL: func.func private @scale.opencl_cpu_0
// CHECK-SAME: (%{{.*}}: !usm.array<4xf32, "opencl:cpu:0", device>, %{{.*}}: f32, %{{.*}}: index) -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: call @scale.opencl_cpu_0(
// CHECK-LABEL: func.func private @scale.level_zero_gpu_0
// CHECK-SAME: (%{{.*}}: !usm.array<4xf32, "level_zero:gpu:0", device>, %{{.*}}: f32, %{{.*}}: index) -> !usm.array<4xf32, "level_zero:gpu:0", device>
// CHECK: call @scale.level_zero_gpu_0(
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
// CHECK: call @scale.opencl_cpu_0(%{{.*}}) : (!usm.array<4xf32, "opencl:cpu:0", device>, f32, index) -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: call @scale.level_zero_gpu_0(%{{.*}}) : (!usm.array<4xf32, "level_zero:gpu:0", device>, f32, index) -> !usm.array<4xf32, "level_zero:gpu:0", device>
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

// -----

!A = !usm.array<4xf32, "opencl:cpu:0", device>
!U = !usm.array<4xf32, ?>

// A callee that places its parameter places its callers' arguments, and a
// callee's unplaced result is placed by what its caller does with it (in a
// specialisation: other calls may place it elsewhere).
// CHECK-LABEL: func.func private @weights.opencl_cpu_0
// CHECK-SAME: (%{{.*}}: memref<4xf32>) -> !usm.array<4xf32, "opencl:cpu:0", device>
func.func private @weights(%m: memref<4xf32>) -> !U {
  %h = usm.from_host %m : memref<4xf32> -> !U
  return %h : !U
}

// CHECK-LABEL: func.func private @on_cpu
// CHECK-SAME: (%{{.*}}: !usm.array<4xf32, "opencl:cpu:0", device>, %{{.*}}: !usm.array<4xf32, "opencl:cpu:0", device>) -> !usm.array<4xf32, "opencl:cpu:0", device>
func.func private @on_cpu(%x: !U, %a: !A) -> !A {
  %y = usm.add %x, %a : (!U, !A) -> !A
  return %y : !A
}

// CHECK-LABEL: func.func @caller
// CHECK: usm.from_host {{.*}} -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: call @on_cpu
// CHECK: call @weights.opencl_cpu_0{{.*}} -> !usm.array<4xf32, "opencl:cpu:0", device>
func.func @caller(%m: memref<4xf32>, %a: !A) -> !A {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %r = func.call @on_cpu(%h, %a) : (!U, !A) -> !A
  %w = func.call @weights(%m) : (memref<4xf32>) -> !U
  %s = usm.mul %r, %w : (!A, !U) -> !A
  return %s : !A
}
