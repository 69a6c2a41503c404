// RUN: sluice-opt %s --usm-fuse-elementwise | FileCheck %s
// The fused IR verifies and round-trips.
// RUN: sluice-opt %s --usm-fuse-elementwise | sluice-opt | FileCheck %s
// Fusion kinds switched off, one at a time.
// RUN: sluice-opt %s --usm-fuse-elementwise=producer-consumer=false | FileCheck %s --check-prefix=NOPC
// RUN: sluice-opt %s --usm-fuse-elementwise=reductions=false | FileCheck %s --check-prefix=NORED
// RUN: sluice-opt %s --usm-fuse-elementwise=epilogues=false | FileCheck %s --check-prefix=NOEPI
// RUN: sluice-opt %s --usm-fuse-elementwise=siblings=false | FileCheck %s --check-prefix=NOSIB
// RUN: sluice-opt %s --usm-fuse-elementwise=multi-output=false | FileCheck %s --check-prefix=NOMO
// RUN: sluice-opt %s --usm-fuse-elementwise=recompute=false | FileCheck %s --check-prefix=NORC
// The report: one remark per group and per boundary left.
// RUN: sluice-opt %s --usm-fuse-elementwise=report -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// With producer-consumer fusion off, chains stay apart; reductions still
// absorb their producer, and siblings still fuse.
// NOPC-LABEL: func.func @chain
// NOPC:       usm.mul
// NOPC-NEXT:  usm.add
// NOPC-NEXT:  usm.fused
// NOPC-NEXT:    usm.exp
// NOPC-NEXT:    usm.sum
// NOPC-LABEL: func.func @diamond
// NOPC:       usm.negative
// NOPC-NEXT:  usm.fused
// NOPC-NEXT:    usm.exp
// NOPC-NEXT:    usm.sin
// NOPC:       usm.add
// NOPC-LABEL: func.func @siblings
// NOPC:       usm.fused

// NORED-LABEL: func.func @chain
// NORED:       %[[F:.*]] = usm.fused
// NORED-NEXT:    usm.mul
// NORED-NEXT:    usm.add
// NORED-NEXT:    usm.exp
// NORED-NEXT:    usm.yield
// NORED-NEXT:  }
// NORED-NEXT:  usm.sum %[[F]]

// NOEPI-LABEL: func.func @reduction_epilogue
// NOEPI:       usm.fused
// NOEPI-NEXT:    usm.mul
// NOEPI-NEXT:    usm.sum
// NOEPI-NEXT:    usm.yield
// NOEPI:       usm.fused
// NOEPI-NEXT:    usm.div
// NOEPI-NEXT:    usm.sqrt

// NOSIB-LABEL: func.func @siblings
// NOSIB-NOT:   usm.fused
// NOSIB-LABEL: func.func @cross_queue

// Without multi-output, %e is written by its own kernel and read back.
// NOMO-LABEL: func.func @multi_use
// NOMO:       %[[E:.*]] = usm.exp %arg0
// NOMO-NEXT:  usm.fused "opencl:cpu:0" ins(%{{.*}} = %[[E]] :
// NOMO-NEXT:    usm.add
// NOMO-NEXT:    usm.sin
// NOMO-LABEL: func.func @siblings
// NOMO-NOT:   usm.fused
// NOMO-LABEL: func.func @cross_queue

// Without recomputation, x - mean(2*x) is still one group (2*x is read by
// the reduction and by its broadcast epilogue inside it).
// NORC-LABEL: func.func @center
// NORC:       usm.fused {{.*}} -> (!usm.array<4x3xf32, "opencl:cpu:0", device>) {
// NORC:       usm.sub
// NORC-NEXT:  usm.yield
// NORC-NOT:   usm.fused
// NORC-LABEL: func.func @variance

