// An entry whose arrays are unplaced: nothing says where they live.
!U = !usm.array<4xf32, ?>
func.func @main(%a: !U) -> !U {
  %0 = usm.exp %a : (!U) -> !U
  return %0 : !U
}
