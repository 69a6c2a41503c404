// @main(4xf32 on host:cpu:0, f32) -> 4xf32: the program of bad-inputs.test.
!A = !usm.array<4xf32, "host:cpu:0", device>
func.func @main(%a: !A, %s: f32) -> !A {
  %0 = usm.add %a, %s : (!A, f32) -> !A
  return %0 : !A
}