// REPORT: remark: fused group #0 on queue "opencl:cpu:0": 4 ops (usm.mul, usm.add, usm.exp, usm.sum); inputs: %arg0 !usm.array<4x3xf32, "opencl:cpu:0", device> (48 B), %arg2 f32, %arg1 !usm.array<4x3xf32, "opencl:cpu:0", device> (48 B); outputs: %3 !usm.array<f32, "opencl:cpu:0", device> (4 B); compulsory bytes: 100 B (read 96 B, write 4 B); the ops unfused move 388 B
// REPORT: remark: fused group #0 {{.*}} 4 ops (usm.mul, usm.sum, usm.div, usm.sub); inputs: %arg0 {{.*}} (48 B), %arg1 f32; outputs: %3 {{.*}} (48 B); compulsory bytes: 96 B
// REPORT: remark: fused group #1 {{.*}} 3 ops (usm.sub, usm.mul, usm.sum)
// REPORT: remark: fusion boundary: 'usm.div' -> 'usm.sub': 'usm.sub' broadcasts a reduction result to the shape (4,3) and feeds a reduction (it goes with that reduction)
// REPORT: remark: fused group #0 {{.*}} 4 ops (usm.sub, usm.exp, usm.sum, usm.div); inputs: %arg0 !usm.array<?x?xf32, {{.*}}, %0 !usm.array<?x1xf32, {{.*}}; outputs: %4 !usm.array<?x?xf32,
// REPORT: remark: fusion boundary: 'usm.max' -> 'usm.sub': 'usm.sub' broadcasts a reduction result to the shape (?,?) and feeds a reduction (it goes with that reduction)
// REPORT: remark: fused group #0 {{.*}} outputs: %0 {{.*}}, %2 {{.*}}; compulsory bytes: 144 B (read 48 B, write 96 B)
// REPORT: remark: fused group #2 on queue "opencl:cpu:0" (queue "worker")
// REPORT: remark: fusion boundary: 'usm.sin' -> 'usm.to_device': usm.to_device changes placement: the migration is a copy between kernels
// REPORT: remark: fusion boundary: 'usm.to_device' -> 'usm.cos': the input is migrated by usm.to_device, a copy between kernels
// REPORT: remark: fused group #0 {{.*}} 3 ops (usm.broadcast_to, usm.add, usm.exp); {{.*}} compulsory bytes: 3 dynamic arrays (read 2 dynamic arrays, write 1 dynamic array)
// REPORT: remark: siblings not fused: 'usm.exp' and 'usm.add' read the same array but the results' dynamic shapes (?,?) cannot be proven equal
// REPORT: remark: fusion boundary: 'usm.exp' -> 'usm.sin': 'usm.to_host' has side effects and uses a value of the group between its ops
// REPORT: remark: fusion boundary: 'usm.exp' -> 'usm.transpose': 'usm.transpose' reindexes the array and is not fused
// REPORT: remark: fusion boundary: 'usm.sum' -> 'usm.max': a reduction would read another reduction's result
// REPORT: remark: siblings not fused: 'usm.sum' and 'usm.sum' read the same array but reductions over different axes
// REPORT: remark: fusion boundary: 'usm.exp' -> 'scf.for': 'scf.for' holds other blocks; each block fuses on its own

!A = !usm.array<4x3xf32, "opencl:cpu:0", device>
!R = !usm.array<3xf32, "opencl:cpu:0", device>
!K = !usm.array<1x3xf32, "opencl:cpu:0", device>
!S = !usm.array<f32, "opencl:cpu:0", device>
!M = !usm.array<4x3xi1, "opencl:cpu:0", device>
!I = !usm.array<4x3xi32, "opencl:cpu:0", device>
!G = !usm.array<4x3xf32, "level_zero:gpu:0", device>
!W = !usm.array<4x3xf32, "opencl:cpu:0"("worker"), device>
!D = !usm.array<?x?xf32, "opencl:cpu:0", device>

// A chain of elementwise ops into a reduction: one kernel.
// CHECK-LABEL: func.func @chain
// CHECK:      %[[F:.*]] = usm.fused "opencl:cpu:0" ins(%[[X:.*]] = %arg0 : {{.*}}, %[[S:.*]] = %arg2 : f32, %[[Y:.*]] = %arg1 : {{.*}}) -> (!usm.array<f32, "opencl:cpu:0", device>) {
// CHECK-NEXT:   %[[M:.*]] = usm.mul %[[X]], %[[S]]
// CHECK-NEXT:   %[[A:.*]] = usm.add %[[M]], %[[Y]]
// CHECK-NEXT:   %[[E:.*]] = usm.exp %[[A]]
// CHECK-NEXT:   %[[R:.*]] = usm.sum %[[E]]
// CHECK-NEXT:   usm.yield %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @chain(%a: !A, %b: !A, %s: f32) -> !S {
  %0 = usm.mul %a, %s : (!A, f32) -> !A
  %1 = usm.add %0, %b : (!A, !A) -> !A
  %2 = usm.exp %1 : (!A) -> !A
  %3 = usm.sum %2 : !A -> !S
  return %3 : !S
}

