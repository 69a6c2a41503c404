// Arrays on two queues combined without a migration.
!A = !usm.array<4xf32, "host:cpu:0", device>
!B = !usm.array<4xf32, "host:cpu:0"("other"), device>
func.func @main(%a: !A, %b: !B) -> !A {
  %0 = usm.add %a, %b : (!A, !B) -> !A
  return %0 : !A
}
