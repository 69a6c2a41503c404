// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// Dynamic shapes over sizes that matter to the kernels: empty arrays, one
// element, sizes around the 64-element alignment of host chunks, around the
// host grain (16384 elements per workgroup), above 1M elements (64
// workgroups; two-phase reductions) and above 4M (the 256-workgroup cap of
// one host launch, so every workgroup takes a larger chunk; an f32 output
// of 4194369 elements is above 16 MiB, where host kernels take their
// version with non-temporal stores).
//
// Float sums reassociate (per-workgroup partials, then a combine): inputs
// are positive so that the relative error stays near log2(n) * eps; rtol
// 1e-5 for f32 sums over up to 4M elements, 1e-12 for f64. The max of an
// empty array is an error, as in NumPy: the run fails with its message
// (n = 0).

// FOR: n in [0, 1, 63, 64, 65, 16383, 16385, 1048579, 4194369]
// INPUT: a = rand(n, 'f32', 0.5, 1.5)
// INPUT: b = rand(n, 'f32', 0.5, 1.5)
// EXPECT: a * b + a
// EXPECT: np.sum(a * b + a)
// EXPECT: np.max(a - b)
// GROUPS: 2
!A = !usm.array<?xf32, "host:cpu:0", device>
!S = !usm.array<f32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !S, !S) {
  %ab = usm.mul %a, %b : (!A, !A) -> !A
  %0 = usm.add %ab, %a : (!A, !A) -> !A
  %1 = usm.sum %0 : !A -> !S
  %d = usm.sub %a, %b : (!A, !A) -> !A
  %2 = usm.max %d : !A -> !S
  return %0, %1, %2 : !A, !S, !S
}

// -----

// Integers: exact at every size; the min of nothing is an error.
// FOR: n in [0, 65, 16385, 1048579]
// INPUT: a = rand(n, 'i64')
// INPUT: b = rand(n, 'i32')
// EXPECT: a - b.astype(np.int64)
// EXPECT: np.sum(b)
// EXPECT: np.min(a)
!A = !usm.array<?xi64, "host:cpu:0", device>
!B = !usm.array<?xi32, "host:cpu:0", device>
!S = !usm.array<i64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !B) -> (!A, !S, !S) {
  %b64 = usm.astype %b : !B to !A
  %0 = usm.sub %a, %b64 : (!A, !A) -> !A
  %1 = usm.sum %b : !B -> !S
  %2 = usm.min %a : !A -> !S
  return %0, %1, %2 : !A, !S, !S
}

// -----

// 2-D dynamic: reductions along each axis and over both, with empty and
// degenerate shapes and a reduced axis longer than a host workgroup's grain.
// The max along an empty axis fails (5, 0); along a full one it is an empty
// array (0, 5).
// FOR: n, m in [(0, 5), (5, 0), (1, 1), (3, 16385), (1025, 1023), (70000, 3)]
// INPUT: a = rand((n, m), 'f64', 0.5, 1.5)
// EXPECT: np.exp(a)
// EXPECT: np.sum(a, axis=0)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.sum(a)
// EXPECT: np.max(a, axis=1, keepdims=True)
!A = !usm.array<?x?xf64, "host:cpu:0", device>
!R = !usm.array<?xf64, "host:cpu:0", device>
!K = !usm.array<?x1xf64, "host:cpu:0", device>
!S = !usm.array<f64, "host:cpu:0", device>
func.func @main(%a: !A) -> (!A, !R, !R, !S, !K) {
  %0 = usm.exp %a : (!A) -> !A
  %1 = usm.sum %a axes [0] : !A -> !R
  %2 = usm.sum %a axes [1] : !A -> !R
  %3 = usm.sum %a : !A -> !S
  %4 = usm.max %a axes [1] keepdims : !A -> !K
  return %0, %1, %2, %3, %4 : !A, !R, !R, !S, !K
}

// -----

// 3-D with a dynamic middle dimension and a static 1.
// FOR: n in [0, 1, 700]
// INPUT: a = rand((2, n, 1), 'f32')
// INPUT: b = rand((2, n, 5), 'f32')
// EXPECT: a + b
// EXPECT: np.sum(b, axis=(0, 2))
!A = !usm.array<2x?x1xf32, "host:cpu:0", device>
!B = !usm.array<2x?x5xf32, "host:cpu:0", device>
!R = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !B) -> (!B, !R) {
  %0 = usm.add %a, %b : (!A, !B) -> !B
  %1 = usm.sum %b axes [0, 2] : !B -> !R
  return %0, %1 : !B, !R
}
