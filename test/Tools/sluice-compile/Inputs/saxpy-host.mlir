!X = !usm.array<4xf32, "host:cpu:0", device>
func.func @main(%a: f32, %x: !X, %y: !X) -> !X {
  %ax = usm.mul %x, %a : (!X, f32) -> !X
  %r = usm.add %ax, %y : (!X, !X) -> !X
  return %r : !X
}
