// RUN: sluice-opt %s --convert-usm-to-linalg --split-input-file | FileCheck %s

!D = !usm.array<4x3xf32, "opencl:cpu:0", device>
!R = !usm.array<3xf32, "opencl:cpu:0", device>

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @broadcast_and_scalar
// CHECK-SAME: (%[[A:.*]]: memref<4x3xf32, #usm.placement<"opencl:cpu:0", device>>, %[[R:.*]]: memref<3xf32, #usm.placement<"opencl:cpu:0", device>>, %[[S:.*]]: f32)
// CHECK-SAME: -> memref<4x3xf32, #usm.placement<"opencl:cpu:0", device>>
// CHECK: %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x3xf32, #usm.placement<"opencl:cpu:0", device>>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[R]] : {{.*}}) outs(%[[T]] : {{.*}})
// CHECK: arith.addf
// CHECK: %[[U:.*]] = memref.alloc()
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[SCALAR]], #[[ID]]], {{.*}}} ins(%[[T]], %[[S]] : {{.*}}, f32) outs(%[[U]] : {{.*}})
// CHECK: arith.mulf
// CHECK: return %[[U]]
func.func @broadcast_and_scalar(%a: !D, %r: !R, %s: f32) -> !D {
  %0 = usm.add %a, %r : (!D, !R) -> !D
  %1 = usm.mul %0, %s : (!D, f32) -> !D
  return %1 : !D
}

// -----

// A static 1 against a larger dimension reads index 0.
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @unit_broadcast
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[COL]], #{{.*}}]
func.func @unit_broadcast(%a: !usm.array<4x3xf32, "gpu", device>, %b: !usm.array<4x1xf32, "gpu", device>) -> !usm.array<4x3xf32, "gpu", device> {
  %0 = usm.sub %a, %b : (!usm.array<4x3xf32, "gpu", device>, !usm.array<4x1xf32, "gpu", device>) -> !usm.array<4x3xf32, "gpu", device>
  return %0 : !usm.array<4x3xf32, "gpu", device>
}

// -----

// Dynamic sizes come from an operand with a dynamic dimension there.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[A:.*]]: memref<?x3xf32, {{.*}}>, %[[B:.*]]: memref<3xf32, {{.*}}>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = memref.dim %[[A]], %[[C0]]
// CHECK: memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x3xf32, #usm.placement<"*:gpu:0", shared>>
func.func @dynamic(%a: !usm.array<?x3xf32, "gpu", shared>, %b: !usm.array<3xf32, "gpu", host>) -> !usm.array<?x3xf32, "gpu", shared> {
  %0 = usm.maximum %a, %b : (!usm.array<?x3xf32, "gpu", shared>, !usm.array<3xf32, "gpu", host>) -> !usm.array<?x3xf32, "gpu", shared>
  return %0 : !usm.array<?x3xf32, "gpu", shared>
}

// -----

// Signedness picks the arith op; NumPy semantics for division and NaN.
// CHECK-LABEL: func.func @signedness
// CHECK: arith.maxui
// CHECK: arith.cmpi ult
// CHECK: arith.floordivsi
// CHECK: arith.floordivsi
// CHECK: arith.cmpf une
// CHECK: arith.cmpf olt
// CHECK: math.floor
func.func @signedness(%u: !usm.array<4xui16, "host", host>, %i: !usm.array<4xi32, "host", host>, %f: !usm.array<4xf32, "host", host>) {
  %0 = usm.maximum %u, %u : (!usm.array<4xui16, "host", host>, !usm.array<4xui16, "host", host>) -> !usm.array<4xui16, "host", host>
  %1 = usm.lt %u, %u : (!usm.array<4xui16, "host", host>, !usm.array<4xui16, "host", host>) -> !usm.array<4xi1, "host", host>
  %2 = usm.floor_divide %i, %i : (!usm.array<4xi32, "host", host>, !usm.array<4xi32, "host", host>) -> !usm.array<4xi32, "host", host>
  %3 = usm.remainder %i, %i : (!usm.array<4xi32, "host", host>, !usm.array<4xi32, "host", host>) -> !usm.array<4xi32, "host", host>
  %4 = usm.ne %f, %f : (!usm.array<4xf32, "host", host>, !usm.array<4xf32, "host", host>) -> !usm.array<4xi1, "host", host>
  %5 = usm.lt %f, %f : (!usm.array<4xf32, "host", host>, !usm.array<4xf32, "host", host>) -> !usm.array<4xi1, "host", host>
  %6 = usm.floor_divide %f, %f : (!usm.array<4xf32, "host", host>, !usm.array<4xf32, "host", host>) -> !usm.array<4xf32, "host", host>
  return
}

