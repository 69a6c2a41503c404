// RUN: sluice-opt %s | FileCheck %s
// Round trip: the printed form parses back to the same IR.
// RUN: sluice-opt %s | sluice-opt | FileCheck %s
// The generic form round-trips too.
// RUN: sluice-opt %s -mlir-print-op-generic | sluice-opt | FileCheck %s

!D = !usm.array<4x3xf32, "opencl:cpu:0", device>
!R = !usm.array<3xf32, "opencl:cpu:0", device>
!S = !usm.array<3xf32, "opencl:cpu:0", shared>
!H = !usm.array<4x3xf32, "opencl:cpu:0", host>
!M = !usm.array<4x3xi1, "opencl:cpu:0", device>

// CHECK-LABEL: func.func @types
// CHECK-SAME: !usm.array<4x3xf32, "opencl:cpu:0", device>
// CHECK-SAME: !usm.array<?x?xi64, "level_zero:gpu:1", shared>
// CHECK-SAME: !usm.array<f64, "host:cpu:0", host>
// CHECK-SAME: !usm.array<2xui8, "*:gpu:0"("worker"), device>
// CHECK-SAME: !usm.array<0x5xbf16, "cuda:gpu:0", device>
// CHECK-SAME: !usm.array<8xf16, "*:*:2", device>
// CHECK-SAME: !usm.array<8xi1, "opencl:accelerator:0", shared>
// CHECK-SAME: !usm.array<8xi8, "host:cpu:0", device>
// CHECK-SAME: !usm.array<8xi16, "*:cpu:0", device>
// CHECK-SAME: !usm.array<8xui16, "level_zero:*:0", device>
// CHECK-SAME: !usm.array<8xui32, "opencl:*:0", device>
// CHECK-SAME: !usm.array<8xui64, "opencl:cpu:0", device>
func.func @types(%a: !usm.array<4x3xf32, "opencl:cpu:0", device>,
                 %b: !usm.array<?x?xi64, "level_zero:gpu:1", shared>,
                 %c: !usm.array<f64, "native_cpu", host>,
                 %d: !usm.array<2xui8, "gpu"("worker"), device>,
                 %e: !usm.array<0x5xbf16, "cuda:gpu", device>,
                 %f: !usm.array<8xf16, "2", device>,
                 %g: !usm.array<8xi1, "opencl:accelerator", shared>,
                 %h: !usm.array<8xi8, "HOST", device>,
                 %i: !usm.array<8xi16, "cpu", device>,
                 %j: !usm.array<8xui16, "level_zero", device>,
                 %k: !usm.array<8xui32, "opencl:*:0", device>,
                 %l: !usm.array<8xui64, "opencl:cpu:0", device>) {
  return
}

// Unplaced arrays (`?`): no queue and no USM kind yet. They follow the
// placed operands they meet; an op of unplaced operands only is unplaced.
// CHECK-LABEL: func.func @unplaced
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %{{.*}}: !usm.array<4xf32, "opencl:cpu:0", shared>, %{{.*}}: f32)
func.func @unplaced(%m: memref<4xf32>, %a: !usm.array<4xf32, "opencl:cpu:0", shared>, %s: f32) {
  // CHECK: usm.from_host %{{.*}} : memref<4xf32> -> !usm.array<4xf32, ?>
  %h = usm.from_host %m : memref<4xf32> -> !usm.array<4xf32, ?>
  // CHECK: usm.full %{{.*}} : f32 -> !usm.array<4xf32, ?>
  %f = usm.full %s : f32 -> !usm.array<4xf32, ?>
  // CHECK: usm.mul %{{.*}}, %{{.*}} : (!usm.array<4xf32, ?>, !usm.array<4xf32, ?>) -> !usm.array<4xf32, ?>
  %p = usm.mul %h, %f : (!usm.array<4xf32, ?>, !usm.array<4xf32, ?>) -> !usm.array<4xf32, ?>
  // The placed operand decides queue and kind.
  // CHECK: usm.add %{{.*}}, %{{.*}} : (!usm.array<4xf32, ?>, !usm.array<4xf32, "opencl:cpu:0", shared>) -> !usm.array<4xf32, "opencl:cpu:0", shared>
  %r = usm.add %p, %a : (!usm.array<4xf32, ?>, !usm.array<4xf32, "opencl:cpu:0", shared>) -> !usm.array<4xf32, "opencl:cpu:0", shared>
  // CHECK: usm.sum %{{.*}} : !usm.array<4xf32, ?> -> !usm.array<f32, ?>
  %t = usm.sum %p : !usm.array<4xf32, ?> -> !usm.array<f32, ?>
  // CHECK: usm.to_device %{{.*}} : !usm.array<4xf32, ?> -> !usm.array<4xf32, "level_zero:gpu:0", device>
  %d = usm.to_device %h : !usm.array<4xf32, ?> -> !usm.array<4xf32, "level_zero:gpu:0", device>
  return
}

