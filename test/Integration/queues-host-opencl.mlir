// REQUIRES: opencl-device
// RUN: %python %S/check.py %s

// One program on the host CPU and on the OpenCL CPU device: inputs on
// both, usm.to_device across devices both ways, a reduction on each side,
// results on both.

// FOR: n in [0, 1000, 70001]
// INPUT: a = rand(n, 'f32', 0.5, 1.5)
// INPUT: b = rand(n, 'f32', 0.5, 1.5)
// EXPECT: np.sqrt(a) * b
// EXPECT: np.sum(np.sqrt(a) * b)
// EXPECT: np.sqrt(a) * b - a
!H = !usm.array<?xf32, "host:cpu:0", device>
!C = !usm.array<?xf32, "opencl:cpu:0", device>
!S = !usm.array<f32, "opencl:cpu:0", shared>
func.func @main(%a: !H, %b: !C) -> (!C, !S, !H) {
  %r = usm.sqrt %a : (!H) -> !H
  %rc = usm.to_device %r : !H -> !C
  %0 = usm.mul %rc, %b : (!C, !C) -> !C
  %s = usm.sum %0 : !C -> !usm.array<f32, "opencl:cpu:0", device>
  %1 = usm.to_device %s : !usm.array<f32, "opencl:cpu:0", device> -> !S
  %back = usm.to_device %0 : !C -> !H
  %2 = usm.sub %back, %a : (!H, !H) -> !H
  return %0, %1, %2 : !C, !S, !H
}

// -----

// Integer data through a named OpenCL queue and back to the host.
// INPUT: a = rand((3, 7), 'i64')
// EXPECT: np.sum(a * 3, axis=0)
// EXPECT: a * 3
!H = !usm.array<3x7xi64, "host:cpu:0", host>
!C = !usm.array<3x7xi64, "opencl:cpu:0"("w"), device>
func.func @main(%a: !H) -> (!usm.array<7xi64, "host:cpu:0", host>, !C) {
  %three = arith.constant 3 : i64
  %c = usm.to_device %a : !H -> !C
  %m = usm.mul %c, %three : (!C, i64) -> !C
  %h = usm.to_device %m : !C -> !H
  %0 = usm.sum %h axes [0] : !H -> !usm.array<7xi64, "host:cpu:0", host>
  return %0, %m : !usm.array<7xi64, "host:cpu:0", host>, !C
}
