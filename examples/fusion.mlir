// The example of docs/fusion.md: a chain on the OpenCL CPU queue, a
// migration to a GPU, and a chain with a reduction there.
//   sluice-opt --usm-fuse-elementwise=report examples/fusion.mlir
//   sluice-opt --usm-fuse-elementwise --usm-view-graph=output=fusion.dot examples/fusion.mlir
//   dot -Tpng fusion.dot -o docs/images/fusion-example.png
!A = !usm.array<1048576xf32, "opencl:cpu:0", device>
!G = !usm.array<1048576xf32, "level_zero:gpu:0", device>
!S = !usm.array<f32, "level_zero:gpu:0", device>
func.func @pipeline(%a: !A, %b: !A, %s: f32) -> (!A, !S) {
  %0 = usm.mul %a, %s : (!A, f32) -> !A
  %1 = usm.add %0, %b : (!A, !A) -> !A
  %2 = usm.exp %1 : (!A) -> !A
  %3 = usm.to_device %2 : !A -> !G
  %4 = usm.sin %3 : (!G) -> !G
  %5 = usm.mul %4, %4 : (!G, !G) -> !G
  %6 = usm.sum %5 : !G -> !S
  %7 = usm.cos %1 : (!A) -> !A
  return %7, %6 : !A, !S
}
