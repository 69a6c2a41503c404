// x * a + b on cuda:gpu:0, for test_dlpack_cuda.py where the package has no
// compiler: bench/run-gpu.sh compiles it with
// `sluice-compile --device=cuda:gpu:0`.
!A = !usm.array<?xf32, "cuda:gpu:0", device>

func.func @axpb(%x: !A, %a: f32, %b: f32) -> !A {
  %0 = usm.mul %x, %a : (!A, f32) -> !A
  %r = usm.add %0, %b : (!A, f32) -> !A
  return %r : !A
}
