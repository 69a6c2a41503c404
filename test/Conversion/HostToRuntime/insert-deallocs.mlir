// RUN: sluice-opt %s --split-input-file --sluice-insert-deallocs | FileCheck %s

!T = memref<16xf32, #usm.placement<"host:cpu:0", device>>
!F = memref<?xf32, #usm.placement<"host:cpu:0", device>>

// A temporary is freed after its last use, views included; the returned
// buffer is not.
// CHECK-LABEL: func.func @temporaries
// CHECK: %[[T:.*]] = memref.alloc() : memref<16xf32
// CHECK: %[[R:.*]] = memref.alloc() : memref<16xf32
// CHECK: memref.copy %[[T]], %[[R]]
// CHECK: memref.reinterpret_cast %[[T]]
// CHECK: memref.dim
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK-NOT: memref.dealloc
// CHECK: return %[[R]]
func.func @temporaries() -> !T {
  %t = memref.alloc() : !T
  %r = memref.alloc() : !T
  memref.copy %t, %r : !T to !T
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %v = memref.reinterpret_cast %t to offset: [0], sizes: [%c16], strides: [1] : !T to !F
  %d = memref.dim %v, %c0 : !F
  return %r : !T
}

// -----

!T = memref<16xf32, #usm.placement<"host:cpu:0", device>>

// Reading a temporary's address as an integer (the alignment test of host
// kernels with streaming stores) does not keep it: it is still freed.
// CHECK-LABEL: func.func @aligned_pointer
// CHECK: %[[T:.*]] = memref.alloc() : memref<16xf32
// CHECK: memref.extract_aligned_pointer_as_index %[[T]]
// CHECK-NEXT: memref.dealloc %[[T]]
func.func @aligned_pointer() -> index {
  %t = memref.alloc() : !T
  %p = memref.extract_aligned_pointer_as_index %t : !T -> index
  return %p : index
}

// -----

!T = memref<16xf32, #usm.placement<"host:cpu:0", device>>

// Buffers passed to calls or through control flow escape and are left alone.
// CHECK-LABEL: func.func @escapes
// CHECK-NOT: memref.dealloc
func.func private @consume(!T)
func.func @escapes(%c: i1) {
  %t = memref.alloc() : !T
  func.call @consume(%t) : (!T) -> ()
  %u = memref.alloc() : !T
  cf.cond_br %c, ^a(%u : !T), ^b
^a(%x: !T):
  return
^b:
  return
}

// -----

// Plain memrefs (outside USM) are not touched.
// CHECK-LABEL: func.func @plain
// CHECK-NOT: memref.dealloc
func.func @plain() {
  %t = memref.alloc() : memref<4xf32>
  return
}
