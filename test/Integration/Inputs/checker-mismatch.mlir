// Programs whose EXPECT lines are wrong on purpose (check.test).

// A wrong value at index 2 of 4.
// INPUT: a = np.array([1, 2, 3, 4], np.float32)
// EXPECT: a + np.array([1, 1, 2, 1], np.float32)
!A = !usm.array<4xf32, "host:cpu:0", device>
func.func @main(%a: !A) -> !A {
  %one = arith.constant 1.0 : f32
  %0 = usm.add %a, %one : (!A, f32) -> !A
  return %0 : !A
}

// -----

// The right values with the wrong dtype (a sum of i32 is i64).
// INPUT: a = np.array([1, 2, 3], np.int32)
// EXPECT: np.sum(a).astype(np.int32)
!A = !usm.array<3xi32, "host:cpu:0", device>
func.func @main(%a: !A) -> !usm.array<i64, "host:cpu:0", device> {
  %0 = usm.sum %a : !A -> !usm.array<i64, "host:cpu:0", device>
  return %0 : !usm.array<i64, "host:cpu:0", device>
}

// -----

// More results than EXPECT lines.
// INPUT: a = np.array([1.5], np.float64)
// EXPECT: a
!A = !usm.array<1xf64, "host:cpu:0", device>
func.func @main(%a: !A) -> (!A, !A) {
  return %a, %a : !A, !A
}

// -----

// Within tolerance: passes.
// INPUT: a = np.array([1, 2], np.float32)
// EXPECT: a * np.float32(1.000001)
!A = !usm.array<2xf32, "host:cpu:0", device>
func.func @main(%a: !A) -> !A {
  return %a : !A
}