// A diamond: %t feeds two branches that meet again.
// CHECK-LABEL: func.func @diamond
// CHECK:      usm.fused
// CHECK-NEXT:   usm.negative
// CHECK-NEXT:   usm.exp
// CHECK-NEXT:   usm.sin
// CHECK-NEXT:   usm.add
// CHECK-NEXT:   usm.yield
// CHECK-NOT:  usm.fused
func.func @diamond(%a: !A) -> !A {
  %t = usm.negative %a : (!A) -> !A
  %u = usm.exp %t : (!A) -> !A
  %v = usm.sin %t : (!A) -> !A
  %w = usm.add %u, %v : (!A, !A) -> !A
  return %w : !A
}

// Broadcasting, astype, where, scalars and constants join the kernel.
// CHECK-LABEL: func.func @broadcast
// CHECK:      usm.fused "opencl:cpu:0" ins(%{{.*}} = %arg1 : {{.*}}, %{{.*}} = %arg2 : {{.*}}, %{{.*}} = %arg0 : {{.*}}, %{{.*}} = %arg3 : {{.*}}) -> (!usm.array<4x3xf32, "opencl:cpu:0", device>)
// CHECK-NEXT:   arith.constant 5.0
// CHECK-NEXT:   usm.constant dense<1.0
// CHECK-NEXT:   usm.full
// CHECK-NEXT:   usm.broadcast_to
// CHECK-NEXT:   usm.astype
// CHECK-NEXT:   usm.add
// CHECK-NEXT:   usm.mul
// CHECK-NEXT:   usm.sub
// CHECK-NEXT:   usm.where
// CHECK-NEXT:   usm.yield
// CHECK-NOT:  usm.fused
func.func @broadcast(%a: !A, %r: !R, %i: !I, %m: !M) -> !A {
  %c = arith.constant 0.5 : f32
  %one = usm.constant dense<1.0> : tensor<3xf32> -> !R
  %full = usm.full %c : f32 -> !A
  %b = usm.broadcast_to %r : !R -> !A
  %f = usm.astype %i : !I to !A
  %0 = usm.add %a, %b : (!A, !A) -> !A
  %1 = usm.mul %0, %f : (!A, !A) -> !A
  %2 = usm.sub %1, %one : (!A, !R) -> !A
  %3 = usm.where %m, %2, %full : (!M, !A, !A) -> !A
  return %3 : !A
}

// An epilogue: the reduced result is scaled in the same kernel.
// CHECK-LABEL: func.func @reduction_epilogue
// CHECK:      usm.fused {{.*}} -> (!usm.array<3xf32, "opencl:cpu:0", device>)
// CHECK-NEXT:   usm.mul
// CHECK-NEXT:   usm.sum
// CHECK-NEXT:   usm.div
// CHECK-NEXT:   usm.sqrt
// CHECK-NEXT:   usm.yield
// CHECK-NOT:  usm.fused
func.func @reduction_epilogue(%a: !A, %b: !A, %n: f32) -> !R {
  %0 = usm.mul %a, %b : (!A, !A) -> !A
  %1 = usm.sum %0 axes [0] : !A -> !R
  %2 = usm.div %1, %n : (!R, f32) -> !R
  %3 = usm.sqrt %2 : (!R) -> !R
  return %3 : !R
}

