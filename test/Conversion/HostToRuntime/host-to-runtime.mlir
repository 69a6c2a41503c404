// RUN: sluice-opt %s --split-input-file --convert-host-to-runtime --verify-diagnostics | FileCheck %s

!H = memref<?xf32, #usm.placement<"host:cpu:0", device>>
!O = memref<?xf32, #usm.placement<"opencl:cpu:0"("q2"), shared>>

module attributes {gpu.container_module} {
  // Allocations, copies and frees call the runtime on the placement's queue
  // (device string and queue name as constant strings).
  // CHECK-DAG: llvm.mlir.global internal constant @[[HOST:sluice_str_[0-9a-f]+]]("host:cpu:0\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[Q2:sluice_str_[0-9a-f]+]]("q2\00")
  // Entry functions are internal, inlined into their entry points.
  // CHECK-LABEL: llvm.func internal @f(
  // CHECK-SAME: always_inline
  // CHECK: %[[D:.*]] = llvm.mlir.addressof @[[HOST]]
  // CHECK: %[[Q:.*]] = llvm.call @sluiceProgramQueue(%[[D]], %{{.*}})
  // CHECK: %[[P:.*]] = llvm.call @sluiceProgramAlloc(%[[Q]], %{{.*}}, %{{.*}}) : (!llvm.ptr, i32, i64) -> !llvm.ptr
  // The host kernel is launched through its ABI wrapper's address.
  // CHECK: %[[FN:.*]] = llvm.mlir.addressof @sluice_host_kernels__k : !llvm.ptr
  // CHECK: llvm.call @sluiceProgramLaunchHost(%{{.*}}, %[[FN]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
  // CHECK: llvm.call @sluiceProgramCopy
  // CHECK: llvm.call @sluiceProgramFree
  func.func @f(%a: !H, %n: index) -> !O {
    %c1 = arith.constant 1 : index
    %t = memref.alloc(%n) : !H
    gpu.launch_func @sluice_host_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : !H, %t : !H, %n : index) {sluice.queue = #usm.queue<"host:cpu:0">}
    %o = memref.alloc(%n) : !O
    memref.copy %t, %o : !H to !O
    memref.dealloc %t : !H
    return %o : !O
  }
  // Public functions get an entry point with a packed argument list that
  // brackets the call with Begin/End and returns End's status.
  // CHECK-LABEL: llvm.func @_sluice_entry_f(%{{.*}}: !llvm.ptr) -> i32
  // CHECK: llvm.call @sluiceProgramBegin()
  // CHECK: llvm.call @f(
  // CHECK: llvm.store
  // CHECK: %[[S:.*]] = llvm.call @sluiceProgramEnd() : () -> i32
  // CHECK: llvm.return %[[S]]
  // The kernel body takes its workgroup id and count as two extra arguments;
  // f32 exp stays an LLVM intrinsic (the vectoriser maps it to libmvec's
  // vector variants), f16 sin is computed in f32.
  // CHECK-LABEL: llvm.func internal @sluice_host_kernels__k_impl
  // CHECK-SAME: always_inline
  // CHECK-NOT: llvm.call
  // CHECK: llvm.intr.exp(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.fpext %{{.*}} : f16 to f32
  // CHECK: llvm.intr.sin(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.fptrunc %{{.*}} : f32 to f16
  // CHECK: llvm.return
  // The wrapper has the host ABI: void(void **args, const SluiceHostGroup *).
  // CHECK-LABEL: llvm.func @sluice_host_kernels__k(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
  // CHECK: llvm.call @sluice_host_kernels__k_impl
  gpu.module @sluice_host_kernels {
    gpu.func @k(%in: !H, %out: !H, %n: index) kernel {
      %g = gpu.block_id x
      %x = memref.load %in[%g] : !H
      %e = math.exp %x : f32
      %h = arith.truncf %e : f32 to f16
      %s = math.sin %h : f16
      %w = arith.extf %s : f16 to f32
      memref.store %w, %out[%g] : !H
      gpu.return
    }
  }
}

// -----

!C = memref<?xf32, #usm.placement<"opencl:cpu:0", device>>

