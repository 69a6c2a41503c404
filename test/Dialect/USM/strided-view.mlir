// RUN: sluice-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sluice-opt %s -split-input-file -verify-diagnostics | sluice-opt -split-input-file | FileCheck %s

// usm.strided_view round-trips; its verifier names what is wrong.

!F = !usm.array<?xf32, "opencl:cpu:0", device>
// CHECK-LABEL: func.func @view
// CHECK: usm.strided_view %{{.*}}[%{{.*}}] sizes(%{{.*}}, %{{.*}}) strides(%{{.*}}, %{{.*}}) : !usm.array<?xf32, "opencl:cpu:0", device> -> !usm.array<?x1xf32, "opencl:cpu:0", device>
func.func @view(%b: !F, %o: index, %m: index, %s: index) {
  %c1 = arith.constant 1 : index
  %0 = usm.strided_view %b[%o] sizes(%m, %c1) strides(%s, %c1) : !F -> !usm.array<?x1xf32, "opencl:cpu:0", device>
  return
}

// -----

func.func @base_rank(%b: !usm.array<2x2xf32, "host:cpu:0", device>, %o: index) {
  // expected-error @+1 {{'usm.strided_view' op base must be a 1-D array, not of shape (2,2)}}
  %0 = usm.strided_view %b[%o] sizes(%o) strides(%o) : !usm.array<2x2xf32, "host:cpu:0", device> -> !usm.array<?xf32, "host:cpu:0", device>
  return
}

// -----

func.func @element_type(%b: !usm.array<?xf32, "host:cpu:0", device>, %o: index) {
  // expected-error @+1 {{'usm.strided_view' op result element type 'f64' differs from the base's 'f32'}}
  %0 = usm.strided_view %b[%o] sizes(%o) strides(%o) : !usm.array<?xf32, "host:cpu:0", device> -> !usm.array<?xf64, "host:cpu:0", device>
  return
}

// -----

func.func @placement(%b: !usm.array<?xf32, "host:cpu:0", device>, %o: index) {
  // expected-error @+1 {{'usm.strided_view' op result placement}}
  %0 = usm.strided_view %b[%o] sizes(%o) strides(%o) : !usm.array<?xf32, "host:cpu:0", device> -> !usm.array<?xf32, "host:cpu:0", shared>
  return
}

// -----

func.func @counts(%b: !usm.array<?xf32, "host:cpu:0", device>, %o: index) {
  // expected-error @+1 {{'usm.strided_view' op needs one size and one stride per result dimension (2), got 1 sizes and 2 strides}}
  %0 = usm.strided_view %b[%o] sizes(%o) strides(%o, %o) : !usm.array<?xf32, "host:cpu:0", device> -> !usm.array<?x?xf32, "host:cpu:0", device>
  return
}