// x - mean(2*x): the reduction result is broadcast back over its input by
// an op that feeds no other reduction: a broadcast epilogue of the
// reduction's group (the code generator evaluates it in one more pass that
// recomputes 2*x).
// CHECK-LABEL: func.func @center
// CHECK:      %[[R:.*]] = usm.fused "opencl:cpu:0" ins(%{{.*}} = %arg0 : {{.*}}, %{{.*}} = %arg1 : f32) -> (!usm.array<4x3xf32, "opencl:cpu:0", device>)
// CHECK-NEXT:   arith.constant 2.0
// CHECK-NEXT:   usm.mul
// CHECK-NEXT:   usm.sum
// CHECK-NEXT:   usm.div
// CHECK-NEXT:   usm.sub
// CHECK-NEXT:   usm.yield
// CHECK-NOT:  usm.fused
// CHECK:      return %[[R]]
func.func @center(%a: !A, %n: f32) -> !A {
  %c = arith.constant 2.0 : f32
  %0 = usm.mul %a, %c : (!A, f32) -> !A
  %1 = usm.sum %0 axes [0] keepdims : !A -> !K
  %2 = usm.div %1, %n : (!K, f32) -> !K
  %3 = usm.sub %0, %2 : (!A, !K) -> !A
  return %3 : !A
}

// The variance: x - mean(x) feeds a second reduction, so it goes with that
// reduction (its prologue), and the first reduction is a group of its own.
// CHECK-LABEL: func.func @variance
// CHECK:      %[[M:.*]] = usm.fused "opencl:cpu:0" ins(%{{.*}} = %arg0 : {{.*}}, %{{.*}} = %arg1 : f32) -> (!usm.array<1x3xf32, "opencl:cpu:0", device>)
// CHECK-NEXT:   usm.sum
// CHECK-NEXT:   usm.div
// CHECK-NEXT:   usm.yield
// CHECK:      usm.fused "opencl:cpu:0" ins(%{{.*}} = %arg0 : {{.*}}, %{{.*}} = %[[M]] : {{.*}}) -> (!usm.array<1x3xf32, "opencl:cpu:0", device>)
// CHECK-NEXT:   usm.sub
// CHECK-NEXT:   usm.mul
// CHECK-NEXT:   usm.sum
// CHECK-NEXT:   usm.yield
func.func @variance(%a: !A, %n: f32) -> !K {
  %0 = usm.sum %a axes [0] keepdims : !A -> !K
  %1 = usm.div %0, %n : (!K, f32) -> !K
  %2 = usm.sub %a, %1 : (!A, !K) -> !A
  %3 = usm.mul %2, %2 : (!A, !A) -> !A
  %4 = usm.sum %3 axes [0] keepdims : !A -> !K
  return %4 : !K
}

// The softmax over rows of dynamic sizes: x - max(x, keepdims) provably
// has x's shape, so the division by the row sums is the sum's broadcast
// epilogue; the max stays a kernel of its own.
// CHECK-LABEL: func.func @softmax
// CHECK:      %[[M:.*]] = usm.max %arg0 axes [1] keepdims
// CHECK:      %[[S:.*]] = usm.fused "opencl:cpu:0" ins(%{{.*}} = %arg0 : {{.*}}, %{{.*}} = %[[M]] : {{.*}}) -> (!usm.array<?x?xf32, "opencl:cpu:0", device>)
// CHECK-NEXT:   usm.sub
// CHECK-NEXT:   usm.exp
// CHECK-NEXT:   usm.sum
// CHECK-NEXT:   usm.div
// CHECK-NEXT:   usm.yield
// CHECK:      return %[[S]]
!X = !usm.array<?x?xf32, "opencl:cpu:0", device>
!XK = !usm.array<?x1xf32, "opencl:cpu:0", device>
func.func @softmax(%x: !X) -> !X {
  %m = usm.max %x axes [1] keepdims : !X -> !XK
  %d = usm.sub %x, %m : (!X, !XK) -> !X
  %e = usm.exp %d : (!X) -> !X
  %s = usm.sum %e axes [1] keepdims : !X -> !XK
  %r = usm.div %e, %s : (!X, !XK) -> !X
  return %r : !X
}

