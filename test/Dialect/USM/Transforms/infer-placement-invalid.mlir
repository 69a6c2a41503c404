// RUN: sluice-opt %s -usm-infer-placement -split-input-file -verify-diagnostics

// Nothing places the host data: dpctl's error.
func.func @nothing(%m: memref<4xf32>) -> !usm.array<4xf32, ?> {
  // expected-error @+1 {{the placement of this array can not be inferred: it meets no array on a queue. Please specify `device` or `sycl_queue` keyword argument (give this 'usm.from_host' a queue in its type, or run usm-infer-placement with default-queue=...)}}
  %h = usm.from_host %m : memref<4xf32> -> !usm.array<4xf32, ?>
  %e = usm.exp %h : (!usm.array<4xf32, ?>) -> !usm.array<4xf32, ?>
  return %e : !usm.array<4xf32, ?>
}

// -----

// An unplaced parameter of a public function that nothing places.
// expected-error @+1 {{Please specify `device` or `sycl_queue` keyword argument (give argument #0 of @entry a queue in its type}}
func.func @entry(%x: !usm.array<4xf32, ?>) -> !usm.array<4xf32, ?> {
  return %x : !usm.array<4xf32, ?>
}

// -----

// Conflicts are reported as usm-verify-placement reports them.
!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "level_zero:gpu:0", device>
!U = !usm.array<4xf32, ?>

// expected-note @+2 {{queue "opencl:cpu:0" comes from argument #1 of @two_uses}}
// expected-note @+1 {{queue "level_zero:gpu:0" comes from argument #2 of @two_uses}}
func.func @two_uses(%m: memref<4xf32>, %a: !A, %b: !B) -> (!A, !B) {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %x = usm.add %h, %a : (!U, !A) -> !A
  // expected-error @+1 {{'usm.mul' op execution placement can not be unambiguously inferred from input arguments}}
  %y = usm.mul %h, %b : (!U, !B) -> !B
  return %x, %y : !A, !B
}

// -----

// An external function cannot be specialised.
!A = !usm.array<4xf32, "opencl:cpu:0", device>
!U = !usm.array<4xf32, ?>

func.func private @ext(!U) -> !A

func.func @call_ext(%m: memref<4xf32>, %a: !A) -> !A {
  %h = usm.from_host %m : memref<4xf32> -> !U
  %x = usm.add %h, %a : (!U, !A) -> !A
  // expected-error @+1 {{'func.call' op passes placed arrays to unplaced parameters or results of the external function @ext, which cannot be specialised; declare it with placed types}}
  %y = func.call @ext(%h) : (!U) -> !A
  return %y : !A
}
