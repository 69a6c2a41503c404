// RUN: sluice-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sluice-opt %s -split-input-file -verify-diagnostics | sluice-opt -split-input-file | FileCheck %s

// usm.gather round-trips, with static and dynamic shapes; its verifier
// names what is wrong.

!S = !usm.array<4x5xf32, "opencl:cpu:0", device>
// CHECK-LABEL: func.func @gather
// CHECK: usm.gather %{{.*}}[%{{.*}}] : !usm.array<4x5xf32, "opencl:cpu:0", device>, !usm.array<2x3xi64, "opencl:cpu:0", device> -> !usm.array<2x3xf32, "opencl:cpu:0", device>
// CHECK: usm.gather %{{.*}}[%{{.*}}] : !usm.array<?xui8, "opencl:cpu:0", shared>, !usm.array<?xui32, "opencl:cpu:0", device> -> !usm.array<?xui8, "opencl:cpu:0", shared>
func.func @gather(%a: !S, %i: !usm.array<2x3xi64, "opencl:cpu:0", device>,
                  %b: !usm.array<?xui8, "opencl:cpu:0", shared>,
                  %j: !usm.array<?xui32, "opencl:cpu:0", device>) {
  %0 = usm.gather %a[%i] : !S, !usm.array<2x3xi64, "opencl:cpu:0", device> -> !usm.array<2x3xf32, "opencl:cpu:0", device>
  %1 = usm.gather %b[%j] : !usm.array<?xui8, "opencl:cpu:0", shared>, !usm.array<?xui32, "opencl:cpu:0", device> -> !usm.array<?xui8, "opencl:cpu:0", shared>
  return
}

// -----

func.func @float_indices(%a: !usm.array<4xf32, "host:cpu:0", device>, %i: !usm.array<2xf32, "host:cpu:0", device>) {
  // expected-error @+1 {{'usm.gather' op indices must be an array of integers, not of 'f32'}}
  %0 = usm.gather %a[%i] : !usm.array<4xf32, "host:cpu:0", device>, !usm.array<2xf32, "host:cpu:0", device> -> !usm.array<2xf32, "host:cpu:0", device>
  return
}

// -----

func.func @bool_indices(%a: !usm.array<4xf32, "host:cpu:0", device>, %i: !usm.array<2xi1, "host:cpu:0", device>) {
  // expected-error @+1 {{'usm.gather' op indices must be an array of integers, not of 'i1'}}
  %0 = usm.gather %a[%i] : !usm.array<4xf32, "host:cpu:0", device>, !usm.array<2xi1, "host:cpu:0", device> -> !usm.array<2xf32, "host:cpu:0", device>
  return
}

// -----

func.func @element_type(%a: !usm.array<4xf32, "host:cpu:0", device>, %i: !usm.array<2xi64, "host:cpu:0", device>) {
  // expected-error @+1 {{'usm.gather' op result element type 'f64' differs from the source's 'f32'}}
  %0 = usm.gather %a[%i] : !usm.array<4xf32, "host:cpu:0", device>, !usm.array<2xi64, "host:cpu:0", device> -> !usm.array<2xf64, "host:cpu:0", device>
  return
}

// -----

func.func @shape(%a: !usm.array<4xf32, "host:cpu:0", device>, %i: !usm.array<2xi64, "host:cpu:0", device>) {
  // expected-error @+1 {{'usm.gather' op result shape (3,) differs from the shape of the indices (2,)}}
  %0 = usm.gather %a[%i] : !usm.array<4xf32, "host:cpu:0", device>, !usm.array<2xi64, "host:cpu:0", device> -> !usm.array<3xf32, "host:cpu:0", device>
  return
}

// -----

func.func @placement(%a: !usm.array<4xf32, "host:cpu:0", device>, %i: !usm.array<2xi64, "host:cpu:0", device>) {
  // expected-error @+1 {{'usm.gather' op result placement ("host:cpu:0", shared) differs from the source's ("host:cpu:0", device)}}
  %0 = usm.gather %a[%i] : !usm.array<4xf32, "host:cpu:0", device>, !usm.array<2xi64, "host:cpu:0", device> -> !usm.array<2xf32, "host:cpu:0", shared>
  return
}

// -----

func.func @queues(%a: !usm.array<4xf32, "host:cpu:0", device>, %i: !usm.array<2xi64, "opencl:cpu:0", device>) {
  // expected-error @+1 {{'usm.gather' op indices are on "opencl:cpu:0" and the source on "host:cpu:0"; a gather runs on one queue}}
  %0 = usm.gather %a[%i] : !usm.array<4xf32, "host:cpu:0", device>, !usm.array<2xi64, "opencl:cpu:0", device> -> !usm.array<2xf32, "host:cpu:0", device>
  return
}
