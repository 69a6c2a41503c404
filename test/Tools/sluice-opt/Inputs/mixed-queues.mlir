!A = !usm.array<4xf32, "opencl:cpu:0", device>
!B = !usm.array<4xf32, "host:cpu:0", device>
// Two arrays on different queues: compute-follows-data has no answer.
func.func @f(%a: !A, %b: !B) -> !A {
  %0 = usm.add %a, %b : (!A, !B) -> !A
  return %0 : !A
}