// -----

// Unsigned scalars become signless like the elements of unsigned arrays
// (arith takes only signless integers); the op keeps its unsigned semantics.
// CHECK-LABEL: func.func @unsigned_scalar
// CHECK-SAME: (%[[A:.*]]: memref<4xi16, {{.*}}>, %[[S:.*]]: i16)
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[S]] : memref<4xi16, {{.*}}>, i16)
// CHECK: arith.maxui
// CHECK: linalg.fill ins(%[[S]] : i16)
func.func @unsigned_scalar(%a: !usm.array<4xui16, "host", host>, %s: ui16) -> (!usm.array<4xui16, "host", host>, !usm.array<4xui16, "host", host>) {
  %0 = usm.maximum %a, %s : (!usm.array<4xui16, "host", host>, ui16) -> !usm.array<4xui16, "host", host>
  %1 = usm.full %s : ui16 -> !usm.array<4xui16, "host", host>
  return %0, %1 : !usm.array<4xui16, "host", host>, !usm.array<4xui16, "host", host>
}

// -----

// Signed division never divides by 0 or -1 (INT_MIN / -1 overflows, which is
// undefined): the divisor becomes 1 there; x // -1 is the wrapping negation
// and x % -1 is 0, as in NumPy.
// CHECK-LABEL: func.func @int_division
// CHECK: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[M1:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[YZ:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]] : i32
// CHECK-DAG: %[[YM1:.*]] = arith.cmpi eq, %[[Y]], %[[M1]] : i32
// CHECK: %[[UNSAFE:.*]] = arith.ori %[[YZ]], %[[YM1]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[UNSAFE]], %[[ONE]], %[[Y]] : i32
// CHECK: %[[Q:.*]] = arith.floordivsi %[[X]], %[[SAFE]] : i32
// CHECK: %[[NEG:.*]] = arith.subi %[[ZERO]], %[[X]] : i32
// CHECK: %[[Q1:.*]] = arith.select %[[YM1]], %[[NEG]], %[[Q]] : i32
// CHECK: arith.select %[[YZ]], %[[ZERO]], %[[Q1]] : i32
// The remainder is x - (x // y) * y: no arith.remsi, whose SPIR-V lowering
// gets the minimum value wrong (INT_MIN % -7 came out as -5, not -2).
// CHECK: ^bb0(%[[X2:.*]]: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NOT: arith.remsi
// CHECK: %[[SAFE2:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: %[[Q2:.*]] = arith.floordivsi %[[X2]], %[[SAFE2]] : i32
// CHECK: %[[P2:.*]] = arith.muli %[[Q2]], %[[SAFE2]] : i32
// CHECK: arith.subi %[[X2]], %[[P2]] : i32
// CHECK-NOT: arith.remsi
// CHECK: linalg.yield
func.func @int_division(%a: !usm.array<4xi32, "host", host>, %b: !usm.array<4xi32, "host", host>) -> (!usm.array<4xi32, "host", host>, !usm.array<4xi32, "host", host>) {
  %0 = usm.floor_divide %a, %b : (!usm.array<4xi32, "host", host>, !usm.array<4xi32, "host", host>) -> !usm.array<4xi32, "host", host>
  %1 = usm.remainder %a, %b : (!usm.array<4xi32, "host", host>, !usm.array<4xi32, "host", host>) -> !usm.array<4xi32, "host", host>
  return %0, %1 : !usm.array<4xi32, "host", host>, !usm.array<4xi32, "host", host>
}

// -----