// An expensive producer used inside and outside the group: multi-output.
// CHECK-LABEL: func.func @multi_use
// CHECK:      %[[F:.*]]:2 = usm.fused {{.*}} -> (!usm.array<4x3xf32, "opencl:cpu:0", device>, !usm.array<4x3xf32, "opencl:cpu:0", device>)
// CHECK-NEXT:   %[[E:.*]] = usm.exp
// CHECK-NEXT:   usm.add %[[E]], %[[E]]
// CHECK-NEXT:   %[[V:.*]] = usm.sin
// CHECK-NEXT:   usm.yield %[[E]], %[[V]]
// CHECK:      return %[[F]]#0, %[[F]]#1
func.func @multi_use(%a: !A) -> (!A, !A) {
  %e = usm.exp %a : (!A) -> !A
  %u = usm.add %e, %e : (!A, !A) -> !A
  %v = usm.sin %u : (!A) -> !A
  return %e, %v : !A, !A
}

// Siblings read the same array: one kernel with two results.
// CHECK-LABEL: func.func @siblings
// CHECK:      %[[F:.*]]:4 = usm.fused "opencl:cpu:0" ins(%{{.*}} = %arg0 : !usm.array<4x3xf32, "opencl:cpu:0", device>) -> (
// CHECK-NEXT:   usm.exp
// CHECK-NEXT:   usm.cos
// CHECK-NEXT:   usm.sum
// CHECK-NEXT:   usm.max
// CHECK-NEXT:   usm.yield
// CHECK-NOT:  usm.fused
func.func @siblings(%a: !A) -> (!A, !A, !R, !R) {
  %0 = usm.exp %a : (!A) -> !A
  %1 = usm.cos %a : (!A) -> !A
  %2 = usm.sum %a axes [0] : !A -> !R
  %3 = usm.max %a axes [0] : !A -> !R
  return %0, %1, %2, %3 : !A, !A, !R, !R
}

// Different queues never fuse, not even two queues of one device.
// CHECK-LABEL: func.func @cross_queue
// CHECK:      usm.fused "opencl:cpu:0" ins
// CHECK-NEXT:   usm.exp {{.*}} -> !usm.array<4x3xf32, "opencl:cpu:0", device>
// CHECK-NEXT:   usm.sin {{.*}} -> !usm.array<4x3xf32, "opencl:cpu:0", device>
// CHECK:      usm.fused "level_zero:gpu:0" ins
// CHECK-NEXT:   usm.exp {{.*}} -> !usm.array<4x3xf32, "level_zero:gpu:0", device>
// CHECK-NEXT:   usm.sin {{.*}} -> !usm.array<4x3xf32, "level_zero:gpu:0", device>
// CHECK:      usm.fused "opencl:cpu:0"("worker") ins
// CHECK-NEXT:   usm.exp {{.*}} -> !usm.array<4x3xf32, "opencl:cpu:0"("worker"), device>
// CHECK-NEXT:   usm.sin {{.*}} -> !usm.array<4x3xf32, "opencl:cpu:0"("worker"), device>
// CHECK-NOT:  usm.fused
func.func @cross_queue(%a: !A, %g: !G, %w: !W) -> (!A, !G, !W) {
  %0 = usm.exp %a : (!A) -> !A
  %1 = usm.exp %g : (!G) -> !G
  %2 = usm.exp %w : (!W) -> !W
  %3 = usm.sin %0 : (!A) -> !A
  %4 = usm.sin %1 : (!G) -> !G
  %5 = usm.sin %2 : (!W) -> !W
  return %3, %4, %5 : !A, !G, !W
}

// usm.to_device is a copy between kernels.
// CHECK-LABEL: func.func @to_device
// CHECK:      %[[A:.*]] = usm.fused "opencl:cpu:0"
// CHECK-NEXT:   usm.exp
// CHECK-NEXT:   usm.sin
// CHECK-NEXT:   usm.yield
// CHECK:      %[[M:.*]] = usm.to_device %[[A]]
// CHECK:      usm.fused "level_zero:gpu:0" ins(%{{.*}} = %[[M]]
// CHECK-NEXT:   usm.cos
// CHECK-NEXT:   usm.tanh
// CHECK-NEXT:   usm.yield
// CHECK-NOT:  usm.fused
func.func @to_device(%a: !A) -> !G {
  %0 = usm.exp %a : (!A) -> !A
  %1 = usm.sin %0 : (!A) -> !A
  %2 = usm.to_device %1 : !A -> !G
  %3 = usm.cos %2 : (!G) -> !G
  %4 = usm.tanh %3 : (!G) -> !G
  return %4 : !G
}

