// Programs whose error expectations are wrong on purpose (check.test).

// NumPy raises (the shapes do not broadcast) but the program runs.
// INPUT: a = rand(3, 'f32')
// INPUT: b = rand(4, 'f32')
// EXPECT: a + b
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> !A {
  return %a : !A
}

// -----

// The run fails as it should, but not with the message ERROR asks for.
// ERROR: f"shapes ({n},) and ({n + 1},) differ"
// FOR: n in [3]
// INPUT: a = rand(n, 'f32')
// INPUT: b = rand(n + 1, 'f32')
// EXPECT: a + b
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> !A {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  return %0 : !A
}

// -----

// NumPy's own message, which the run gives: no failure.
// INPUT: a = rand(3, 'f32')
// INPUT: b = rand(4, 'f32')
// EXPECT: a + b
!A = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !A, %b: !A) -> !A {
  %0 = usm.add %a, %b : (!A, !A) -> !A
  return %0 : !A
}
