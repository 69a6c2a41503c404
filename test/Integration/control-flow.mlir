// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// Arrays through control flow and calls: an scf.for whose loop-carried
// array goes through a private function k times, an scf.if choosing
// between a computed array and an input, and a reduction in a loop.

// FOR: n, t, b in [(0, 3, True), (100, 3, True), (100, 0, False), (100, 2, False)]
// INPUT: a = rand(n, 'f32')
// INPUT: k = scalar(t, 'i64')
// INPUT: c = scalar(b, 'i1')
// EXPECT: a * 2 ** t + np.float32(1)
// EXPECT: np.exp(a) if b else a
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func private @twice(%x: !A) -> !A {
  %two = arith.constant 2.0 : f32
  %0 = usm.mul %x, %two : (!A, f32) -> !A
  return %0 : !A
}
func.func @main(%a: !A, %k: i64, %c: i1) -> (!A, !A) {
  %lb = arith.constant 0 : i64
  %st = arith.constant 1 : i64
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %lb to %k step %st iter_args(%x = %a) -> (!A) : i64 {
    %y = func.call @twice(%x) : (!A) -> !A
    scf.yield %y : !A
  }
  %0 = usm.add %r, %one : (!A, f32) -> !A
  %1 = scf.if %c -> (!A) {
    %e = usm.exp %a : (!A) -> !A
    scf.yield %e : !A
  } else {
    scf.yield %a : !A
  }
  return %0, %1 : !A, !A
}

// -----

// A reduction in a loop: s = sum(a * s[:, None], axis=1) / 5, k times from
// ones, is (rowsum(a) / 5) ** k.
// FOR: k in [0, 1, 4]
// INPUT: a = rand((3, 5), 'f64', 0.5, 1.5)
// INPUT: n = scalar(k, 'i64')
// EXPECT: (np.sum(a, axis=1) / 5) ** k
!A = !usm.array<3x5xf64, "host:cpu:0", device>
!R = !usm.array<3xf64, "host:cpu:0", device>
func.func @main(%a: !A, %n: i64) -> !R {
  %lb = arith.constant 0 : i64
  %st = arith.constant 1 : i64
  %one = arith.constant 1.0 : f64
  %five = arith.constant 5.0 : f64
  %init = usm.full %one : f64 -> !R
  %r = scf.for %i = %lb to %n step %st iter_args(%s = %init) -> (!R) : i64 {
    %col = usm.reshape %s : !R -> !usm.array<3x1xf64, "host:cpu:0", device>
    %p = usm.mul %a, %col : (!A, !usm.array<3x1xf64, "host:cpu:0", device>) -> !A
    %t = usm.sum %p axes [1] : !A -> !R
    %m = usm.div %t, %five : (!R, f64) -> !R
    scf.yield %m : !R
  }
  return %r : !R
}
