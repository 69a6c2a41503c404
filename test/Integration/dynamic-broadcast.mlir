// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}

// NumPy broadcasting of dynamic (`?`) sizes, decided when the program runs:
// a size of 1 repeats against the other size, equal sizes take the kernel
// without broadcast views, and sizes that are neither (3 against 4) fail the
// run with NumPy's message (check.py compares it with the ValueError that
// NumPy raises for the same inputs). Every case runs fused and unfused.

// 1-D: both operands dynamic, sizes equal, either or both 1, empty against
// 1, and mismatches (including empty against 2).
// FOR: n, m in [(10, 10), (10, 1), (1, 10), (1, 1), (0, 1), (1, 0), (0, 0), (70001, 1), (10, 3), (0, 2), (3, 10)]
// INPUT: a = rand(n, 'f32')
// INPUT: b = rand(m, 'f32')
// EXPECT: a + b
// EXPECT: a * b - a
// GROUPS: 1
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !A) {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.mul %a, %b : (!A, !A) -> !A
  %2 = usm.sub %1, %a : (!A, !A) -> !A
  return %0, %2 : !A, !A
}

// -----

// 2-D: rows, columns, both, an outer product of a column and a row, and
// mismatches along either axis.
// FOR: sa, sb in [((3, 4), (3, 4)), ((3, 4), (1, 4)), ((3, 4), (3, 1)), ((1, 4), (3, 1)), ((1, 1), (3, 4)), ((0, 4), (1, 4)), ((700, 300), (1, 300)), ((700, 300), (700, 1)), ((3, 4), (2, 4)), ((3, 4), (3, 5)), ((3, 4), (4, 3))]
// INPUT: a = rand(sa, 'f64')
// INPUT: b = rand(sb, 'f64')
// EXPECT: np.maximum(a, b)
// EXPECT: a - b
!A = !usm.array<?x?xf64, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !A) {
  %0 = usm.maximum %a, %b : (!A, !A) -> !A
  %1 = usm.sub %a, %b : (!A, !A) -> !A
  return %0, %1 : !A, !A
}

// -----

// Static sizes meet dynamic ones: the dynamic size must be 1 or the static
// one; the result has the static size. Integers are exact.
// FOR: sa, sb in [((3, 4), (3, 4)), ((1, 4), (3, 4)), ((3, 4), (3, 1)), ((1, 4), (3, 1)), ((2, 4), (3, 4)), ((3, 4), (3, 2))]
// INPUT: a = rand(sa, 'i32')
// INPUT: b = rand(sb, 'i32')
// EXPECT: a * b + a
!A = !usm.array<?x4xi32, "host:cpu:0", device>
!B = !usm.array<3x?xi32, "host:cpu:0", device>
!R = !usm.array<3x4xi32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !B) -> !R {
  %0 = usm.mul %a, %b : (!A, !B) -> !R
  %1 = usm.add %0, %a : (!R, !A) -> !R
  return %1 : !R
}

// -----

// Ranks that differ (a vector against the rows of a matrix), a scalar, and
// where with three operands.
// FOR: s, m in [((2, 5), 5), ((2, 5), 1), ((2, 1), 5), ((0, 5), 1), ((2, 5), 4)]
// INPUT: a = rand(s, 'f32')
// INPUT: v = rand(m, 'f32')
// INPUT: c = rand(s, 'i1')
// INPUT: k = scalar(2.5, 'f32')
// EXPECT: a * k + v
// EXPECT: np.where(c, a, v)
!M = !usm.array<?x?xf32, "host:cpu:0", device>
!V = !usm.array<?xf32, "host:cpu:0", device>
!C = !usm.array<?x?xi1, "host:cpu:0", device>
func.func @main(%a: !M, %v: !V, %c: !C, %k: f32) -> (!M, !M) {
  %0 = usm.mul %a, %k : (!M, f32) -> !M
  %1 = usm.add %0, %v : (!M, !V) -> !M
  %2 = usm.where %c, %a, %v : (!C, !M, !V) -> !M
  return %1, %2 : !M, !M
}

// -----

// A fused group whose results differ in shape at run time: c (size 1 or
// equal) broadcasts against a and against b, which need not agree with each
// other. One kernel when nothing is broadcast; the ops one by one when
// something is.
// FOR: n, m, k in [(5, 5, 5), (3, 4, 1), (3, 3, 1), (1, 4, 4), (6, 1, 6), (0, 2, 1), (3, 4, 2), (3, 4, 4)]
// INPUT: a = rand(n, 'f32')
// INPUT: b = rand(m, 'f32')
// INPUT: c = rand(k, 'f32')
// EXPECT[rtol=1e-6]: np.exp(a + c)
// EXPECT: b * c
// GROUPS: 1
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A, %c: !A) -> (!A, !A) {
  %0 = usm.add %a, %c : (!A, !A) -> !A
  %1 = usm.exp %0 : (!A) -> !A
  %2 = usm.mul %b, %c : (!A, !A) -> !A
  return %1, %2 : !A, !A
}

