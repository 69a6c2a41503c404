// Every op that takes complex elements, on complex<f32> and complex<f64>,
// compiles for every target: host (native object code), OpenCL and Level
// Zero (validated SPIR-V) and CUDA (PTX), fused and unfused.
// RUN: sed 's/QUEUE/host:cpu:0/g' %s | sluice-compile - --emit=obj -o %t.host.o
// RUN: sed 's/QUEUE/host:cpu:0/g' %s | sluice-compile - --emit=obj --no-fusion -O0 -o %t.host-unfused.o
// RUN: sed 's/QUEUE/opencl:cpu:0/g' %s | sluice-compile - --emit=mlir --stop-after=binaries | FileCheck %s --check-prefix=SPIRV
// RUN: sed 's/QUEUE/opencl:cpu:0/g' %s | sluice-compile - --emit=mlir --stop-after=binaries --no-fusion | FileCheck %s --check-prefix=SPIRV
// RUN: sed 's/QUEUE/level_zero:gpu:0/g' %s | sluice-compile - --emit=mlir --stop-after=binaries | FileCheck %s --check-prefix=SPIRV
// RUN: sed 's/QUEUE/cuda:gpu:0/g' %s | sluice-compile - --emit=mlir --stop-after=binaries | FileCheck %s --check-prefix=CUDA
// SPIRV: gpu.binary @sluice_spirv_kernels
// SPIRV-NOT: gpu.module @sluice_spirv_kernels
// CUDA: gpu.binary @sluice_cuda_kernels

func.func private @add_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>, %b: !usm.array<?xcomplex<f32>, "QUEUE", device>, %s: complex<f32>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.add %a, %b : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  %1 = usm.add %0, %s : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, complex<f32>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %1 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @sub_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>, %b: !usm.array<?xcomplex<f32>, "QUEUE", device>, %s: complex<f32>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.sub %a, %b : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  %1 = usm.sub %0, %s : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, complex<f32>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %1 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @mul_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>, %b: !usm.array<?xcomplex<f32>, "QUEUE", device>, %s: complex<f32>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.mul %a, %b : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  %1 = usm.mul %0, %s : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, complex<f32>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %1 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @div_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>, %b: !usm.array<?xcomplex<f32>, "QUEUE", device>, %s: complex<f32>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.div %a, %b : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  %1 = usm.div %0, %s : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, complex<f32>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %1 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @pow_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>, %b: !usm.array<?xcomplex<f32>, "QUEUE", device>, %s: complex<f32>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.pow %a, %b : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  %1 = usm.pow %0, %s : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, complex<f32>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %1 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @eq_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>, %b: !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device> {
  %0 = usm.eq %a, %b : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device>
  return %0 : !usm.array<?x?xi1, "QUEUE", device>
}

func.func private @ne_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>, %b: !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device> {
  %0 = usm.ne %a, %b : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device>
  return %0 : !usm.array<?x?xi1, "QUEUE", device>
}

func.func private @logical_and_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>, %b: !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device> {
  %0 = usm.logical_and %a, %b : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device>
  return %0 : !usm.array<?x?xi1, "QUEUE", device>
}

func.func private @logical_or_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>, %b: !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device> {
  %0 = usm.logical_or %a, %b : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device>
  return %0 : !usm.array<?x?xi1, "QUEUE", device>
}

func.func private @negative_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.negative %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @exp_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.exp %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @log_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.log %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @sqrt_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.sqrt %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @sin_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.sin %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @cos_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.cos %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @tanh_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.tanh %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @conj_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.conj %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @abs_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xf32, "QUEUE", device> {
  %0 = usm.abs %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xf32, "QUEUE", device>
  return %0 : !usm.array<?x?xf32, "QUEUE", device>
}

func.func private @real_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xf32, "QUEUE", device> {
  %0 = usm.real %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xf32, "QUEUE", device>
  return %0 : !usm.array<?x?xf32, "QUEUE", device>
}

func.func private @imag_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xf32, "QUEUE", device> {
  %0 = usm.imag %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xf32, "QUEUE", device>
  return %0 : !usm.array<?x?xf32, "QUEUE", device>
}

func.func private @angle_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xf32, "QUEUE", device> {
  %0 = usm.angle %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xf32, "QUEUE", device>
  return %0 : !usm.array<?x?xf32, "QUEUE", device>
}