// CHECK-LABEL: func.func @queue_attrs
// CHECK: kind = #usm.kind<shared>
// CHECK-SAME: named = #usm.queue<"opencl:cpu:0", "worker">
// CHECK-SAME: placement = #usm.placement<"opencl:cpu:0"("w"), host>
// CHECK-SAME: queue = #usm.queue<"level_zero:gpu:0">
// CHECK-SAME: wild = #usm.queue<"*:gpu:0">
func.func @queue_attrs() attributes {
    queue = #usm.queue<"level_zero:gpu:0">,
    named = #usm.queue<"opencl:cpu", "worker">,
    wild = #usm.queue<"gpu">,
    kind = #usm.kind<shared>,
    placement = #usm.placement<"opencl:cpu"("w"), host>} {
  return
}

// CHECK-LABEL: func.func @creation
func.func @creation(%n: index, %f: f32, %i: i64, %u: i32) {
  // CHECK: usm.empty(%{{.*}}) : !usm.array<?x3xf32, "opencl:cpu:0", device>
  %0 = usm.empty(%n) : !usm.array<?x3xf32, "opencl:cpu:0", device>
  // CHECK: usm.empty() : !usm.array<4x3xf32, "opencl:cpu:0", device>
  %1 = usm.empty() : !D
  // CHECK: usm.full %{{.*}} : f32 -> !usm.array<4x3xf32, "opencl:cpu:0", device>
  %2 = usm.full %f : f32 -> !D
  // CHECK: usm.full %{{.*}}(%{{.*}}) : f32 -> !usm.array<?xf32, "opencl:cpu:0", host>
  %3 = usm.full %f (%n) : f32 -> !usm.array<?xf32, "opencl:cpu:0", host>
  // CHECK: usm.full %{{.*}} : i32 -> !usm.array<5xui32, "opencl:cpu:0", device>
  %4 = usm.full %u : i32 -> !usm.array<5xui32, "opencl:cpu:0", device>
  // CHECK: usm.arange %{{.*}}, %{{.*}} : f32 -> !usm.array<16xf32, "opencl:cpu:0", device>
  %5 = usm.arange %f, %f : f32 -> !usm.array<16xf32, "opencl:cpu:0", device>
  // CHECK: usm.arange %{{.*}}, %{{.*}}(%{{.*}}) : i64 -> !usm.array<?xi64, "opencl:cpu:0", device>
  %6 = usm.arange %i, %i (%n) : i64 -> !usm.array<?xi64, "opencl:cpu:0", device>
  // CHECK: usm.constant dense<{{\[}}1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32> -> !usm.array<3xf32, "opencl:cpu:0", device>
  %7 = usm.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> -> !R
  // CHECK: usm.constant dense<7> : tensor<2x2xui16> -> !usm.array<2x2xui16, "host:cpu:0", host>
  %8 = usm.constant dense<7> : tensor<2x2xui16> -> !usm.array<2x2xui16, "host", host>
  return
}

