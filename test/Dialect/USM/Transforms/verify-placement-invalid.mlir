// RUN: sluice-opt %s -usm-verify-placement -split-input-file -verify-diagnostics

// Every compute-follows-data violation that one op's verifier cannot see:
// an unplaced array (`?`) follows one queue only, wherever it meets others.

!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// expected-note @+1 {{queue "opencl:cpu:0" comes from argument #1 of @two_uses}}
func.func @two_uses(%m: memref<4xf32>, %a: !A,
                    // expected-note @+1 {{queue "level_zero:gpu:0" comes from argument #2 of @two_uses}}
                    %b: !B) -> (!A, !B) {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %x = usm.add %h, %a : (!U, !A) -> !A
  // expected-error @+1 {{'usm.mul' op execution placement can not be unambiguously inferred from input arguments: operand #0 follows queue "opencl:cpu:0" but operand #1 is on queue "level_zero:gpu:0"; migrate one of them with usm.to_device}}
  %y = usm.mul %h, %b : (!U, !B) -> !B
  return %x, %y : !A, !B
}

// -----

// Values computed from unplaced values follow the same queue.
!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

func.func @derived(%m: memref<4xf32>, %s: f32) -> (!A, !B) {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %e = usm.exp %h : (!U) -> !U
  %k = usm.mul %e, %s : (!U, f32) -> !U
  // expected-note @+1 {{queue "opencl:cpu:0" comes from this 'usm.empty'}}
  %a = usm.empty() : !A
  // expected-note @+1 {{queue "level_zero:gpu:0" comes from this 'usm.full'}}
  %b = usm.full %s : f32 -> !B
  %x = usm.add %a, %e : (!A, !U) -> !A
  // expected-error @+1 {{operand #0 follows queue "opencl:cpu:0" but operand #1 is on queue "level_zero:gpu:0"}}
  %y = usm.sub %k, %b : (!U, !B) -> !B
  return %x, %y : !A, !B
}

// -----

// The branches of an scf.if yield one placement.
!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// expected-note @+1 {{queue "opencl:cpu:0" comes from argument #2 of @if_branches}}
func.func @if_branches(%c: i1, %m: memref<4xf32>, %a: !A,
                       // expected-note @+1 {{queue "level_zero:gpu:0" comes from argument #3 of @if_branches}}
                       %b: !B) -> !U {
  // expected-error @+1 {{'scf.if' op the branches yield result #0 on different queues, "opencl:cpu:0" and "level_zero:gpu:0"; migrate one of them with usm.to_device before it is yielded}}
  %r = scf.if %c -> !U {
    %h = usm.from_host %m : memref<4xf32> -> !U
    %x = usm.add %h, %a : (!U, !A) -> !A
    scf.yield %h : !U
  } else {
    %h = usm.from_host %m : memref<4xf32> -> !U
    %y = usm.add %h, %b : (!U, !B) -> !B
    scf.yield %h : !U
  }
  return %r : !U
}

// -----

// A use after the scf.if places both branches.
!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// expected-note @+2 {{queue "level_zero:gpu:0" comes from argument #3 of @if_then_use}}
// expected-note @+1 {{queue "opencl:cpu:0" comes from argument #2 of @if_then_use}}
func.func @if_then_use(%c: i1, %m: memref<4xf32>, %a: !A, %b: !B) -> !B {
  // expected-error @+1 {{'scf.if' op the branches yield result #0 on different queues, "level_zero:gpu:0" and "opencl:cpu:0"}}
  %r = scf.if %c -> !U {
    %h = usm.from_host %m : memref<4xf32> -> !U
    scf.yield %h : !U
  } else {
    %h = usm.from_host %m : memref<4xf32> -> !U
    %p = usm.astype %a : !A to !A
    %y = usm.add %h, %p : (!U, !A) -> !A
    scf.yield %h : !U
  }
  %z = usm.add %r, %b : (!U, !B) -> !B
  return %z : !B
}

// -----

// A loop-carried value enters and leaves each iteration on one queue.
!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// expected-note @+1 {{queue "opencl:cpu:0" comes from argument #1 of @for_carried}}
func.func @for_carried(%m: memref<4xf32>, %a: !A,
                       // expected-note @+1 {{queue "level_zero:gpu:0" comes from argument #2 of @for_carried}}
                       %b: !B, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = usm.from_host %m : memref<4xf32> -> !U
  %x = usm.add %h, %a : (!U, !A) -> !A
  // expected-error @+1 {{'scf.for' op loop-carried value (region argument #1) enters on queue "opencl:cpu:0" but is yielded on queue "level_zero:gpu:0"; migrate the yielded value with usm.to_device}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %h) -> (!U) {
    %g = usm.from_host %m : memref<4xf32> -> !U
    %y = usm.add %g, %b : (!U, !B) -> !B
    scf.yield %g : !U
  }
  return
}

// -----

