// RUN: sluice-opt %s --split-input-file --usm-expand-contractions | FileCheck %s --check-prefix=KEEP
// RUN: sluice-opt %s --split-input-file --usm-expand-contractions --usm-fuse-elementwise --convert-usm-to-linalg | FileCheck %s --check-prefix=BUF
// RUN: sluice-opt %s --split-input-file --sluice-compile-program | FileCheck %s --check-prefix=CALL
// RUN: sluice-opt %s --split-input-file --usm-expand-contractions=library-min-size=1000000 | FileCheck %s --check-prefix=SMALL

// Products a library computes (host and CUDA queues, f32/f64, at least
// library-min-size multiply-adds, batch axes the result's or all 1) stay
// usm.matmul, become usm.library_matmul on buffers and then one
// sluiceProgramMatmul call; the epilogue still fuses into one kernel.

!A = !usm.array<64x32xf32, "host:cpu:0", device>
!B = !usm.array<32x16xf32, "host:cpu:0", device>
!V = !usm.array<16xf32, "host:cpu:0", device>
!C = !usm.array<64x16xf32, "host:cpu:0", device>
// KEEP-LABEL: func.func @dense
// KEEP: usm.matmul
// KEEP-NOT: usm.sum
// BUF-LABEL: func.func @dense
// BUF: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x16xf32, #usm.placement<"host:cpu:0", device>>
// BUF: usm.library_matmul %arg0, %arg1, %[[OUT]] : memref<64x32xf32, {{.*}}>, memref<32x16xf32, {{.*}}>, memref<64x16xf32, {{.*}}>
// BUF: linalg.generic
// BUF-NOT: linalg.generic
// CALL: llvm.func @sluiceProgramMatmul(!llvm.ptr, i32, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64)
// CALL-LABEL: llvm.func internal @dense
// type 0 (f32), batch 1, m 64, n 16, k 32
// CALL-DAG: %[[T:.*]] = llvm.mlir.constant(0 : i32) : i32
// CALL-DAG: %[[M:.*]] = llvm.mlir.constant(64 : i64) : i64
// CALL-DAG: %[[N:.*]] = llvm.mlir.constant(16 : i64) : i64
// CALL-DAG: %[[K:.*]] = llvm.mlir.constant(32 : i64) : i64
// CALL: llvm.call @sluiceProgramMatmul(%{{.*}}, %[[T]], %{{.*}}, %[[M]], %[[N]], %[[K]],
// CALL: sluiceProgramLaunchHost
// SMALL-LABEL: func.func @dense
// SMALL-NOT: usm.matmul
// SMALL: usm.sum
func.func @dense(%a: !A, %b: !B, %bias: !V) -> !C {
  %zero = arith.constant 0.0 : f32
  %c = usm.matmul %a, %b : (!A, !B) -> !C
  %d = usm.add %c, %bias : (!C, !V) -> !C
  %r = usm.maximum %d, %zero : (!C, f32) -> !C
  return %r : !C
}

// -----

// A batched product on CUDA with the first operand broadcast over the
// batch (batch stride 0) in f64 (type 1).
!X = !usm.array<1x32x64xf64, "cuda:gpu:0", device>
!Y = !usm.array<4x64x16xf64, "cuda:gpu:0", device>
!Z = !usm.array<4x32x16xf64, "cuda:gpu:0", device>
// KEEP-LABEL: func.func @batched
// KEEP: usm.matmul
// BUF-LABEL: func.func @batched
// BUF: usm.library_matmul
// CALL-LABEL: llvm.func internal @batched
// CALL-DAG: %[[T:.*]] = llvm.mlir.constant(1 : i32) : i32
// CALL-DAG: %[[B:.*]] = llvm.mlir.constant(4 : i64) : i64
// CALL-DAG: %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
// CALL: llvm.call @sluiceProgramMatmul(%{{.*}}, %[[T]], %[[B]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[Z]],
func.func @batched(%x: !X, %y: !Y) -> !Z {
  %z = usm.matmul %x, %y : (!X, !Y) -> !Z
  return %z : !Z
}

// -----

// Kept as generated kernels: an OpenCL queue, integer elements, and batch
// axes that broadcast partly ((2, 1) against (1, 3)).
!O = !usm.array<64x64xf32, "opencl:cpu:0", device>
!I = !usm.array<64x64xi32, "host:cpu:0", device>
!P = !usm.array<2x1x16x16xf32, "host:cpu:0", device>
!Q = !usm.array<1x3x16x16xf32, "host:cpu:0", device>
!R = !usm.array<2x3x16x16xf32, "host:cpu:0", device>
// KEEP-LABEL: func.func @expanded
// KEEP-NOT: usm.matmul
// BUF-LABEL: func.func @expanded
// BUF-NOT: usm.library_matmul
// CALL-LABEL: llvm.func internal @expanded
// CALL-NOT: sluiceProgramMatmul
// CALL: llvm.return
func.func @expanded(%a: !O, %i: !I, %p: !P, %q: !Q) -> (!O, !I, !R) {
  %c = usm.matmul %a, %a : (!O, !O) -> !O
  %k = usm.matmul %i, %i : (!I, !I) -> !I
  %r = usm.matmul %p, %q : (!P, !Q) -> !R
  return %c, %k, %r : !O, !I, !R
}