// Integer pow is square-and-multiply over the exponent's bits (math.ipowi has
// no lowering for kernels): 8 steps for i8; negative signed exponents give
// 1 / x**-e truncated (1, +-1 or 0).
// CHECK-LABEL: func.func @int_pow
// CHECK-NOT: math.ipowi
// CHECK: ^bb0(%[[X:.*]]: i8, %[[E:.*]]: i8, %{{.*}}: i8):
// CHECK-COUNT-8: arith.shrui %[[E]]
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[E]]
// CHECK: %[[R:.*]] = arith.select %[[NEG]]
// CHECK: linalg.yield %[[R]] : i8
// CHECK: ^bb0(%{{.*}}: i16, %{{.*}}: i16, %{{.*}}: i16):
// CHECK-COUNT-16: arith.shrui
// CHECK-NOT: arith.cmpi slt
// CHECK: linalg.yield
func.func @int_pow(%a: !usm.array<4xi8, "host", host>, %u: !usm.array<4xui16, "host", host>, %e: ui16) -> (!usm.array<4xi8, "host", host>, !usm.array<4xui16, "host", host>) {
  %0 = usm.pow %a, %a : (!usm.array<4xi8, "host", host>, !usm.array<4xi8, "host", host>) -> !usm.array<4xi8, "host", host>
  %1 = usm.pow %u, %e : (!usm.array<4xui16, "host", host>, ui16) -> !usm.array<4xui16, "host", host>
  return %0, %1 : !usm.array<4xi8, "host", host>, !usm.array<4xui16, "host", host>
}

// -----

// Float floor_divide is NumPy's npy_floor_divide, not floor(x / y): the
// quotient of x - fmod(x, y), sign-corrected and snapped to an integer (so
// 1.0 // 0.1 is 9.0 and inf // 2.0 is NaN); x / y when y is zero.
// CHECK-LABEL: func.func @float_floor_divide
// CHECK: ^bb0(%[[X:.*]]: f64, %[[Y:.*]]: f64, %{{.*}}: f64):
// CHECK: %[[Q:.*]] = arith.divf %[[X]], %[[Y]] : f64
// CHECK: %[[MOD:.*]] = arith.remf %[[X]], %[[Y]] : f64
// CHECK: %[[DIFF:.*]] = arith.subf %[[X]], %[[MOD]] : f64
// CHECK: %[[DIV:.*]] = arith.divf %[[DIFF]], %[[Y]] : f64
// CHECK: arith.cmpf une, %[[MOD]]
// CHECK: math.floor
// CHECK: arith.cmpf ogt
// CHECK: math.copysign %{{.*}}, %[[Q]] : f64
// CHECK: %[[YZERO:.*]] = arith.cmpf oeq, %[[Y]]
// CHECK: %[[R:.*]] = arith.select %[[YZERO]], %[[Q]], %{{.*}} : f64
// CHECK: linalg.yield %[[R]]
func.func @float_floor_divide(%a: !usm.array<4xf64, "host", host>, %b: !usm.array<4xf64, "host", host>) -> !usm.array<4xf64, "host", host> {
  %0 = usm.floor_divide %a, %b : (!usm.array<4xf64, "host", host>, !usm.array<4xf64, "host", host>) -> !usm.array<4xf64, "host", host>
  return %0 : !usm.array<4xf64, "host", host>
}

// -----

// CHECK-LABEL: func.func @math_where_astype
// CHECK: math.exp
// CHECK: math.tanh
// CHECK: arith.select
// CHECK: arith.fptosi {{.*}} : f32 to i64
// CHECK: arith.cmpf une
// CHECK: arith.uitofp {{.*}} : i8 to f64
func.func @math_where_astype(%f: !usm.array<4xf32, "host", host>, %m: !usm.array<4xi1, "host", host>, %u: !usm.array<4xui8, "host", host>) {
  %0 = usm.exp %f : (!usm.array<4xf32, "host", host>) -> !usm.array<4xf32, "host", host>
  %1 = usm.tanh %0 : (!usm.array<4xf32, "host", host>) -> !usm.array<4xf32, "host", host>
  %2 = usm.where %m, %f, %1 : (!usm.array<4xi1, "host", host>, !usm.array<4xf32, "host", host>, !usm.array<4xf32, "host", host>) -> !usm.array<4xf32, "host", host>
  %3 = usm.astype %2 : !usm.array<4xf32, "host", host> to !usm.array<4xi64, "host", host>
  %4 = usm.astype %2 : !usm.array<4xf32, "host", host> to !usm.array<4xi1, "host", host>
  %5 = usm.astype %u : !usm.array<4xui8, "host", host> to !usm.array<4xf64, "host", host>
  return
}

// -----