// CHECK-LABEL: func.func @to_device_single
// CHECK-NOT:  usm.fused
// CHECK:      usm.exp
// CHECK-NEXT: usm.to_device
// CHECK-NEXT: usm.cos
func.func @to_device_single(%a: !A) -> !G {
  %0 = usm.exp %a : (!A) -> !A
  %1 = usm.to_device %0 : !A -> !G
  %2 = usm.cos %1 : (!G) -> !G
  return %2 : !G
}

// Dynamic shapes fuse; the sizes of broadcast_to become inputs.
// CHECK-LABEL: func.func @dynamic
// CHECK:      usm.fused "opencl:cpu:0" ins(%[[R:.*]] = %arg1 : !usm.array<?xf32, "opencl:cpu:0", device>, %[[N:.*]] = %arg2 : index, %[[M:.*]] = %arg3 : index, %[[X:.*]] = %arg0 : {{.*}}) -> (!usm.array<?x?xf32, "opencl:cpu:0", device>)
// CHECK-NEXT:   %[[B:.*]] = usm.broadcast_to %[[R]](%[[N]], %[[M]])
// CHECK-NEXT:   usm.add %[[X]], %[[B]]
// CHECK-NEXT:   usm.exp
// CHECK-NEXT:   usm.yield
// CHECK-NOT:  usm.fused
func.func @dynamic(%a: !D, %r: !usm.array<?xf32, "opencl:cpu:0", device>, %n: index, %m: index) -> !D {
  %b = usm.broadcast_to %r (%n, %m) : !usm.array<?xf32, "opencl:cpu:0", device> -> !D
  %0 = usm.add %a, %b : (!D, !D) -> !D
  %1 = usm.exp %0 : (!D) -> !D
  return %1 : !D
}

// Siblings with dynamic shapes fuse when the results provably share a shape.
// CHECK-LABEL: func.func @dynamic_siblings
// CHECK:      usm.fused {{.*}} -> (!usm.array<?x?xf32, "opencl:cpu:0", device>, !usm.array<?x?xf32, "opencl:cpu:0", device>)
// CHECK-NEXT:   usm.exp
// CHECK-NEXT:   usm.sin
// CHECK-NEXT:   usm.yield
func.func @dynamic_siblings(%a: !D) -> (!D, !D) {
  %0 = usm.exp %a : (!D) -> !D
  %1 = usm.sin %a : (!D) -> !D
  return %0, %1 : !D, !D
}

// ... and stay apart when broadcasting could make them differ.
// CHECK-LABEL: func.func @dynamic_siblings_apart
// CHECK-NOT:  usm.fused
// CHECK:      usm.exp
// CHECK-NEXT: usm.add
func.func @dynamic_siblings_apart(%a: !D, %b: !D) -> (!D, !D) {
  %0 = usm.exp %a : (!D) -> !D
  %1 = usm.add %a, %b : (!D, !D) -> !D
  return %0, %1 : !D, !D
}

// An op with side effects between the producer and the consumer that uses
// the producer keeps them apart.
// CHECK-LABEL: func.func @side_effect
// CHECK-NOT:  usm.fused
// CHECK:      usm.exp
// CHECK-NEXT: usm.to_host
// CHECK-NEXT: usm.sin
func.func @side_effect(%a: !A) -> (memref<4x3xf32>, !A) {
  %0 = usm.exp %a : (!A) -> !A
  %h = usm.to_host %0 : !A -> memref<4x3xf32>
  %1 = usm.sin %0 : (!A) -> !A
  return %h, %1 : memref<4x3xf32>, !A
}

// Shape ops that reindex stay apart.
// CHECK-LABEL: func.func @transpose
// CHECK-NOT:  usm.fused
// CHECK:      usm.exp
// CHECK-NEXT: usm.transpose
// CHECK-NEXT: usm.sin
func.func @transpose(%a: !A) -> !usm.array<3x4xf32, "opencl:cpu:0", device> {
  %0 = usm.exp %a : (!A) -> !A
  %1 = usm.transpose %0 [1, 0] : !A -> !usm.array<3x4xf32, "opencl:cpu:0", device>
  %2 = usm.sin %1 : (!usm.array<3x4xf32, "opencl:cpu:0", device>) -> !usm.array<3x4xf32, "opencl:cpu:0", device>
  return %2 : !usm.array<3x4xf32, "opencl:cpu:0", device>
}

