// RUN: sluice-opt %s --split-input-file --convert-linalg-to-kernels=host-streaming-stores=true | FileCheck %s
// RUN: sluice-opt %s --split-input-file --convert-linalg-to-kernels | FileCheck %s --check-prefix=OFF
// RUN: sluice-opt %s --split-input-file --convert-linalg-to-kernels=host-streaming-stores=true --canonicalize --convert-host-to-runtime | FileCheck %s --check-prefix=LLVM

#id = affine_map<(d0) -> (d0)>
!H = memref<?xf32, #usm.placement<"host:cpu:0", device>>

// A host elementwise kernel of dynamic size gets a streaming variant: the
// launch takes it when the output holds 16 MiB or more and is 64-byte
// aligned, the plain kernel otherwise. The variant assumes the alignment and
// carries the marker the host optimisation pipeline acts on.
// CHECK-LABEL: func.func @dynamic_map
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: %[[LOW:.*]] = arith.remui %[[PTR]], %c64
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[LOW]], %c0
// CHECK: %[[LARGE:.*]] = arith.cmpi uge, %{{.*}}, %c16777216
// CHECK: %[[BOTH:.*]] = arith.andi %[[LARGE]], %[[ALIGNED]]
// CHECK: scf.if %[[BOTH]] {
// CHECK: gpu.launch_func @sluice_host_kernels::@dynamic_map_map_stream
// CHECK: } else {
// CHECK: gpu.launch_func @sluice_host_kernels::@dynamic_map_map blocks
// CHECK: gpu.func @dynamic_map_map(
// CHECK-NOT: memref.assume_alignment
// CHECK: gpu.return
// CHECK: gpu.func @dynamic_map_map_stream(%{{.*}}: memref<?xf32, {{.*}}>, %[[OUT:.*]]: memref<?xf32, {{.*}}>, %{{.*}}: index) kernel attributes {"sluice-nontemporal-stores"}
// CHECK: %[[A:.*]] = memref.assume_alignment %[[OUT]], 64
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[A]][%{{.*}}]
// OFF-LABEL: func.func @dynamic_map
// OFF-NOT: scf.if
// OFF-NOT: _stream
// OFF: gpu.module
// LLVM: llvm.func internal @sluice_host_kernels__dynamic_map_map_stream_impl({{.*}}passthrough = ["sluice-nontemporal-stores"]
// LLVM: llvm.intr.assume
// LLVM: llvm.func @sluice_host_kernels__dynamic_map_map_stream(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {passthrough = ["sluice-nontemporal-stores"]}
func.func @dynamic_map(%a: !H, %out: !H) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : !H) outs(%out : !H) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
!S = memref<1024xf32, #usm.placement<"host:cpu:0", device>>

// A static output below 16 MiB never streams: no variant.
// CHECK-LABEL: func.func @small_static
// CHECK-NOT: scf.if
// CHECK-NOT: _stream
// CHECK: gpu.module
func.func @small_static(%a: !S, %out: !S) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : !S) outs(%out : !S) {
  ^bb0(%x: f32, %o: f32):
    %e = arith.addf %x, %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
!L = memref<8388608xf32, #usm.placement<"host:cpu:0", device>>

// A static output of 32 MiB has the variant (alignment still checked).
// CHECK-LABEL: func.func @large_static
// CHECK: scf.if
// CHECK: @large_static_map_stream
func.func @large_static(%a: !L, %out: !L) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : !L) outs(%out : !L) {
  ^bb0(%x: f32, %o: f32):
    %e = arith.addf %x, %x : f32
    linalg.yield %e : f32
  }
  return
}