// Reductions: identity fill, then reduction iterators; keepdims writes a
// collapsed view; integer sums widen.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[KEPT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @reductions
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x1xf32, {{.*}}>
// CHECK: %[[VIEW:.*]] = memref.collapse_shape %[[OUT]] {{\[}}[0, 1]]
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEGINF]] : f32) outs(%[[VIEW]]
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[KEPT]]], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.maximumf
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<i64, {{.*}}>
// CHECK: arith.extsi {{.*}} : i32 to i64
// CHECK: arith.muli
func.func @reductions(%a: !usm.array<4x3xf32, "gpu", device>, %i: !usm.array<4x3xi32, "gpu", device>) {
  %0 = usm.max %a axes [1] keepdims : !usm.array<4x3xf32, "gpu", device> -> !usm.array<4x1xf32, "gpu", device>
  %1 = usm.prod %i : !usm.array<4x3xi32, "gpu", device> -> !usm.array<i64, "gpu", device>
  return
}

// -----

// Migrations and host boundaries are allocations plus copies.
// CHECK-LABEL: func.func @copies
// CHECK-SAME: (%[[A:.*]]: memref<8xf32, #usm.placement<"opencl:cpu:0", device>>, %[[H:.*]]: memref<8xf32>)
// CHECK: %[[B:.*]] = memref.alloc() {{.*}} : memref<8xf32, #usm.placement<"host:cpu:0"("q"), shared>>
// CHECK: memref.copy %[[A]], %[[B]]
// CHECK: %[[C:.*]] = memref.alloc() {{.*}} : memref<8xf32, #usm.placement<"opencl:cpu:0", device>>
// CHECK: memref.copy %[[H]], %[[C]]
// CHECK: %[[D:.*]] = memref.alloc() {{.*}} : memref<8xf32>
// CHECK: memref.copy %[[B]], %[[D]]
// CHECK: return %[[D]]
func.func @copies(%a: !usm.array<8xf32, "opencl:cpu:0", device>, %h: memref<8xf32>) -> memref<8xf32> {
  %b = usm.to_device %a : !usm.array<8xf32, "opencl:cpu:0", device> -> !usm.array<8xf32, "host"("q"), shared>
  %c = usm.from_host %h : memref<8xf32> -> !usm.array<8xf32, "opencl:cpu:0", device>
  %d = usm.to_host %b : !usm.array<8xf32, "host"("q"), shared> -> memref<8xf32>
  return %d : memref<8xf32>
}

// -----

// CHECK: memref.global "private" constant @__usm_constant_0 : memref<2xi8> = dense<[1, -2]> {alignment = 64 : i64}
// CHECK-LABEL: func.func @creation
// CHECK: %[[G:.*]] = memref.get_global @__usm_constant_0 : memref<2xi8>
// CHECK: %[[C:.*]] = memref.alloc() {{.*}} : memref<2xi8, #usm.placement<"host:cpu:0", shared>>
// CHECK: memref.copy %[[G]], %[[C]]
// CHECK: %[[F:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<?xf64, {{.*}}>
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[F]]
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: arith.muli
// CHECK: arith.addi
func.func @creation(%v: f64, %n: index, %s: i32) {
  %c = usm.constant dense<[1, 254]> : tensor<2xui8> -> !usm.array<2xui8, "host", shared>
  %f = usm.full %v (%n) : f64 -> !usm.array<?xf64, "host", shared>
  %r = usm.arange %s, %s : i32 -> !usm.array<16xi32, "host", shared>
  %e = usm.empty() : !usm.array<16xi32, "host", shared>
  return
}

// -----

// Splat constants are fills of a fresh allocation, never globals, however
// large (10^13 elements here).
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @splats
// CHECK: %[[V:.*]] = arith.constant 1.500000e+00 : f32
// CHECK: %[[A:.*]] = memref.alloc() {{.*}} : memref<10000000000000xf32, #usm.placement<"host:cpu:0", device>>
// CHECK: linalg.fill ins(%[[V]] : f32) outs(%[[A]]
// CHECK: %[[W:.*]] = arith.constant -2 : i8
// CHECK: %[[B:.*]] = memref.alloc() {{.*}} : memref<3x5xi8, #usm.placement<"host:cpu:0", device>>
// CHECK: linalg.fill ins(%[[W]] : i8) outs(%[[B]]
// CHECK-NOT: memref.global
func.func @splats() -> (!usm.array<10000000000000xf32, "host", device>, !usm.array<3x5xui8, "host", device>) {
  %a = usm.constant dense<1.5> : tensor<10000000000000xf32> -> !usm.array<10000000000000xf32, "host", device>
  %b = usm.constant dense<254> : tensor<3x5xui8> -> !usm.array<3x5xui8, "host", device>
  return %a, %b : !usm.array<10000000000000xf32, "host", device>, !usm.array<3x5xui8, "host", device>
}

