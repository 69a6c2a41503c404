// The Sluice side of bench/gpu.py: DESIGN.md's GPU expressions on the
// canonical queue of cuda:gpu:0 (device memory), for any size.
// bench/run-gpu.sh compiles this file to bench.so.
!A = !usm.array<?xf32, "cuda:gpu:0", device>
// The copy is a migration to another queue of the same device (the one op
// that copies; a copy to the same type folds away): a device-to-device
// cuMemcpyAsync.
!B = !usm.array<?xf32, "cuda:gpu:0"("copy"), device>
!S = !usm.array<f32, "cuda:gpu:0", device>

func.func @copy(%a: !A) -> !B {
  %r = usm.to_device %a : !A -> !B
  return %r : !B
}

func.func @axpy(%a: !A, %b: !A, %c: !A, %d: !A) -> !A {
  %0 = usm.mul %a, %b : (!A, !A) -> !A
  %1 = usm.mul %c, %d : (!A, !A) -> !A
  %2 = usm.add %0, %1 : (!A, !A) -> !A
  %r = usm.sub %2, %a : (!A, !A) -> !A
  return %r : !A
}

func.func @transcendental(%a: !A, %b: !A) -> !A {
  %0 = usm.mul %a, %a : (!A, !A) -> !A
  %1 = usm.negative %0 : (!A) -> !A
  %2 = usm.exp %1 : (!A) -> !A
  %3 = usm.sin %b : (!A) -> !A
  %4 = usm.mul %2, %3 : (!A, !A) -> !A
  %5 = usm.abs %a : (!A) -> !A
  %6 = usm.sqrt %5 : (!A) -> !A
  %r = usm.add %4, %6 : (!A, !A) -> !A
  return %r : !A
}

func.func @sum(%a: !A) -> !S {
  %r = usm.sum %a : !A -> !S
  return %r : !S
}
