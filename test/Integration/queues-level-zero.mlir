// REQUIRES: level-zero-driver
// RUN: %ze_env %python %S/check.py %s

// Programs on the Level Zero test driver's device together with the host
// CPU and the OpenCL device: usm.to_device between all three (Level Zero
// device memory reaches OpenCL device memory through the host), reductions
// and shared results on the Level Zero queue.

// FOR: n in [0, 1000, 70001]
// INPUT: a = rand(n, 'f32', 0.5, 1.5)
// INPUT: b = rand(n, 'f32', 0.5, 1.5)
// EXPECT: np.sqrt(a) * b
// EXPECT: np.sum(np.sqrt(a) * b)
// EXPECT: 2 * (np.sqrt(a) * b)
// EXPECT: 2 * (np.sqrt(a) * b) - a
!H = !usm.array<?xf32, "host:cpu:0", device>
!Z = !usm.array<?xf32, "level_zero:gpu:0", device>
!C = !usm.array<?xf32, "opencl:cpu:0", device>
!ZS = !usm.array<f32, "level_zero:gpu:0", shared>
func.func @main(%a: !H, %b: !Z) -> (!Z, !ZS, !C, !H) {
  %r = usm.sqrt %a : (!H) -> !H
  %rz = usm.to_device %r : !H -> !Z
  %0 = usm.mul %rz, %b : (!Z, !Z) -> !Z
  %s = usm.sum %0 : !Z -> !usm.array<f32, "level_zero:gpu:0", device>
  %1 = usm.to_device %s : !usm.array<f32, "level_zero:gpu:0", device> -> !ZS
  %c = usm.to_device %0 : !Z -> !C
  %2 = usm.add %c, %c : (!C, !C) -> !C
  %back = usm.to_device %2 : !C -> !H
  %3 = usm.sub %back, %a : (!H, !H) -> !H
  return %0, %1, %2, %3 : !Z, !ZS, !C, !H
}

// -----

// Integer and double data through a named Level Zero queue (a second
// immediate command list) and back to the host.
// INPUT: a = rand((3, 7), 'i64')
// INPUT: x = rand((5, 4), 'f64', -2, 2)
// EXPECT: np.sum(a * 3, axis=0)
// EXPECT: a * 3
// EXPECT: np.max(np.exp(x), axis=1)
!H = !usm.array<3x7xi64, "host:cpu:0", host>
!Z = !usm.array<3x7xi64, "level_zero:gpu:0"("w"), device>
!XH = !usm.array<5x4xf64, "host:cpu:0", host>
!XZ = !usm.array<5x4xf64, "level_zero:gpu:0"("w"), shared>
!R = !usm.array<5xf64, "level_zero:gpu:0"("w"), shared>
func.func @main(%a: !H, %x: !XH) -> (!usm.array<7xi64, "host:cpu:0", host>, !Z, !R) {
  %three = arith.constant 3 : i64
  %z = usm.to_device %a : !H -> !Z
  %m = usm.mul %z, %three : (!Z, i64) -> !Z
  %h = usm.to_device %m : !Z -> !H
  %0 = usm.sum %h axes [0] : !H -> !usm.array<7xi64, "host:cpu:0", host>
  %xz = usm.to_device %x : !XH -> !XZ
  %e = usm.exp %xz : (!XZ) -> !XZ
  %1 = usm.max %e axes [1] : !XZ -> !R
  return %0, %m, %1 : !usm.array<7xi64, "host:cpu:0", host>, !Z, !R
}
