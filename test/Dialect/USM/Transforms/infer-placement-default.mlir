// RUN: sluice-opt %s -usm-infer-placement="default-queue=opencl:cpu" | FileCheck %s
// RUN: sluice-opt %s -usm-infer-placement="default-queue=gpu default-kind=shared" | FileCheck %s --check-prefix=SHARED
// RUN: not sluice-opt %s -usm-infer-placement="default-queue=gpu,cpu" 2>&1 | FileCheck %s --check-prefix=BAD

// Arrays that meet no placed array take the default queue (and kind);
// placed ones are not affected.

// CHECK-LABEL: func.func @defaults
// CHECK-SAME: (%{{.*}}: !usm.array<4xf32, "opencl:cpu:0", device>, %{{.*}}: memref<4xf32>) -> !usm.array<4xf32, "opencl:cpu:0", device>
// CHECK: usm.from_host {{.*}} -> !usm.array<4xf32, "opencl:cpu:0", device>
// SHARED-LABEL: func.func @defaults
// SHARED: usm.from_host {{.*}} -> !usm.array<4xf32, "*:gpu:0", shared>
func.func @defaults(%x: !usm.array<4xf32, ?>, %m: memref<4xf32>) -> !usm.array<4xf32, ?> {
  %h = usm.from_host %m : memref<4xf32> -> !usm.array<4xf32, ?>
  %s = usm.add %x, %h : (!usm.array<4xf32, ?>, !usm.array<4xf32, ?>) -> !usm.array<4xf32, ?>
  return %s : !usm.array<4xf32, ?>
}

// CHECK-LABEL: func.func @placed
// CHECK: usm.from_host {{.*}} -> !usm.array<4xf32, "level_zero:gpu:0", device>
func.func @placed(%m: memref<4xf32>, %a: !usm.array<4xf32, "level_zero:gpu:0", device>) -> !usm.array<4xf32, "level_zero:gpu:0", device> {
  %h = usm.from_host %m : memref<4xf32> -> !usm.array<4xf32, ?>
  %s = usm.add %h, %a : (!usm.array<4xf32, ?>, !usm.array<4xf32, "level_zero:gpu:0", device>) -> !usm.array<4xf32, "level_zero:gpu:0", device>
  return %s : !usm.array<4xf32, "level_zero:gpu:0", device>
}

// BAD: usm-infer-placement: default-queue: invalid filter string 'gpu,cpu': a fallback list selects a device at run time