func.func private @logical_not_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device> {
  %0 = usm.logical_not %a : (!usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device>
  return %0 : !usm.array<?x?xi1, "QUEUE", device>
}

func.func private @complex_f32(%a: !usm.array<?x?xf32, "QUEUE", device>, %b: !usm.array<?x?xf32, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.complex %a, %b : (!usm.array<?x?xf32, "QUEUE", device>, !usm.array<?x?xf32, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @where_f32(%c: !usm.array<?x?xi1, "QUEUE", device>, %a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>, %b: !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device> {
  %0 = usm.where %c, %a, %b : (!usm.array<?x?xi1, "QUEUE", device>, !usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @astype_f32(%v: !usm.array<?xcomplex<f32>, "QUEUE", device>) -> (!usm.array<?xi1, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xi8, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xui32, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xi64, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xf16, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xf32, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xf64, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>) {
  %x0 = usm.astype %v : !usm.array<?xcomplex<f32>, "QUEUE", device> to !usm.array<?xi1, "QUEUE", device>
  %y0 = usm.astype %x0 : !usm.array<?xi1, "QUEUE", device> to !usm.array<?xcomplex<f32>, "QUEUE", device>
  %x1 = usm.astype %v : !usm.array<?xcomplex<f32>, "QUEUE", device> to !usm.array<?xi8, "QUEUE", device>
  %y1 = usm.astype %x1 : !usm.array<?xi8, "QUEUE", device> to !usm.array<?xcomplex<f32>, "QUEUE", device>
  %x2 = usm.astype %v : !usm.array<?xcomplex<f32>, "QUEUE", device> to !usm.array<?xui32, "QUEUE", device>
  %y2 = usm.astype %x2 : !usm.array<?xui32, "QUEUE", device> to !usm.array<?xcomplex<f32>, "QUEUE", device>
  %x3 = usm.astype %v : !usm.array<?xcomplex<f32>, "QUEUE", device> to !usm.array<?xi64, "QUEUE", device>
  %y3 = usm.astype %x3 : !usm.array<?xi64, "QUEUE", device> to !usm.array<?xcomplex<f32>, "QUEUE", device>
  %x4 = usm.astype %v : !usm.array<?xcomplex<f32>, "QUEUE", device> to !usm.array<?xf16, "QUEUE", device>
  %y4 = usm.astype %x4 : !usm.array<?xf16, "QUEUE", device> to !usm.array<?xcomplex<f32>, "QUEUE", device>
  %x5 = usm.astype %v : !usm.array<?xcomplex<f32>, "QUEUE", device> to !usm.array<?xf32, "QUEUE", device>
  %y5 = usm.astype %x5 : !usm.array<?xf32, "QUEUE", device> to !usm.array<?xcomplex<f32>, "QUEUE", device>
  %x6 = usm.astype %v : !usm.array<?xcomplex<f32>, "QUEUE", device> to !usm.array<?xf64, "QUEUE", device>
  %y6 = usm.astype %x6 : !usm.array<?xf64, "QUEUE", device> to !usm.array<?xcomplex<f32>, "QUEUE", device>
  %x8 = usm.astype %v : !usm.array<?xcomplex<f32>, "QUEUE", device> to !usm.array<?xcomplex<f64>, "QUEUE", device>
  %y8 = usm.astype %x8 : !usm.array<?xcomplex<f64>, "QUEUE", device> to !usm.array<?xcomplex<f32>, "QUEUE", device>
  return %x0, %y0, %x1, %y1, %x2, %y2, %x3, %y3, %x4, %y4, %x5, %y5, %x6, %y6, %x8, %y8 : !usm.array<?xi1, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xi8, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xui32, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xi64, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xf16, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xf32, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xf64, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>
}

func.func private @sum_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>) -> (!usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<complex<f32>, "QUEUE", device>, !usm.array<?x1xcomplex<f32>, "QUEUE", device>) {
  %0 = usm.sum %a axes [1] : !usm.array<?x?xcomplex<f32>, "QUEUE", device> -> !usm.array<?xcomplex<f32>, "QUEUE", device>
  %1 = usm.sum %a : !usm.array<?x?xcomplex<f32>, "QUEUE", device> -> !usm.array<complex<f32>, "QUEUE", device>
  %2 = usm.sum %a axes [1] keepdims : !usm.array<?x?xcomplex<f32>, "QUEUE", device> -> !usm.array<?x1xcomplex<f32>, "QUEUE", device>
  return %0, %1, %2 : !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<complex<f32>, "QUEUE", device>, !usm.array<?x1xcomplex<f32>, "QUEUE", device>
}

func.func private @creation_f32(%n: index, %c: complex<f32>) -> (!usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<2xcomplex<f32>, "QUEUE", device>, !usm.array<2xcomplex<f32>, "QUEUE", device>) {
  %0 = usm.empty(%n) : !usm.array<?xcomplex<f32>, "QUEUE", device>
  %1 = usm.full %c (%n) : complex<f32> -> !usm.array<?xcomplex<f32>, "QUEUE", device>
  %2 = usm.constant dense<(1.5, -2.0)> : tensor<2xcomplex<f32>> -> !usm.array<2xcomplex<f32>, "QUEUE", device>
  %3 = usm.constant dense<[(1.5, -2.0), (0.0, 3.0)]> : tensor<2xcomplex<f32>> -> !usm.array<2xcomplex<f32>, "QUEUE", device>
  return %0, %1, %2, %3 : !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<2xcomplex<f32>, "QUEUE", device>, !usm.array<2xcomplex<f32>, "QUEUE", device>
}

func.func private @shape_f32(%a: !usm.array<?x?xcomplex<f32>, "QUEUE", device>, %b: !usm.array<?xcomplex<f32>, "QUEUE", device>, %n: index) -> (!usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?x?xcomplex<f32>, "QUEUE", device>) {
  %0 = usm.broadcast_to %b (%n, %n) : !usm.array<?xcomplex<f32>, "QUEUE", device> -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  %1 = usm.reshape %a (%n) : !usm.array<?x?xcomplex<f32>, "QUEUE", device> -> !usm.array<?xcomplex<f32>, "QUEUE", device>
  %2 = usm.transpose %a [1, 0] : !usm.array<?x?xcomplex<f32>, "QUEUE", device> -> !usm.array<?x?xcomplex<f32>, "QUEUE", device>
  return %0, %1, %2 : !usm.array<?x?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?x?xcomplex<f32>, "QUEUE", device>
}

func.func private @copies_f32(%a: !usm.array<?xcomplex<f32>, "QUEUE", device>, %m: memref<?xcomplex<f32>>) -> (!usm.array<?xcomplex<f32>, "host:cpu:0", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, memref<?xcomplex<f32>>) {
  %0 = usm.to_device %a : !usm.array<?xcomplex<f32>, "QUEUE", device> -> !usm.array<?xcomplex<f32>, "host:cpu:0", device>
  %1 = usm.from_host %m : memref<?xcomplex<f32>> -> !usm.array<?xcomplex<f32>, "QUEUE", device>
  %2 = usm.to_host %a : !usm.array<?xcomplex<f32>, "QUEUE", device> -> memref<?xcomplex<f32>>
  return %0, %1, %2 : !usm.array<?xcomplex<f32>, "host:cpu:0", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, memref<?xcomplex<f32>>
}

func.func private @add_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>, %b: !usm.array<?xcomplex<f64>, "QUEUE", device>, %s: complex<f64>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.add %a, %b : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  %1 = usm.add %0, %s : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, complex<f64>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %1 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @sub_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>, %b: !usm.array<?xcomplex<f64>, "QUEUE", device>, %s: complex<f64>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.sub %a, %b : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  %1 = usm.sub %0, %s : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, complex<f64>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %1 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @mul_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>, %b: !usm.array<?xcomplex<f64>, "QUEUE", device>, %s: complex<f64>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.mul %a, %b : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  %1 = usm.mul %0, %s : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, complex<f64>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %1 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @div_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>, %b: !usm.array<?xcomplex<f64>, "QUEUE", device>, %s: complex<f64>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.div %a, %b : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  %1 = usm.div %0, %s : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, complex<f64>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %1 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @pow_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>, %b: !usm.array<?xcomplex<f64>, "QUEUE", device>, %s: complex<f64>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.pow %a, %b : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  %1 = usm.pow %0, %s : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, complex<f64>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %1 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @eq_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>, %b: !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device> {
  %0 = usm.eq %a, %b : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device>
  return %0 : !usm.array<?x?xi1, "QUEUE", device>
}

func.func private @ne_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>, %b: !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device> {
  %0 = usm.ne %a, %b : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device>
  return %0 : !usm.array<?x?xi1, "QUEUE", device>
}

func.func private @logical_and_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>, %b: !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device> {
  %0 = usm.logical_and %a, %b : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device>
  return %0 : !usm.array<?x?xi1, "QUEUE", device>
}

func.func private @logical_or_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>, %b: !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device> {
  %0 = usm.logical_or %a, %b : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device>
  return %0 : !usm.array<?x?xi1, "QUEUE", device>
}

func.func private @negative_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.negative %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @exp_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.exp %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @log_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.log %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @sqrt_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.sqrt %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @sin_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.sin %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @cos_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.cos %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @tanh_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.tanh %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @conj_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.conj %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @abs_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xf64, "QUEUE", device> {
  %0 = usm.abs %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xf64, "QUEUE", device>
  return %0 : !usm.array<?x?xf64, "QUEUE", device>
}

func.func private @real_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xf64, "QUEUE", device> {
  %0 = usm.real %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xf64, "QUEUE", device>
  return %0 : !usm.array<?x?xf64, "QUEUE", device>
}

func.func private @imag_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xf64, "QUEUE", device> {
  %0 = usm.imag %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xf64, "QUEUE", device>
  return %0 : !usm.array<?x?xf64, "QUEUE", device>
}

func.func private @angle_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xf64, "QUEUE", device> {
  %0 = usm.angle %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xf64, "QUEUE", device>
  return %0 : !usm.array<?x?xf64, "QUEUE", device>
}

func.func private @logical_not_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device> {
  %0 = usm.logical_not %a : (!usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xi1, "QUEUE", device>
  return %0 : !usm.array<?x?xi1, "QUEUE", device>
}

func.func private @complex_f64(%a: !usm.array<?x?xf64, "QUEUE", device>, %b: !usm.array<?x?xf64, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.complex %a, %b : (!usm.array<?x?xf64, "QUEUE", device>, !usm.array<?x?xf64, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @where_f64(%c: !usm.array<?x?xi1, "QUEUE", device>, %a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>, %b: !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device> {
  %0 = usm.where %c, %a, %b : (!usm.array<?x?xi1, "QUEUE", device>, !usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>) -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %0 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @astype_f64(%v: !usm.array<?xcomplex<f64>, "QUEUE", device>) -> (!usm.array<?xi1, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xi8, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xui32, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xi64, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xf16, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xf32, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xf64, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>) {
  %x0 = usm.astype %v : !usm.array<?xcomplex<f64>, "QUEUE", device> to !usm.array<?xi1, "QUEUE", device>
  %y0 = usm.astype %x0 : !usm.array<?xi1, "QUEUE", device> to !usm.array<?xcomplex<f64>, "QUEUE", device>
  %x1 = usm.astype %v : !usm.array<?xcomplex<f64>, "QUEUE", device> to !usm.array<?xi8, "QUEUE", device>
  %y1 = usm.astype %x1 : !usm.array<?xi8, "QUEUE", device> to !usm.array<?xcomplex<f64>, "QUEUE", device>
  %x2 = usm.astype %v : !usm.array<?xcomplex<f64>, "QUEUE", device> to !usm.array<?xui32, "QUEUE", device>
  %y2 = usm.astype %x2 : !usm.array<?xui32, "QUEUE", device> to !usm.array<?xcomplex<f64>, "QUEUE", device>
  %x3 = usm.astype %v : !usm.array<?xcomplex<f64>, "QUEUE", device> to !usm.array<?xi64, "QUEUE", device>
  %y3 = usm.astype %x3 : !usm.array<?xi64, "QUEUE", device> to !usm.array<?xcomplex<f64>, "QUEUE", device>
  %x4 = usm.astype %v : !usm.array<?xcomplex<f64>, "QUEUE", device> to !usm.array<?xf16, "QUEUE", device>
  %y4 = usm.astype %x4 : !usm.array<?xf16, "QUEUE", device> to !usm.array<?xcomplex<f64>, "QUEUE", device>
  %x5 = usm.astype %v : !usm.array<?xcomplex<f64>, "QUEUE", device> to !usm.array<?xf32, "QUEUE", device>
  %y5 = usm.astype %x5 : !usm.array<?xf32, "QUEUE", device> to !usm.array<?xcomplex<f64>, "QUEUE", device>
  %x6 = usm.astype %v : !usm.array<?xcomplex<f64>, "QUEUE", device> to !usm.array<?xf64, "QUEUE", device>
  %y6 = usm.astype %x6 : !usm.array<?xf64, "QUEUE", device> to !usm.array<?xcomplex<f64>, "QUEUE", device>
  %x7 = usm.astype %v : !usm.array<?xcomplex<f64>, "QUEUE", device> to !usm.array<?xcomplex<f32>, "QUEUE", device>
  %y7 = usm.astype %x7 : !usm.array<?xcomplex<f32>, "QUEUE", device> to !usm.array<?xcomplex<f64>, "QUEUE", device>
  return %x0, %y0, %x1, %y1, %x2, %y2, %x3, %y3, %x4, %y4, %x5, %y5, %x6, %y6, %x7, %y7 : !usm.array<?xi1, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xi8, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xui32, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xi64, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xf16, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xf32, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xf64, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f32>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>
}

func.func private @sum_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>) -> (!usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<complex<f64>, "QUEUE", device>, !usm.array<?x1xcomplex<f64>, "QUEUE", device>) {
  %0 = usm.sum %a axes [1] : !usm.array<?x?xcomplex<f64>, "QUEUE", device> -> !usm.array<?xcomplex<f64>, "QUEUE", device>
  %1 = usm.sum %a : !usm.array<?x?xcomplex<f64>, "QUEUE", device> -> !usm.array<complex<f64>, "QUEUE", device>
  %2 = usm.sum %a axes [1] keepdims : !usm.array<?x?xcomplex<f64>, "QUEUE", device> -> !usm.array<?x1xcomplex<f64>, "QUEUE", device>
  return %0, %1, %2 : !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<complex<f64>, "QUEUE", device>, !usm.array<?x1xcomplex<f64>, "QUEUE", device>
}

func.func private @creation_f64(%n: index, %c: complex<f64>) -> (!usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<2xcomplex<f64>, "QUEUE", device>, !usm.array<2xcomplex<f64>, "QUEUE", device>) {
  %0 = usm.empty(%n) : !usm.array<?xcomplex<f64>, "QUEUE", device>
  %1 = usm.full %c (%n) : complex<f64> -> !usm.array<?xcomplex<f64>, "QUEUE", device>
  %2 = usm.constant dense<(1.5, -2.0)> : tensor<2xcomplex<f64>> -> !usm.array<2xcomplex<f64>, "QUEUE", device>
  %3 = usm.constant dense<[(1.5, -2.0), (0.0, 3.0)]> : tensor<2xcomplex<f64>> -> !usm.array<2xcomplex<f64>, "QUEUE", device>
  return %0, %1, %2, %3 : !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<2xcomplex<f64>, "QUEUE", device>, !usm.array<2xcomplex<f64>, "QUEUE", device>
}

func.func private @shape_f64(%a: !usm.array<?x?xcomplex<f64>, "QUEUE", device>, %b: !usm.array<?xcomplex<f64>, "QUEUE", device>, %n: index) -> (!usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?x?xcomplex<f64>, "QUEUE", device>) {
  %0 = usm.broadcast_to %b (%n, %n) : !usm.array<?xcomplex<f64>, "QUEUE", device> -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  %1 = usm.reshape %a (%n) : !usm.array<?x?xcomplex<f64>, "QUEUE", device> -> !usm.array<?xcomplex<f64>, "QUEUE", device>
  %2 = usm.transpose %a [1, 0] : !usm.array<?x?xcomplex<f64>, "QUEUE", device> -> !usm.array<?x?xcomplex<f64>, "QUEUE", device>
  return %0, %1, %2 : !usm.array<?x?xcomplex<f64>, "QUEUE", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, !usm.array<?x?xcomplex<f64>, "QUEUE", device>
}

func.func private @copies_f64(%a: !usm.array<?xcomplex<f64>, "QUEUE", device>, %m: memref<?xcomplex<f64>>) -> (!usm.array<?xcomplex<f64>, "host:cpu:0", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, memref<?xcomplex<f64>>) {
  %0 = usm.to_device %a : !usm.array<?xcomplex<f64>, "QUEUE", device> -> !usm.array<?xcomplex<f64>, "host:cpu:0", device>
  %1 = usm.from_host %m : memref<?xcomplex<f64>> -> !usm.array<?xcomplex<f64>, "QUEUE", device>
  %2 = usm.to_host %a : !usm.array<?xcomplex<f64>, "QUEUE", device> -> memref<?xcomplex<f64>>
  return %0, %1, %2 : !usm.array<?xcomplex<f64>, "host:cpu:0", device>, !usm.array<?xcomplex<f64>, "QUEUE", device>, memref<?xcomplex<f64>>
}