// -----

// CHECK-DAG: #[[LAST:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @shapes
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [3, 4], strides: [4, 1]
// CHECK: linalg.transpose ins(%{{.*}}) outs(%{{.*}}) permutation = [1, 0]
// CHECK: linalg.generic {indexing_maps = [#[[LAST]], #[[ALL]]]
func.func @shapes(%a: !usm.array<2x6xf32, "gpu", device>, %r: !usm.array<6xf32, "gpu", device>) {
  %0 = usm.reshape %a : !usm.array<2x6xf32, "gpu", device> -> !usm.array<3x4xf32, "gpu", device>
  %1 = usm.transpose %a [1, 0] : !usm.array<2x6xf32, "gpu", device> -> !usm.array<6x2xf32, "gpu", device>
  %2 = usm.broadcast_to %r : !usm.array<6xf32, "gpu", device> -> !usm.array<5x6xf32, "gpu", device>
  return
}

// -----

// Control flow and calls carry the converted types.
// CHECK-LABEL: func.func @control_flow
// CHECK: scf.if %{{.*}} -> (memref<4xf32, #usm.placement<"*:gpu:0", device>>)
// CHECK: call @callee(%{{.*}}) : (memref<4xf32, #usm.placement<"*:gpu:0", device>>) -> memref<4xf32, #usm.placement<"*:gpu:0", device>>
func.func private @callee(!usm.array<4xf32, "gpu", device>) -> !usm.array<4xf32, "gpu", device>
func.func @control_flow(%c: i1, %a: !usm.array<4xf32, "gpu", device>) -> !usm.array<4xf32, "gpu", device> {
  %0 = scf.if %c -> !usm.array<4xf32, "gpu", device> {
    %1 = usm.negative %a : (!usm.array<4xf32, "gpu", device>) -> !usm.array<4xf32, "gpu", device>
    scf.yield %1 : !usm.array<4xf32, "gpu", device>
  } else {
    scf.yield %a : !usm.array<4xf32, "gpu", device>
  }
  %2 = func.call @callee(%0) : (!usm.array<4xf32, "gpu", device>) -> !usm.array<4xf32, "gpu", device>
  return %2 : !usm.array<4xf32, "gpu", device>
}

// -----

// A fused group lowers through its body (one generic per op for now), with
// the same results as the unfused program.
!A = !usm.array<8xf32, "host", device>
// CHECK-LABEL: func.func @fused_group
// CHECK-NOT: usm.fused
// CHECK: arith.mulf
// CHECK: math.exp
// CHECK: return
func.func @fused_group(%a: !A, %s: f32) -> !A {
  %0 = usm.fused "host:cpu:0" ins(%x = %a : !A, %t = %s : f32) -> (!A) {
    %1 = usm.mul %x, %t : (!A, f32) -> !A
    %2 = usm.exp %1 : (!A) -> !A
    usm.yield %2 : !A
  }
  return %0 : !A
}

// -----

// Host data of unsigned elements holds signless elements, like arrays.
// CHECK-LABEL: func.func @unsigned_host_data
// CHECK-SAME: (%[[M:.*]]: memref<?xi8>) -> memref<?xi8>
// CHECK: memref.copy %[[M]], %{{.*}} : memref<?xi8> to memref<?xi8, #usm.placement<"host:cpu:0", device>>
// CHECK: %[[H:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<?xi8>
// CHECK: memref.copy %{{.*}}, %[[H]]
// CHECK: return %[[H]]
func.func @unsigned_host_data(%m: memref<?xui8>) -> memref<?xui8> {
  %a = usm.from_host %m : memref<?xui8> -> !usm.array<?xui8, "host:cpu:0", device>
  %b = usm.negative %a : (!usm.array<?xui8, "host:cpu:0", device>) -> !usm.array<?xui8, "host:cpu:0", device>
  %h = usm.to_host %b : !usm.array<?xui8, "host:cpu:0", device> -> memref<?xui8>
  return %h : memref<?xui8>
}
