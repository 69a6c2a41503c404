// The 10-op function whose compile time bench/run-gpu.sh measures (the same
// expression as DESIGN.md's JAX figure):
// tanh(a*b + 1.5) * exp(b) - a/b + sqrt(|a|) * 2.
!A = !usm.array<?xf32, "cuda:gpu:0", device>
func.func @ten(%a: !A, %b: !A) -> !A {
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
