// A numerically stable softmax on the host CPU: the largest value is
// subtracted before exponentiating, and the result sums to 1.
//   build/bin/sluice-run examples/softmax.mlir --input="8xf32=[1 2 3 4 1 2 3 4]"
//   build/bin/sluice-run examples/softmax.mlir --device=opencl:cpu:0 --input=...
// `--device` runs the same program on another device (here PoCL's OpenCL CPU).
!V = !usm.array<?xf32, "host:cpu:0", device>
!S = !usm.array<f32, "host:cpu:0", device>
func.func @main(%x: !V) -> !V {
  %m = usm.max %x : !V -> !S
  %d = usm.sub %x, %m : (!V, !S) -> !V
  %e = usm.exp %d : (!V) -> !V
  %s = usm.sum %e : !V -> !S
  %y = usm.div %e, %s : (!V, !S) -> !V
  return %y : !V
}