module attributes {gpu.container_module} {
  func.func @g(%a: !C) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{kernels of "sluice_spirv_kernels" were not compiled to a binary}}
    gpu.launch_func @sluice_spirv_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : !C) {sluice.queue = #usm.queue<"opencl:cpu:0">}
    return
  }
  gpu.module @sluice_spirv_kernels {
    gpu.func @k(%in: !C) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @h() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{is not a Sluice kernel launch}}
    gpu.launch_func @other::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @other {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// A run-time check branches to a block that records the failure with the
// message and the values, then goes on (later runtime calls do nothing).
// CHECK-DAG: llvm.mlir.global internal constant @[[MSG:sluice_str_[0-9a-f]+]]("usm.add at a.mlir:3:8: shapes ({0},) ({1},)\00")
// The values' slot is in the entry block (ArgumentSlots.cpp).
// CHECK-LABEL: llvm.func internal @check
// CHECK-SAME: (%[[OK:.*]]: i1, %[[N:.*]]: i64, %[[M:.*]]: i64)
// CHECK: %[[VALUES:.*]] = llvm.alloca %{{.*}} x i8
// CHECK: llvm.cond_br %[[OK]], ^[[CONT:.*]], ^[[FAIL:.*]]
// CHECK: ^[[FAIL]]:
// CHECK-NOT: llvm.intr.stacksave
// CHECK: llvm.store %[[N]]
// CHECK: llvm.store %[[M]]
// CHECK: %[[TEXT:.*]] = llvm.mlir.addressof @[[MSG]]
// CHECK: llvm.call @sluiceProgramFail(%{{.*}}, %[[TEXT]], %{{.*}}, %[[VALUES]]) : (i32, !llvm.ptr, i32, !llvm.ptr) -> ()
// CHECK: llvm.br ^[[CONT]]
// CHECK: ^[[CONT]]:
// CHECK: llvm.return
func.func @check(%ok: i1, %n: index, %m: index) {
  usm.assert %ok, "usm.add at a.mlir:3:8: shapes ({0},) ({1},)" (%n, %m)
  return
}

// -----

// A while loop around a nested loop keeps its body: structured control flow
// becomes blocks by dialect conversion (the greedy driver dropped the body,
// or crashed, on such loops).
!W = memref<4xi64, #usm.placement<"host:cpu:0", device>>
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func internal @sluice_host_kernels__w_impl
  // CHECK: ^bb1:
  // CHECK: llvm.icmp "sgt"
  // CHECK: llvm.cond_br %{{.*}}, ^bb2, ^[[EXIT:bb[0-9]+]]
  // CHECK: llvm.sdiv
  // CHECK: llvm.store
  // CHECK: llvm.br ^bb1
  // CHECK: ^[[EXIT]]:
  // CHECK-NEXT: llvm.return
  gpu.module @sluice_host_kernels {
    gpu.func @w(%m: !W, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0 : i64
      %two = arith.constant 2 : i64
      scf.while : () -> () {
        %x = memref.load %m[%c0] : !W
        %c = arith.cmpi sgt, %x, %z : i64
        scf.condition(%c)
      } do {
        scf.for %i = %c0 to %n step %c1 {
          %y = memref.load %m[%i] : !W
          %h = arith.divsi %y, %two : i64
          memref.store %h, %m[%i] : !W
        }
        scf.yield
      }
      gpu.return
    }
  }
}

// -----

// A function marked sluice.optimize_none (the launch code of a Python
// kernel) is inlined into its entry point, which LLVM leaves unoptimised;
// an unmarked one's entry point is optimised.
module {
  // CHECK-LABEL: llvm.func internal @glue
  // CHECK-SAME: always_inline
  func.func @glue(%n: i64) attributes {sluice.optimize_none} {
    return
  }
  // CHECK-LABEL: llvm.func @_sluice_entry_glue
  // CHECK-SAME: attributes {no_inline, optimize_none}
  // CHECK-LABEL: llvm.func internal @plain
  func.func @plain(%n: i64) {
    return
  }
  // CHECK-LABEL: llvm.func @_sluice_entry_plain
  // CHECK-NOT: optimize_none
  // CHECK: llvm.call @sluiceProgramBegin
}
