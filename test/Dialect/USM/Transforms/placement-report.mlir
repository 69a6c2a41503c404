// RUN: sluice-opt %s -usm-placement-report -o /dev/null | FileCheck %s
// RUN: sluice-opt %s -usm-placement-report=remarks -verify-diagnostics -o /dev/null

!A = !usm.array<256xf32, "opencl:cpu:0", device>
!B = !usm.array<256xf32, "level_zero:gpu:0", device>
!BS = !usm.array<256xf32, "level_zero:gpu:0", shared>

// CHECK-LABEL: placement report for @round_trip
// CHECK-NEXT: queue "opencl:cpu:0": %arg0 (256xf32 device), %3 (256xf32 device)
// CHECK-NEXT: queue "level_zero:gpu:0": %0 (256xf32 device), %1 (256xf32 device), %2 (256xf32 device)
// CHECK-NEXT: to_device %0 = %arg0: "opencl:cpu:0" device -> "level_zero:gpu:0" device, 1024 bytes
// CHECK-NEXT: to_device %3 = %2: "level_zero:gpu:0" device -> "opencl:cpu:0" device, 1024 bytes
// CHECK-NEXT: round trip: the data came from "opencl:cpu:0" through %0 and nothing was computed on "level_zero:gpu:0"
// CHECK-NEXT: 2 migration(s), 2048 bytes of static size
// expected-remark @+2 {{queue "opencl:cpu:0": %arg0 (256xf32 device), %3 (256xf32 device)}}
// expected-remark @+1 {{queue "level_zero:gpu:0": %0 (256xf32 device), %1 (256xf32 device), %2 (256xf32 device)}}
func.func @round_trip(%a: !A, %c: i1) -> !A {
  // expected-remark @+2 {{to_device %0 = %arg0: "opencl:cpu:0" device -> "level_zero:gpu:0" device, 1024 bytes}}
  // expected-note @+1 {{the first migration, from "opencl:cpu:0"}}
  %b = usm.to_device %a : !A -> !B
  // Through a reshape and an scf.if that only passes the array on.
  %r = usm.reshape %b : !B -> !B
  %s = scf.if %c -> !B {
    scf.yield %r : !B
  } else {
    scf.yield %b : !B
  }
  // expected-remark @+2 {{to_device %3 = %2: "level_zero:gpu:0" device -> "opencl:cpu:0" device, 1024 bytes}}
  // expected-warning @+1 {{round trip: the data came from "opencl:cpu:0" through %0 and nothing was computed on "level_zero:gpu:0"}}
  %back = usm.to_device %s : !B -> !A
  return %back : !A
}

// Computing on the other queue is not a needless round trip; dynamic sizes
// have no static byte count; USM kinds are listed.
// CHECK-LABEL: placement report for @computed
// CHECK-NEXT: queue "opencl:cpu:0": %arg0 (256xf32 device), %arg1 (?xf32 device), %3 (256xf32 device)
// CHECK-NEXT: queue "level_zero:gpu:0": %0 (256xf32 shared), %1 (256xf32 shared), %2 (?xf32 device)
// CHECK-NEXT: to_device %0 = %arg0: "opencl:cpu:0" device -> "level_zero:gpu:0" shared, 1024 bytes
// CHECK-NEXT: to_device %2 = %arg1: "opencl:cpu:0" device -> "level_zero:gpu:0" device, dynamic size
// CHECK-NEXT: to_device %3 = %1: "level_zero:gpu:0" shared -> "opencl:cpu:0" device, 1024 bytes
// CHECK-NOT: round trip
// CHECK: 3 migration(s), 2048 bytes of static size
// expected-remark @+2 {{queue "opencl:cpu:0"}}
// expected-remark @+1 {{queue "level_zero:gpu:0"}}
func.func @computed(%a: !A, %d: !usm.array<?xf32, "opencl:cpu:0", device>) -> !A {
  // expected-remark @+1 {{to_device}}
  %b = usm.to_device %a : !A -> !BS
  %e = usm.exp %b : (!BS) -> !BS
  // expected-remark @+1 {{dynamic size}}
  %g = usm.to_device %d : !usm.array<?xf32, "opencl:cpu:0", device> -> !usm.array<?xf32, "level_zero:gpu:0", device>
  // expected-remark @+1 {{to_device}}
  %back = usm.to_device %e : !BS -> !A
  return %back : !A
}

// Unplaced arrays are listed as such.
// CHECK-LABEL: placement report for @unplaced
// CHECK-NEXT: unplaced: %0 (4xf32)
// CHECK-NEXT: 0 migration(s), 0 bytes of static size
// expected-remark @+1 {{unplaced: %0 (4xf32)}}
func.func @unplaced(%m: memref<4xf32>) {
  %h = usm.from_host %m : memref<4xf32> -> !usm.array<4xf32, ?>
  return
}
