// RUN: sluice-opt %s -split-input-file -verify-diagnostics

// usm.matmul checks compute-follows-data like every op, and shapes and
// element types as NumPy's matmul does.
func.func @queues(%a: !usm.array<4x8xf32, "opencl:cpu:0", device>,
                  %b: !usm.array<8x3xf32, "host:cpu:0", device>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'usm.matmul' op execution placement can not be unambiguously inferred from input arguments: operand #0 is on queue "opencl:cpu:0" but operand #1 is on queue "host:cpu:0"; migrate one of them with usm.to_device}}
  %c = usm.matmul %a, %b : (!usm.array<4x8xf32, "opencl:cpu:0", device>, !usm.array<8x3xf32, "host:cpu:0", device>) -> !usm.array<4x3xf32, "opencl:cpu:0", device>
  return
}

// -----

func.func @contracted(%a: !usm.array<4x8xf32, "gpu:0", device>,
                      %b: !usm.array<7x3xf32, "gpu:0", device>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'usm.matmul' op contracted sizes differ: shapes (4,8) and (7,3)}}
  %c = usm.matmul %a, %b : (!usm.array<4x8xf32, "gpu:0", device>, !usm.array<7x3xf32, "gpu:0", device>) -> !usm.array<4x3xf32, "gpu:0", device>
  return
}

// -----

func.func @vector(%a: !usm.array<8xf32, "gpu:0", device>,
                  %b: !usm.array<8x3xf32, "gpu:0", device>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'usm.matmul' op needs operands of rank 2 or more, got shapes (8,) and (8,3)}}
  %c = usm.matmul %a, %b : (!usm.array<8xf32, "gpu:0", device>, !usm.array<8x3xf32, "gpu:0", device>) -> !usm.array<3xf32, "gpu:0", device>
  return
}

// -----

func.func @elements(%a: !usm.array<4x8xf32, "gpu:0", device>,
                    %b: !usm.array<8x3xf64, "gpu:0", device>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'usm.matmul' op operand element types differ ('f32' and 'f64'); convert one with usm.astype}}
  %c = usm.matmul %a, %b : (!usm.array<4x8xf32, "gpu:0", device>, !usm.array<8x3xf64, "gpu:0", device>) -> !usm.array<4x3xf32, "gpu:0", device>
  return
}

// -----

func.func @booleans(%a: !usm.array<4x8xi1, "gpu:0", device>,
                    %b: !usm.array<8x3xi1, "gpu:0", device>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'usm.matmul' op does not accept i1 (boolean) elements}}
  %c = usm.matmul %a, %b : (!usm.array<4x8xi1, "gpu:0", device>, !usm.array<8x3xi1, "gpu:0", device>) -> !usm.array<4x3xi1, "gpu:0", device>
  return
}

// -----

func.func @batch(%a: !usm.array<2x4x8xf32, "gpu:0", device>,
                 %b: !usm.array<3x8x3xf32, "gpu:0", device>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'usm.matmul' op batch axes could not be broadcast together with shapes (2,) and (3,)}}
  %c = usm.matmul %a, %b : (!usm.array<2x4x8xf32, "gpu:0", device>, !usm.array<3x8x3xf32, "gpu:0", device>) -> !usm.array<2x4x3xf32, "gpu:0", device>
  return
}

// -----

func.func @result(%a: !usm.array<4x8xf32, "gpu:0", device>,
                  %b: !usm.array<8x3xf32, "gpu:0", device>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'usm.matmul' op inferred type(s)}}
  %c = usm.matmul %a, %b : (!usm.array<4x8xf32, "gpu:0", device>, !usm.array<8x3xf32, "gpu:0", device>) -> !usm.array<4x4xf32, "gpu:0", device>
  return
}

// -----

// usm.library_matmul: shapes that do not give the result, batch axes that
// broadcast partly, and a result without a placement.
func.func @library_shapes(%a: memref<4x8xf32, #usm.placement<"host:cpu:0", device>>,
                          %b: memref<8x3xf32, #usm.placement<"host:cpu:0", device>>,
                          %c: memref<4x5xf32, #usm.placement<"host:cpu:0", device>>) {
  // expected-error @+1 {{'usm.library_matmul' op shapes (4,8) x (8,3) do not give (4,5)}}
  usm.library_matmul %a, %b, %c : memref<4x8xf32, #usm.placement<"host:cpu:0", device>>, memref<8x3xf32, #usm.placement<"host:cpu:0", device>>, memref<4x5xf32, #usm.placement<"host:cpu:0", device>>
  return
}

// -----

func.func @library_batch(%a: memref<2x4x8xf32, #usm.placement<"host:cpu:0", device>>,
                         %b: memref<8x3xf32, #usm.placement<"host:cpu:0", device>>,
                         %c: memref<6x4x3xf32, #usm.placement<"host:cpu:0", device>>) {
  // expected-error @+1 {{'usm.library_matmul' op each operand's batch axes must be the result's or all of size 1}}
  usm.library_matmul %a, %b, %c : memref<2x4x8xf32, #usm.placement<"host:cpu:0", device>>, memref<8x3xf32, #usm.placement<"host:cpu:0", device>>, memref<6x4x3xf32, #usm.placement<"host:cpu:0", device>>
  return
}

// -----

func.func @library_placement(%a: memref<4x8xf32>, %b: memref<8x3xf32>,
                             %c: memref<4x3xf32>) {
  // expected-error @+1 {{'usm.library_matmul' op result buffer has no placement (memory space)}}
  usm.library_matmul %a, %b, %c : memref<4x8xf32>, memref<8x3xf32>, memref<4x3xf32>
  return
}