// CHECK-LABEL: func.func @host_boundary
func.func @host_boundary(%m: memref<?x3xf32>, %t: tensor<4x3xf32>) -> (memref<4x3xf32>, tensor<?x3xf32>) {
  // CHECK: usm.from_host %{{.*}} : memref<?x3xf32> -> !usm.array<?x3xf32, "opencl:cpu:0", device>
  %a = usm.from_host %m : memref<?x3xf32> -> !usm.array<?x3xf32, "opencl:cpu:0", device>
  // CHECK: usm.from_host %{{.*}} : tensor<4x3xf32> -> !usm.array<4x3xf32, "opencl:cpu:0", device>
  %b = usm.from_host %t : tensor<4x3xf32> -> !D
  // CHECK: usm.to_host %{{.*}} : !usm.array<4x3xf32, "opencl:cpu:0", device> -> memref<4x3xf32>
  %c = usm.to_host %b : !D -> memref<4x3xf32>
  // CHECK: usm.to_host %{{.*}} : !usm.array<?x3xf32, "opencl:cpu:0", device> -> tensor<?x3xf32>
  %d = usm.to_host %a : !usm.array<?x3xf32, "opencl:cpu:0", device> -> tensor<?x3xf32>
  return %c, %d : memref<4x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @migration
func.func @migration(%a: !D) -> !usm.array<4x3xf32, "host:cpu:0"("q"), shared> {
  // CHECK: usm.to_device %{{.*}} : !usm.array<4x3xf32, "opencl:cpu:0", device> -> !usm.array<4x3xf32, "host:cpu:0"("q"), shared>
  %b = usm.to_device %a : !D -> !usm.array<4x3xf32, "host:cpu:0"("q"), shared>
  return %b : !usm.array<4x3xf32, "host:cpu:0"("q"), shared>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: !D, %r: !R, %s: !S, %h: !H, %f: f32) {
  // CHECK: usm.add %{{.*}}, %{{.*}} : (!usm.array<4x3xf32, "opencl:cpu:0", device>, !usm.array<3xf32, "opencl:cpu:0", device>) -> !usm.array<4x3xf32, "opencl:cpu:0", device>
  %0 = usm.add %a, %r : (!D, !R) -> !D
  // Coercion: device < shared < host, the smallest wins.
  // CHECK: usm.sub %{{.*}}, %{{.*}} : (!usm.array<3xf32, "opencl:cpu:0", shared>, !usm.array<4x3xf32, "opencl:cpu:0", host>) -> !usm.array<4x3xf32, "opencl:cpu:0", shared>
  %1 = usm.sub %s, %h : (!S, !H) -> !usm.array<4x3xf32, "opencl:cpu:0", shared>
  // CHECK: usm.mul %{{.*}}, %{{.*}} : (f32, !usm.array<4x3xf32, "opencl:cpu:0", device>) -> !usm.array<4x3xf32, "opencl:cpu:0", device>
  %2 = usm.mul %f, %a : (f32, !D) -> !D
  // CHECK: usm.div
  %3 = usm.div %a, %f : (!D, f32) -> !D
  // CHECK: usm.floor_divide
  %4 = usm.floor_divide %a, %r : (!D, !R) -> !D
  // CHECK: usm.remainder
  %5 = usm.remainder %a, %r : (!D, !R) -> !D
  // CHECK: usm.pow
  %6 = usm.pow %a, %f : (!D, f32) -> !D
  // CHECK: usm.maximum
  %7 = usm.maximum %a, %h : (!D, !H) -> !D
  // CHECK: usm.minimum
  %8 = usm.minimum %a, %a : (!D, !D) -> !D
  return
}

// CHECK-LABEL: func.func @compare_logical
func.func @compare_logical(%a: !D, %r: !R, %m: !M, %i: !usm.array<4x3xi32, "opencl:cpu:0", device>) {
  // CHECK: usm.eq %{{.*}}, %{{.*}} : (!usm.array<4x3xf32, "opencl:cpu:0", device>, !usm.array<3xf32, "opencl:cpu:0", device>) -> !usm.array<4x3xi1, "opencl:cpu:0", device>
  %0 = usm.eq %a, %r : (!D, !R) -> !M
  // CHECK: usm.ne
  %1 = usm.ne %a, %r : (!D, !R) -> !M
  // CHECK: usm.lt
  %2 = usm.lt %a, %r : (!D, !R) -> !M
  // CHECK: usm.le
  %3 = usm.le %a, %r : (!D, !R) -> !M
  // CHECK: usm.gt
  %4 = usm.gt %a, %r : (!D, !R) -> !M
  // CHECK: usm.ge
  %5 = usm.ge %a, %r : (!D, !R) -> !M
  // CHECK: usm.logical_and %{{.*}}, %{{.*}} : (!usm.array<4x3xi1, "opencl:cpu:0", device>, !usm.array<4x3xi1, "opencl:cpu:0", device>) -> !usm.array<4x3xi1, "opencl:cpu:0", device>
  %6 = usm.logical_and %m, %m : (!M, !M) -> !M
  // CHECK: usm.logical_or %{{.*}}, %{{.*}} : (!usm.array<4x3xi32, "opencl:cpu:0", device>, !usm.array<4x3xi1, "opencl:cpu:0", device>) -> !usm.array<4x3xi1, "opencl:cpu:0", device>
  %7 = usm.logical_or %i, %m : (!usm.array<4x3xi32, "opencl:cpu:0", device>, !M) -> !M
  // CHECK: usm.logical_not %{{.*}} : (!usm.array<4x3xf32, "opencl:cpu:0", device>) -> !usm.array<4x3xi1, "opencl:cpu:0", device>
  %8 = usm.logical_not %a : (!D) -> !M
  return
}

// CHECK-LABEL: func.func @unary
func.func @unary(%a: !D, %i: !usm.array<4xi32, "opencl:cpu:0", device>) {
  // CHECK: usm.negative %{{.*}} : (!usm.array<4x3xf32, "opencl:cpu:0", device>) -> !usm.array<4x3xf32, "opencl:cpu:0", device>
  %0 = usm.negative %a : (!D) -> !D
  // CHECK: usm.abs %{{.*}} : (!usm.array<4xi32, "opencl:cpu:0", device>) -> !usm.array<4xi32, "opencl:cpu:0", device>
  %1 = usm.abs %i : (!usm.array<4xi32, "opencl:cpu:0", device>) -> !usm.array<4xi32, "opencl:cpu:0", device>
  // CHECK: usm.exp
  %2 = usm.exp %a : (!D) -> !D
  // CHECK: usm.log
  %3 = usm.log %a : (!D) -> !D
  // CHECK: usm.sqrt
  %4 = usm.sqrt %a : (!D) -> !D
  // CHECK: usm.sin
  %5 = usm.sin %a : (!D) -> !D
  // CHECK: usm.cos
  %6 = usm.cos %a : (!D) -> !D
  // CHECK: usm.tanh
  %7 = usm.tanh %a : (!D) -> !D
  return
}

// CHECK-LABEL: func.func @where_astype
func.func @where_astype(%m: !M, %a: !D, %r: !R, %f: f32, %c: i1) {
  // CHECK: usm.where %{{.*}}, %{{.*}}, %{{.*}} : (!usm.array<4x3xi1, "opencl:cpu:0", device>, !usm.array<3xf32, "opencl:cpu:0", device>, f32) -> !usm.array<4x3xf32, "opencl:cpu:0", device>
  %0 = usm.where %m, %r, %f : (!M, !R, f32) -> !D
  // CHECK: usm.where %{{.*}}, %{{.*}}, %{{.*}} : (i1, !usm.array<4x3xf32, "opencl:cpu:0", device>, f32) -> !usm.array<4x3xf32, "opencl:cpu:0", device>
  %1 = usm.where %c, %a, %f : (i1, !D, f32) -> !D
  // CHECK: usm.astype %{{.*}} : !usm.array<4x3xf32, "opencl:cpu:0", device> to !usm.array<4x3xi64, "opencl:cpu:0", device>
  %2 = usm.astype %a : !D to !usm.array<4x3xi64, "opencl:cpu:0", device>
  return
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%a: !D, %i: !usm.array<4x3xi32, "opencl:cpu:0", device>, %u: !usm.array<?xui8, "opencl:cpu:0", device>, %b: !M) {
  // CHECK: usm.sum %{{.*}} : !usm.array<4x3xf32, "opencl:cpu:0", device> -> !usm.array<f32, "opencl:cpu:0", device>
  %0 = usm.sum %a : !D -> !usm.array<f32, "opencl:cpu:0", device>
  // CHECK: usm.sum %{{.*}} axes [1] keepdims : !usm.array<4x3xf32, "opencl:cpu:0", device> -> !usm.array<4x1xf32, "opencl:cpu:0", device>
  %1 = usm.sum %a axes [1] keepdims : !D -> !usm.array<4x1xf32, "opencl:cpu:0", device>
  // Integer sums and products widen to 64 bits, as in NumPy.
  // CHECK: usm.prod %{{.*}} axes [-1] : !usm.array<4x3xi32, "opencl:cpu:0", device> -> !usm.array<4xi64, "opencl:cpu:0", device>
  %2 = usm.prod %i axes [-1] : !usm.array<4x3xi32, "opencl:cpu:0", device> -> !usm.array<4xi64, "opencl:cpu:0", device>
  // CHECK: usm.sum %{{.*}} : !usm.array<?xui8, "opencl:cpu:0", device> -> !usm.array<ui64, "opencl:cpu:0", device>
  %3 = usm.sum %u : !usm.array<?xui8, "opencl:cpu:0", device> -> !usm.array<ui64, "opencl:cpu:0", device>
  // CHECK: usm.sum %{{.*}} axes [0] : !usm.array<4x3xi1, "opencl:cpu:0", device> -> !usm.array<3xi64, "opencl:cpu:0", device>
  %4 = usm.sum %b axes [0] : !M -> !usm.array<3xi64, "opencl:cpu:0", device>
  // CHECK: usm.max %{{.*}} axes [0, 1] : !usm.array<4x3xi32, "opencl:cpu:0", device> -> !usm.array<i32, "opencl:cpu:0", device>
  %5 = usm.max %i axes [0, 1] : !usm.array<4x3xi32, "opencl:cpu:0", device> -> !usm.array<i32, "opencl:cpu:0", device>
  // CHECK: usm.min %{{.*}} axes [0] keepdims : !usm.array<?xui8, "opencl:cpu:0", device> -> !usm.array<1xui8, "opencl:cpu:0", device>
  %6 = usm.min %u axes [0] keepdims : !usm.array<?xui8, "opencl:cpu:0", device> -> !usm.array<1xui8, "opencl:cpu:0", device>
  return
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%a: !D, %r: !R, %n: index, %d: !usm.array<?x3xf32, "opencl:cpu:0", device>) {
  // CHECK: usm.broadcast_to %{{.*}} : !usm.array<3xf32, "opencl:cpu:0", device> -> !usm.array<2x4x3xf32, "opencl:cpu:0", device>
  %0 = usm.broadcast_to %r : !R -> !usm.array<2x4x3xf32, "opencl:cpu:0", device>
  // CHECK: usm.broadcast_to %{{.*}}(%{{.*}}) : !usm.array<3xf32, "opencl:cpu:0", device> -> !usm.array<?x3xf32, "opencl:cpu:0", device>
  %1 = usm.broadcast_to %r (%n) : !R -> !usm.array<?x3xf32, "opencl:cpu:0", device>
  // CHECK: usm.reshape %{{.*}} : !usm.array<4x3xf32, "opencl:cpu:0", device> -> !usm.array<2x6xf32, "opencl:cpu:0", device>
  %2 = usm.reshape %a : !D -> !usm.array<2x6xf32, "opencl:cpu:0", device>
  // CHECK: usm.reshape %{{.*}}(%{{.*}}) : !usm.array<?x3xf32, "opencl:cpu:0", device> -> !usm.array<?xf32, "opencl:cpu:0", device>
  %3 = usm.reshape %d (%n) : !usm.array<?x3xf32, "opencl:cpu:0", device> -> !usm.array<?xf32, "opencl:cpu:0", device>
  // CHECK: usm.transpose %{{.*}} [1, 0] : !usm.array<?x3xf32, "opencl:cpu:0", device> -> !usm.array<3x?xf32, "opencl:cpu:0", device>
  %4 = usm.transpose %d [1, 0] : !usm.array<?x3xf32, "opencl:cpu:0", device> -> !usm.array<3x?xf32, "opencl:cpu:0", device>
  return
}

// Dynamic shapes broadcast: ? against 3 gives 3, ? against 1 stays ?.
// CHECK-LABEL: func.func @dynamic_broadcast
func.func @dynamic_broadcast(%a: !usm.array<?x?xf32, "gpu", device>, %b: !usm.array<3xf32, "gpu", device>, %c: !usm.array<1x1xf32, "gpu", device>) {
  // CHECK: -> !usm.array<?x3xf32, "*:gpu:0", device>
  %0 = usm.add %a, %b : (!usm.array<?x?xf32, "gpu", device>, !usm.array<3xf32, "gpu", device>) -> !usm.array<?x3xf32, "gpu", device>
  // CHECK: -> !usm.array<?x?xf32, "*:gpu:0", device>
  %1 = usm.add %a, %c : (!usm.array<?x?xf32, "gpu", device>, !usm.array<1x1xf32, "gpu", device>) -> !usm.array<?x?xf32, "gpu", device>
  return
}

//===--- Fused groups ------------------------------------------------------===//

// CHECK-LABEL: func.func @fused
func.func @fused(%a: !D, %r: !R, %s: f32, %n: index) -> (!D, !usm.array<f32, "opencl:cpu:0", device>) {
  // CHECK: %[[F:.*]]:2 = usm.fused "opencl:cpu:0" ins(%[[X:.*]] = %{{.*}} : !usm.array<4x3xf32, "opencl:cpu:0", device>, %[[Y:.*]] = %{{.*}} : !usm.array<3xf32, "opencl:cpu:0", device>, %[[T:.*]] = %{{.*}} : f32) -> (!usm.array<4x3xf32, "opencl:cpu:0", device>, !usm.array<f32, "opencl:cpu:0", device>) {
  // CHECK-NEXT: %[[M:.*]] = usm.mul %[[X]], %[[T]]
  // CHECK-NEXT: %[[A:.*]] = usm.add %[[M]], %[[Y]]
  // CHECK-NEXT: %[[S:.*]] = usm.sum %[[A]]
  // CHECK-NEXT: usm.yield %[[A]], %[[S]] : !usm.array<4x3xf32, "opencl:cpu:0", device>, !usm.array<f32, "opencl:cpu:0", device>
  // CHECK-NEXT: }
  %f:2 = usm.fused "opencl:cpu:0" ins(%x = %a : !D, %y = %r : !R, %t = %s : f32) -> (!D, !usm.array<f32, "opencl:cpu:0", device>) {
    %0 = usm.mul %x, %t : (!D, f32) -> !D
    %1 = usm.add %0, %y : (!D, !R) -> !D
    %2 = usm.sum %1 : !D -> !usm.array<f32, "opencl:cpu:0", device>
    usm.yield %1, %2 : !D, !usm.array<f32, "opencl:cpu:0", device>
  }
  // A named queue, a dynamic size as an input, USM kinds that differ, and a
  // constant rematerialised inside.
  // CHECK: usm.fused "opencl:cpu:0"("worker") ins(%{{.*}} = %{{.*}} : !usm.array<3xf32, "opencl:cpu:0"("worker"), shared>, %{{.*}} = %{{.*}} : index) -> (!usm.array<?x3xf32, "opencl:cpu:0"("worker"), shared>) attributes {tag} {
  %w = usm.to_device %r : !R -> !usm.array<3xf32, "opencl:cpu:0"("worker"), shared>
  %g = usm.fused "opencl:cpu:0"("worker") ins(%v = %w : !usm.array<3xf32, "opencl:cpu:0"("worker"), shared>, %m = %n : index) -> (!usm.array<?x3xf32, "opencl:cpu:0"("worker"), shared>) attributes {tag} {
    %c = arith.constant 1.0 : f32
    %b = usm.broadcast_to %v (%m) : !usm.array<3xf32, "opencl:cpu:0"("worker"), shared> -> !usm.array<?x3xf32, "opencl:cpu:0"("worker"), shared>
    %0 = usm.add %b, %c : (!usm.array<?x3xf32, "opencl:cpu:0"("worker"), shared>, f32) -> !usm.array<?x3xf32, "opencl:cpu:0"("worker"), shared>
    usm.yield %0 : !usm.array<?x3xf32, "opencl:cpu:0"("worker"), shared>
  }
  return %f#0, %f#1 : !D, !usm.array<f32, "opencl:cpu:0", device>
}

// Run-time checks: a condition, a message with placeholders, index values.
// CHECK-LABEL: func.func @assert
// CHECK: usm.assert %{{.*}}, "shapes ({0},) ({1},) {{.*}}" (%{{.*}}, %{{.*}})
// CHECK: usm.assert %{{.*}}, "no values"
func.func @assert(%ok: i1, %n: index, %m: index) {
  usm.assert %ok, "shapes ({0},) ({1},) {{" (%n, %m)
  usm.assert %ok, "no values"
  return
}