// scf.while: the value passed to the after region is the loop's value too.
!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// expected-note @+1 {{queue "opencl:cpu:0" comes from argument #1 of @while_carried}}
func.func @while_carried(%m: memref<4xf32>, %a: !A,
                         // expected-note @+1 {{queue "level_zero:gpu:0" comes from argument #2 of @while_carried}}
                         %b: !B, %c: i1) -> !U {
  %h = usm.from_host %m : memref<4xf32> -> !U
  // expected-error @+1 {{'scf.while' op loop-carried value (region argument #0) enters on queue "opencl:cpu:0" but is yielded on queue "level_zero:gpu:0"}}
  %r = scf.while (%w = %h) : (!U) -> !U {
    %x = usm.add %w, %a : (!U, !A) -> !A
    scf.condition(%c) %w : !U
  } do {
  ^bb0(%v: !U):
    %g = usm.from_host %m : memref<4xf32> -> !U
    %y = usm.add %g, %b : (!U, !B) -> !B
    scf.yield %g : !U
  }
  return %r : !U
}

// -----

// cf branches: a block argument receives one placement from every edge.
!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// expected-note @+1 {{queue "opencl:cpu:0" comes from argument #2 of @cf_merge}}
func.func @cf_merge(%c: i1, %m: memref<4xf32>, %a: !A,
                    // expected-note @+1 {{queue "level_zero:gpu:0" comes from argument #3 of @cf_merge}}
                    %b: !B) -> !U {
  cf.cond_br %c, ^left, ^right
^left:
  %h = usm.from_host %m : memref<4xf32> -> !U
  %x = usm.add %h, %a : (!U, !A) -> !A
  cf.br ^join(%h : !U)
^right:
  %g = usm.from_host %m : memref<4xf32> -> !U
  %y = usm.add %g, %b : (!U, !B) -> !B
  // expected-error @+1 {{'cf.br' op values on different queues meet at argument #0 of its successor: "opencl:cpu:0" and "level_zero:gpu:0"; migrate one of them with usm.to_device}}
  cf.br ^join(%g : !U)
^join(%j: !U):
  return %j : !U
}

// -----

// A callee that places its parameter places the argument of every call.
!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// expected-note @+1 {{queue "level_zero:gpu:0" comes from parameter #0 of @on_gpu}}
func.func private @on_gpu(%x: !U, %b: !B) -> !B {
  %y = usm.add %x, %b : (!U, !B) -> !B
  return %y : !B
}

// expected-note @+1 {{queue "opencl:cpu:0" comes from argument #1 of @call_param}}
func.func @call_param(%m: memref<4xf32>, %a: !A, %b: !B) -> !A {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %x = usm.add %h, %a : (!U, !A) -> !A
  // expected-error @+1 {{'func.call' op operand #0 follows queue "opencl:cpu:0" but parameter #0 of @on_gpu is on queue "level_zero:gpu:0"; migrate it with usm.to_device}}
  %y = func.call @on_gpu(%h, %b) : (!U, !B) -> !B
  return %x : !A
}

// -----

// A generic callee is checked for each placement it is called with: only
// the call with arrays on two queues conflicts.
!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// expected-note @+2 {{queue "opencl:cpu:0" comes from argument #0 of @pair.opencl_cpu_0.level_zero_gpu_0}}
// expected-note @+1 {{queue "level_zero:gpu:0" comes from argument #1 of @pair.opencl_cpu_0.level_zero_gpu_0}}
func.func private @pair(%x: !U, %y: !U) -> !U {
  // expected-error @+1 {{'usm.add' op execution placement can not be unambiguously inferred from input arguments: operand #0 is on queue "opencl:cpu:0" but operand #1 is on queue "level_zero:gpu:0"}}
  %z = usm.add %x, %y : (!U, !U) -> !U
  return %z : !U
}

func.func @call_generic(%m: memref<4xf32>, %a: !A, %b: !B) -> (!A, !A) {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %g = usm.from_host %m : memref<4xf32> -> !U
  %k = usm.from_host %m : memref<4xf32> -> !U
  %x = usm.add %h, %a : (!U, !A) -> !A
  %y = usm.add %g, %a : (!U, !A) -> !A
  %w = usm.add %k, %b : (!U, !B) -> !B
  %ok = func.call @pair(%h, %g) : (!U, !U) -> !U
  %bad = func.call @pair(%h, %k) : (!U, !U) -> !U
  return %x, %y : !A, !A
}

// -----

// All returns of a function give one placement per result.
!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// expected-note @+1 {{queue "opencl:cpu:0" comes from argument #2 of @returns}}
func.func @returns(%c: i1, %m: memref<4xf32>, %a: !A,
                   // expected-note @+1 {{queue "level_zero:gpu:0" comes from argument #3 of @returns}}
                   %b: !B) -> !U {
  %h = usm.from_host %m : memref<4xf32> -> !U
  cf.cond_br %c, ^left, ^right
^left:
  %x = usm.add %h, %a : (!U, !A) -> !A
  return %h : !U
^right:
  %g = usm.from_host %m : memref<4xf32> -> !U
  %y = usm.add %g, %b : (!U, !B) -> !B
  // expected-error @+1 {{'func.return' op result #0 of @returns is returned on different queues, "opencl:cpu:0" and "level_zero:gpu:0"; migrate one of them with usm.to_device}}
  return %g : !U
}