// A reduction never reads another reduction's result in one kernel.
// CHECK-LABEL: func.func @reduce_reduced
// CHECK:      %[[F:.*]] = usm.fused
// CHECK-NEXT:   usm.exp
// CHECK-NEXT:   usm.sum
// CHECK-NEXT:   usm.yield
// CHECK-NEXT: }
// CHECK-NEXT: usm.max %[[F]]
// CHECK-NOT:  usm.fused
func.func @reduce_reduced(%a: !A) -> !S {
  %0 = usm.exp %a : (!A) -> !A
  %1 = usm.sum %0 axes [1] : !A -> !usm.array<4xf32, "opencl:cpu:0", device>
  %2 = usm.max %1 : !usm.array<4xf32, "opencl:cpu:0", device> -> !S
  return %2 : !S
}

// A constant that is not a splat is data: it stays an input.
// CHECK-LABEL: func.func @dense_constant
// CHECK:      %[[C:.*]] = usm.constant dense<[1.0{{.*}}, 2.0{{.*}}, 3.0{{.*}}]>
// CHECK-NEXT: usm.fused "opencl:cpu:0" ins(%{{.*}} = %arg0 : {{.*}}, %{{.*}} = %[[C]] : {{.*}})
// CHECK-NEXT:   usm.mul
// CHECK-NEXT:   usm.exp
func.func @dense_constant(%a: !R) -> !R {
  %c = usm.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> -> !R
  %0 = usm.mul %a, %c : (!R, !R) -> !R
  %1 = usm.exp %0 : (!R) -> !R
  return %1 : !R
}

// Sibling reductions over different axes stay apart.
// CHECK-LABEL: func.func @different_axes
// CHECK-NOT:  usm.fused
// CHECK:      usm.sum %arg0 axes [0]
// CHECK-NEXT: usm.sum %arg0 axes [1]
func.func @different_axes(%a: !A) -> (!R, !usm.array<4xf32, "opencl:cpu:0", device>) {
  %0 = usm.sum %a axes [0] : !A -> !R
  %1 = usm.sum %a axes [1] : !A -> !usm.array<4xf32, "opencl:cpu:0", device>
  return %0, %1 : !R, !usm.array<4xf32, "opencl:cpu:0", device>
}

// Ops in different blocks do not fuse; each block fuses on its own.
// CHECK-LABEL: func.func @loop
// CHECK:      usm.exp
// CHECK-NEXT: scf.for
// CHECK-NEXT:   usm.fused
// CHECK-NEXT:     usm.sin
// CHECK-NEXT:     usm.mul
func.func @loop(%a: !A, %lb: index, %ub: index, %st: index) -> !A {
  %0 = usm.exp %a : (!A) -> !A
  %r = scf.for %i = %lb to %ub step %st iter_args(%x = %0) -> (!A) {
    %1 = usm.sin %x : (!A) -> !A
    %2 = usm.mul %1, %x : (!A, !A) -> !A
    scf.yield %2 : !A
  }
  return %r : !A
}

// Dead ops are left to DCE: they never join a group.
// CHECK-LABEL: func.func @dead
// CHECK-NOT:  usm.fused
// CHECK:      usm.exp
// CHECK-NEXT: usm.sin
func.func @dead(%a: !A) -> !A {
  %0 = usm.exp %a : (!A) -> !A
  %1 = usm.sin %a : (!A) -> !A
  return %0 : !A
}

// Unplaced arrays wait for usm-infer-placement: ops that read them do not fuse.
// CHECK-LABEL: func.func @unplaced
// CHECK-NOT:  usm.fused
// CHECK:      usm.add
// CHECK-NEXT: usm.exp
func.func @unplaced(%m: memref<4x3xf32>, %a: !A) -> !A {
  %h = usm.from_host %m : memref<4x3xf32> -> !usm.array<4x3xf32, ?>
  %0 = usm.add %h, %a : (!usm.array<4x3xf32, ?>, !A) -> !A
  %1 = usm.exp %0 : (!A) -> !A
  return %1 : !A
}
