// RUN: sluice-opt %s -split-input-file -verify-diagnostics

// usm.scatter's verifier names what is wrong.

func.func @element_type(%d: !usm.array<4xf32, "host:cpu:0", device>, %v: !usm.array<2xf64, "host:cpu:0", device>, %p: !usm.array<2xi64, "host:cpu:0", device>) {
  // expected-error @+1 {{'usm.scatter' op value element type 'f64' differs from the destination's 'f32'}}
  %0 = usm.scatter %v into %d[%p] : !usm.array<2xf64, "host:cpu:0", device>, !usm.array<2xi64, "host:cpu:0", device>, !usm.array<4xf32, "host:cpu:0", device>
  return
}

// -----

func.func @positions_type(%d: !usm.array<4xf32, "host:cpu:0", device>, %v: !usm.array<2xf32, "host:cpu:0", device>, %p: !usm.array<2xf32, "host:cpu:0", device>) {
  // expected-error @+1 {{'usm.scatter' op positions must be an array of integers, not of 'f32'}}
  %0 = usm.scatter %v into %d[%p] : !usm.array<2xf32, "host:cpu:0", device>, !usm.array<2xf32, "host:cpu:0", device>, !usm.array<4xf32, "host:cpu:0", device>
  return
}

// -----

func.func @shape(%d: !usm.array<4xf32, "host:cpu:0", device>, %v: !usm.array<3xf32, "host:cpu:0", device>, %p: !usm.array<2xi64, "host:cpu:0", device>) {
  // expected-error @+1 {{'usm.scatter' op value shape (3,) differs from the shape of the positions (2,)}}
  %0 = usm.scatter %v into %d[%p] : !usm.array<3xf32, "host:cpu:0", device>, !usm.array<2xi64, "host:cpu:0", device>, !usm.array<4xf32, "host:cpu:0", device>
  return
}

// -----

func.func @placement(%d: !usm.array<4xf32, "host:cpu:0", device>, %v: !usm.array<2xf32, "host:cpu:0", shared>, %p: !usm.array<2xi64, "host:cpu:0", device>) {
  // expected-error @+1 {{'usm.scatter' op value placement ("host:cpu:0", shared) differs from the destination's ("host:cpu:0", device)}}
  %0 = usm.scatter %v into %d[%p] : !usm.array<2xf32, "host:cpu:0", shared>, !usm.array<2xi64, "host:cpu:0", device>, !usm.array<4xf32, "host:cpu:0", device>
  return
}

// -----

func.func @queue(%d: !usm.array<4xf32, "host:cpu:0", device>, %v: !usm.array<2xf32, "host:cpu:0", device>, %p: !usm.array<2xi64, "opencl:cpu:0", device>) {
  // expected-error @+1 {{'usm.scatter' op positions are on "opencl:cpu:0" and the destination on "host:cpu:0"; a scatter runs on one queue}}
  %0 = usm.scatter %v into %d[%p] : !usm.array<2xf32, "host:cpu:0", device>, !usm.array<2xi64, "opencl:cpu:0", device>, !usm.array<4xf32, "host:cpu:0", device>
  return
}

// -----

func.func @empty(%d: !usm.array<0xf32, "host:cpu:0", device>, %v: !usm.array<2xf32, "host:cpu:0", device>, %p: !usm.array<2xi64, "host:cpu:0", device>) {
  // expected-error @+1 {{'usm.scatter' op scatters 2 values into an empty destination}}
  %0 = usm.scatter %v into %d[%p] : !usm.array<2xf32, "host:cpu:0", device>, !usm.array<2xi64, "host:cpu:0", device>, !usm.array<0xf32, "host:cpu:0", device>
  return
}
