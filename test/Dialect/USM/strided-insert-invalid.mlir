// RUN: sluice-opt %s -split-input-file -verify-diagnostics

// usm.strided_insert's verifier names what is wrong.

func.func @element_type(%d: !usm.array<4xf32, "host:cpu:0", device>, %v: !usm.array<2xf64, "host:cpu:0", device>, %o: index) {
  // expected-error @+1 {{'usm.strided_insert' op value element type 'f64' differs from the destination's 'f32'}}
  %0 = usm.strided_insert %v into %d[%o] sizes(%o) strides(%o) : !usm.array<2xf64, "host:cpu:0", device>, !usm.array<4xf32, "host:cpu:0", device>
  return
}

// -----

func.func @placement(%d: !usm.array<4xf32, "host:cpu:0", device>, %v: !usm.array<2xf32, "host:cpu:0", shared>, %o: index) {
  // expected-error @+1 {{'usm.strided_insert' op value placement ("host:cpu:0", shared) differs from the destination's ("host:cpu:0", device)}}
  %0 = usm.strided_insert %v into %d[%o] sizes(%o) strides(%o) : !usm.array<2xf32, "host:cpu:0", shared>, !usm.array<4xf32, "host:cpu:0", device>
  return
}

// -----

func.func @counts(%d: !usm.array<4xf32, "host:cpu:0", device>, %v: !usm.array<2x2xf32, "host:cpu:0", device>, %o: index) {
  // expected-error @+1 {{'usm.strided_insert' op needs one size and one stride per value dimension (2), got 1 sizes and 2 strides}}
  %0 = usm.strided_insert %v into %d[%o] sizes(%o) strides(%o, %o) : !usm.array<2x2xf32, "host:cpu:0", device>, !usm.array<4xf32, "host:cpu:0", device>
  return
}

// -----

func.func @size(%d: !usm.array<4xf32, "host:cpu:0", device>, %v: !usm.array<2xf32, "host:cpu:0", device>, %o: index) {
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'usm.strided_insert' op value dimension 0 has size 2 but the window's is 3}}
  %0 = usm.strided_insert %v into %d[%o] sizes(%c3) strides(%o) : !usm.array<2xf32, "host:cpu:0", device>, !usm.array<4xf32, "host:cpu:0", device>
  return
}

// -----

func.func @negative_size(%d: !usm.array<4xf32, "host:cpu:0", device>, %v: !usm.array<?xf32, "host:cpu:0", device>, %o: index) {
  %m = arith.constant -2 : index
  // expected-error @+1 {{'usm.strided_insert' op size 0 is negative (-2)}}
  %0 = usm.strided_insert %v into %d[%o] sizes(%m) strides(%o) : !usm.array<?xf32, "host:cpu:0", device>, !usm.array<4xf32, "host:cpu:0", device>
  return
}

// -----

func.func @outside(%d: !usm.array<4x5xf32, "host:cpu:0", device>, %v: !usm.array<2x3xf32, "host:cpu:0", device>) {
  %c14 = arith.constant 14 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'usm.strided_insert' op window reaches positions 14 to 21, outside the destination's 20 elements}}
  %0 = usm.strided_insert %v into %d[%c14] sizes(%c2, %c3) strides(%c5, %c1) : !usm.array<2x3xf32, "host:cpu:0", device>, !usm.array<4x5xf32, "host:cpu:0", device>
  return
}

// -----

func.func @below(%d: !usm.array<6xf32, "host:cpu:0", device>, %v: !usm.array<3xf32, "host:cpu:0", device>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{'usm.strided_insert' op window reaches positions -1 to 1, outside the destination's 6 elements}}
  %0 = usm.strided_insert %v into %d[%c1] sizes(%c3) strides(%m1) : !usm.array<3xf32, "host:cpu:0", device>, !usm.array<6xf32, "host:cpu:0", device>
  return
}
