// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// usm.gather reads a 2-d source at flat positions: in order, reversed, with
// repeats, from unsigned indices, and clamps positions out of range.

// INPUT: a = rand((3, 4), 'f32')
// INPUT: i = np.array([[11, 0, 5], [5, 3, 10]], dtype=np.int64)
// INPUT: j = np.array([-4, 2, 99], dtype=np.int64)
// INPUT: k = np.array([7, 1], dtype=np.uint32)
// EXPECT: a.reshape(-1)[i]
// EXPECT: a.reshape(-1)[np.clip(j, 0, 11)]
// EXPECT: a.reshape(-1)[k]
!A = !usm.array<3x4xf32, "host:cpu:0", device>
!I = !usm.array<2x3xi64, "host:cpu:0", device>
!J = !usm.array<3xi64, "host:cpu:0", device>
!K = !usm.array<2xui32, "host:cpu:0", device>
func.func @main(%a: !A, %i: !I, %j: !J, %k: !K) -> (!usm.array<2x3xf32, "host:cpu:0", device>, !usm.array<3xf32, "host:cpu:0", device>, !usm.array<2xf32, "host:cpu:0", device>) {
  %0 = usm.gather %a[%i] : !A, !I -> !usm.array<2x3xf32, "host:cpu:0", device>
  %1 = usm.gather %a[%j] : !A, !J -> !usm.array<3xf32, "host:cpu:0", device>
  %2 = usm.gather %a[%k] : !A, !K -> !usm.array<2xf32, "host:cpu:0", device>
  return %0, %1, %2 : !usm.array<2x3xf32, "host:cpu:0", device>, !usm.array<3xf32, "host:cpu:0", device>, !usm.array<2xf32, "host:cpu:0", device>
}
