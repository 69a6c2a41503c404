// A small array program in the usm dialect: y = a*x + y on the first
// OpenCL CPU device, a mean of the result, and the result migrated to the
// host for printing. Run it through the pipeline with:
//   build/bin/sluice-opt --usm-verify-placement --canonicalize --usm-fuse-elementwise examples/saxpy.mlir
!X = !usm.array<1024xf32, "opencl:cpu:0", device>
!H = !usm.array<1024xf32, "host:cpu:0", shared>

func.func @saxpy(%a: f32, %x: !X, %y: !X) -> (!H, !usm.array<f32, "opencl:cpu:0", device>) {
  %ax = usm.mul %x, %a : (!X, f32) -> !X
  %r = usm.add %ax, %y : (!X, !X) -> !X
  %n = arith.constant 1024.0 : f32
  %s = usm.sum %r : !X -> !usm.array<f32, "opencl:cpu:0", device>
  %mean = usm.div %s, %n : (!usm.array<f32, "opencl:cpu:0", device>, f32) -> !usm.array<f32, "opencl:cpu:0", device>
  // Migrations fold at compile time: this round trip disappears.
  %back = usm.to_device %r : !X -> !H
  %there = usm.to_device %back : !H -> !X
  %h = usm.to_device %there : !X -> !H
  return %h, %mean : !H, !usm.array<f32, "opencl:cpu:0", device>
}