// -----

// A fused group with one result (the 10-op function of
// bench/gpu-compile.mlir): one kernel when nothing is broadcast, one more
// that reads the inputs of size 1 through stride-0 views when something is;
// intermediates such as exp(b) are computed at the result's points.
// FOR: n, m in [(7, 7), (7, 1), (1, 7), (1, 1), (0, 1), (1, 0), (0, 0)]
// INPUT: a = rand(n, 'f32', 0.5, 2.0)
// INPUT: b = rand(m, 'f32', 0.5, 2.0)
// EXPECT[rtol=1e-5]: np.tanh(a * b + 1.5) * np.exp(b) - a / b + np.sqrt(np.abs(a)) * 2
// GROUPS: 1
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> !A {
  %c15 = arith.constant 1.5 : f32
  %c2 = arith.constant 2.0 : f32
  %0 = usm.mul %a, %b : (!A, !A) -> !A
  %1 = usm.add %0, %c15 : (!A, f32) -> !A
  %2 = usm.tanh %1 : (!A) -> !A
  %3 = usm.exp %b : (!A) -> !A
  %4 = usm.mul %2, %3 : (!A, !A) -> !A
  %5 = usm.div %a, %b : (!A, !A) -> !A
  %6 = usm.sub %4, %5 : (!A, !A) -> !A
  %7 = usm.abs %a : (!A) -> !A
  %8 = usm.sqrt %7 : (!A) -> !A
  %9 = usm.mul %8, %c2 : (!A, f32) -> !A
  %r = usm.add %6, %9 : (!A, !A) -> !A
  return %r : !A
}

// -----

// A 2-D group of one result: rows, columns and single elements broadcast
// at run time along either dimension.
// FOR: sa, sb in [((3, 4), (3, 4)), ((3, 4), (1, 4)), ((3, 4), (3, 1)), ((3, 1), (1, 4)), ((1, 1), (3, 4)), ((1, 4), (3, 1))]
// INPUT: a = rand(sa, 'f32')
// INPUT: b = rand(sb, 'f32')
// EXPECT[rtol=1e-6]: np.exp(a - b) * b + a
// GROUPS: 1
!B = !usm.array<?x?xf32, "host:cpu:0", device>
func.func @main(%a: !B, %b: !B) -> !B {
  %0 = usm.sub %a, %b : (!B, !B) -> !B
  %1 = usm.exp %0 : (!B) -> !B
  %2 = usm.mul %1, %b : (!B, !B) -> !B
  %r = usm.add %2, %a : (!B, !B) -> !B
  return %r : !B
}

// -----

// A fused group that returns its input and a value twice: copies, also
// when the group runs op by op.
// FOR: n, m in [(4, 4), (4, 1), (1, 4)]
// INPUT: a = rand(n, 'f32')
// INPUT: b = rand(m, 'f32')
// EXPECT: a - b
// EXPECT: a - b
// EXPECT: np.abs(a - b)
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> (!A, !A, !A) {
  %0 = usm.sub %a, %b : (!A, !A) -> !A
  %1 = usm.abs %0 : (!A) -> !A
  return %0, %0, %1 : !A, !A, !A
}

// -----

// broadcast_to with a dynamic input: each size must be 1 or the target's.
// ERROR: f"cannot broadcast shape ({n},) to ({r},{c})"
// FOR: n, r, c in [(4, 3, 4), (1, 3, 4), (1, 2, 1), (0, 3, 0), (1, 0, 5), (3, 2, 4), (2, 2, 1)]
// INPUT: a = rand(n, 'f32')
// INPUT: rows = scalar(r, 'i64')
// INPUT: cols = scalar(c, 'i64')
// EXPECT: np.broadcast_to(a, (r, c)) + 1
!A = !usm.array<?xf32, "host:cpu:0", device>
!B = !usm.array<?x?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %rows: i64, %cols: i64) -> !B {
  %r = arith.index_cast %rows : i64 to index
  %c = arith.index_cast %cols : i64 to index
  %one = arith.constant 1.0 : f32
  %0 = usm.broadcast_to %a (%r, %c) : !A -> !B
  %1 = usm.add %0, %one : (!B, f32) -> !B
  return %1 : !B
}
