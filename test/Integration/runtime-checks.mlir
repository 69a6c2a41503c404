// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}

// Preconditions that only the run time can check fail the run with a
// message, as NumPy raises ValueError: reshapes with dynamic sizes whose
// element count differs, negative sizes, and the maximum or minimum of
// nothing. Valid inputs around them give NumPy's results.

// reshape with dynamic sizes: as many elements as the input, none negative.
// ERROR: "negative dimensions are not allowed" if min(r, c) < 0 else f"cannot reshape array of size {n} into shape ({r},{c})"
// FOR: n, r, c in [(12, 3, 4), (12, 12, 1), (0, 0, 7), (0, 3, 0), (12, 5, 3), (12, 2, 7), (0, 1, 1), (12, -3, -4)]
// INPUT: a = rand(n, 'f32')
// INPUT: rows = scalar(r, 'i64')
// INPUT: cols = scalar(c, 'i64')
// EXPECT: a.reshape(r, c) * 2
// EXPECT: np.sum(a.reshape(r, c), axis=1)
!A = !usm.array<?xf32, "host:cpu:0", device>
!M = !usm.array<?x?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %rows: i64, %cols: i64) -> (!M, !A) {
  %r = arith.index_cast %rows : i64 to index
  %c = arith.index_cast %cols : i64 to index
  %two = arith.constant 2.0 : f32
  %m = usm.reshape %a (%r, %c) : !A -> !M
  %0 = usm.mul %m, %two : (!M, f32) -> !M
  %1 = usm.sum %m axes [1] : !M -> !A
  return %0, %1 : !M, !A
}

// -----

// A reshape from a static shape to dynamic sizes, and back.
// FOR: r, c in [(2, 3), (6, 1), (3, 3)]
// INPUT: a = rand((3, 2), 'i32')
// INPUT: rows = scalar(r, 'i64')
// INPUT: cols = scalar(c, 'i64')
// EXPECT: a.reshape(r, c).reshape(6)
!S = !usm.array<3x2xi32, "host:cpu:0", device>
!M = !usm.array<?x?xi32, "host:cpu:0", device>
!F = !usm.array<6xi32, "host:cpu:0", device>
func.func @main(%a: !S, %rows: i64, %cols: i64) -> !F {
  %r = arith.index_cast %rows : i64 to index
  %c = arith.index_cast %cols : i64 to index
  %m = usm.reshape %a (%r, %c) : !S -> !M
  %f = usm.reshape %m : !M -> !F
  return %f : !F
}

// -----

// full with a negative size.
// FOR: n in [0, 5, -1]
// INPUT: k = scalar(n, 'i64')
// EXPECT: np.full(n, 2.5, np.float32)
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%k: i64) -> !A {
  %n = arith.index_cast %k : i64 to index
  %v = arith.constant 2.5 : f32
  %0 = usm.full %v (%n) : f32 -> !A
  return %0 : !A
}

// -----

// The maximum and minimum of nothing fail; sum and prod of nothing are 0
// and 1.
// FOR: n in [0, 1, 5]
// INPUT: a = rand(n, 'f32')
// INPUT: b = rand(n, 'i32')
// EXPECT: np.sum(a)
// EXPECT: np.prod(b)
// EXPECT: np.max(a)
// EXPECT: np.min(b)
!A = !usm.array<?xf32, "host:cpu:0", device>
!B = !usm.array<?xi32, "host:cpu:0", device>
!SA = !usm.array<f32, "host:cpu:0", device>
!SB = !usm.array<i64, "host:cpu:0", device>
!SC = !usm.array<i32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !B) -> (!SA, !SB, !SA, !SC) {
  %0 = usm.sum %a : !A -> !SA
  %1 = usm.prod %b : !B -> !SB
  %2 = usm.max %a : !A -> !SA
  %3 = usm.min %b : !B -> !SC
  return %0, %1, %2, %3 : !SA, !SB, !SA, !SC
}

// -----

// Along one axis: an empty reduced axis fails, an empty kept axis gives an
// empty result. With keepdims, and after an elementwise producer (fused).
// FOR: shape in [(3, 0), (0, 3), (0, 0), (2, 3), (1, 70000)]
// INPUT: a = rand(shape, 'f64')
// INPUT: b = rand(shape, 'i16')
// EXPECT: np.max(a * 2, axis=0)
// EXPECT: np.min(b, axis=1, keepdims=True)
!A = !usm.array<?x?xf64, "host:cpu:0", device>
!B = !usm.array<?x?xi16, "host:cpu:0", device>
func.func @main(%a: !A, %b: !B) -> (!usm.array<?xf64, "host:cpu:0", device>, !usm.array<?x1xi16, "host:cpu:0", device>) {
  %two = arith.constant 2.0 : f64
  %d = usm.mul %a, %two : (!A, f64) -> !A
  %0 = usm.max %d axes [0] : !A -> !usm.array<?xf64, "host:cpu:0", device>
  %1 = usm.min %b axes [1] keepdims : !B -> !usm.array<?x1xi16, "host:cpu:0", device>
  return %0, %1 : !usm.array<?xf64, "host:cpu:0", device>, !usm.array<?x1xi16, "host:cpu:0", device>
}

// -----

// Over two of three axes: the reduced extent is 2 * 3 even when the kept
// axis is empty.
// FOR: shape in [(2, 0, 3), (2, 4, 0), (2, 4, 3)]
// INPUT: a = rand(shape, 'f32')
// EXPECT: np.max(a, axis=(0, 2))
!A = !usm.array<?x?x?xf32, "host:cpu:0", device>
func.func @main(%a: !A) -> !usm.array<?xf32, "host:cpu:0", device> {
  %0 = usm.max %a axes [0, 2] : !A -> !usm.array<?xf32, "host:cpu:0", device>
  return %0 : !usm.array<?xf32, "host:cpu:0", device>
}
