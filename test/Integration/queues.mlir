// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// Programs on several queues: usm.to_device between a device's canonical
// queue and a named queue on it, between USM kinds, and chains of
// migrations; inputs and results on every queue and kind. Each queue's
// work stays on it (no fusion across a migration). With --device every
// queue is rebound to that device (named queues stay distinct).

// device -> shared on a named queue, compute there, come back.
// FOR: n in [0, 67, 100003]
// INPUT: a = rand(n, 'f32')
// INPUT: b = rand(n, 'f32')
// EXPECT: a * b + np.float32(1)
// EXPECT: (a * b) * np.float32(2)
// EXPECT: np.exp(a * b + np.float32(1)) - a
!D = !usm.array<?xf32, "host:cpu:0", device>
!S = !usm.array<?xf32, "host:cpu:0"("other"), shared>
func.func @main(%a: !D, %b: !D) -> (!S, !D, !D) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %ab = usm.mul %a, %b : (!D, !D) -> !D
  %s = usm.to_device %ab : !D -> !S
  %0 = usm.add %s, %one : (!S, f32) -> !S
  %1 = usm.mul %ab, %two : (!D, f32) -> !D
  %e = usm.exp %0 : (!S) -> !S
  %back = usm.to_device %e : !S -> !D
  %2 = usm.sub %back, %a : (!D, !D) -> !D
  return %0, %1, %2 : !S, !D, !D
}

// -----

// Inputs on two queues and three USM kinds; a reduction on the named queue
// migrated back for an epilogue on the canonical one.
// FOR: n in [1, 5000]
// INPUT: a = rand((n, 3), 'f64')
// INPUT: w = rand((3,), 'f64')
// INPUT: h = rand((n, 3), 'f64')
// EXPECT: np.sum(a * w, axis=1) / np.float64(3)
// EXPECT: h - a
// EXPECT: np.max(h, axis=0)
!A = !usm.array<?x3xf64, "host:cpu:0", device>
!W = !usm.array<3xf64, "host:cpu:0"("other"), host>
!H = !usm.array<?x3xf64, "host:cpu:0", host>
!R = !usm.array<?xf64, "host:cpu:0"("other"), host>
!Q = !usm.array<?xf64, "host:cpu:0", shared>
func.func @main(%a: !A, %w: !W, %h: !H) -> (!Q, !A, !usm.array<3xf64, "host:cpu:0", host>) {
  %three = arith.constant 3.0 : f64
  %ao = usm.to_device %a : !A -> !usm.array<?x3xf64, "host:cpu:0"("other"), host>
  %aw = usm.mul %ao, %w : (!usm.array<?x3xf64, "host:cpu:0"("other"), host>, !W) -> !usm.array<?x3xf64, "host:cpu:0"("other"), host>
  %s = usm.sum %aw axes [1] : !usm.array<?x3xf64, "host:cpu:0"("other"), host> -> !R
  %sq = usm.to_device %s : !R -> !Q
  %0 = usm.div %sq, %three : (!Q, f64) -> !Q
  %1 = usm.sub %h, %a : (!H, !A) -> !A
  %2 = usm.max %h axes [0] : !H -> !usm.array<3xf64, "host:cpu:0", host>
  return %0, %1, %2 : !Q, !A, !usm.array<3xf64, "host:cpu:0", host>
}

// -----

// Chains of migrations (device -> host -> shared on another queue ->
// device), integer and boolean data, and a result that is a migrated input.
// INPUT: a = rand((4, 5), 'i32')
// INPUT: m = rand((4, 5), 'i1')
// EXPECT: np.where(m, a, -a)
// EXPECT: a
// EXPECT: m
!A = !usm.array<4x5xi32, "host:cpu:0", device>
!B = !usm.array<4x5xi1, "host:cpu:0", device>
!Z = !usm.array<4x5xi32, "host:cpu:0"("z"), shared>
func.func @main(%a: !A, %m: !B) -> (!A, !Z, !usm.array<4x5xi1, "host:cpu:0"("z"), device>) {
  %h = usm.to_device %a : !A -> !usm.array<4x5xi32, "host:cpu:0", host>
  %z = usm.to_device %h : !usm.array<4x5xi32, "host:cpu:0", host> -> !Z
  %mz = usm.to_device %m : !B -> !usm.array<4x5xi1, "host:cpu:0"("z"), device>
  %neg = usm.negative %z : (!Z) -> !Z
  // device + shared gives device (the smaller kind wins).
  %w = usm.where %mz, %z, %neg : (!usm.array<4x5xi1, "host:cpu:0"("z"), device>, !Z, !Z) -> !usm.array<4x5xi32, "host:cpu:0"("z"), device>
  %0 = usm.to_device %w : !usm.array<4x5xi32, "host:cpu:0"("z"), device> -> !A
  return %0, %z, %mz : !A, !Z, !usm.array<4x5xi1, "host:cpu:0"("z"), device>
}
