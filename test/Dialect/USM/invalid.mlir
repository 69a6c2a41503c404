// RUN: sluice-opt %s -split-input-file -verify-diagnostics

//===--- Filter strings, queues and array types ---------------------------===//

// expected-error @+1 {{invalid filter string '': it is empty}}
func.func private @f(!usm.array<4xf32, "", device>)

// -----

// expected-error @+1 {{a fallback list selects a device at run time; a queue names exactly one device}}
func.func private @f(!usm.array<4xf32, "gpu,cpu", device>)

// -----

// expected-error @+1 {{too many ':'-separated parts}}
func.func private @f(!usm.array<4xf32, "opencl:cpu:0:1", device>)

// -----

// expected-error @+1 {{invalid filter string 'opencl::0': invalid device selector: empty part}}
func.func private @f(!usm.array<4xf32, "opencl::0", device>)

// -----

// expected-error @+1 {{unknown backend or device type 'vulkan'}}
func.func private @f(!usm.array<4xf32, "vulkan:gpu:0", device>)

// -----

// expected-error @+1 {{negative index '-1'}}
func.func private @f(!usm.array<4xf32, "opencl:cpu:-1", device>)

// -----

// expected-error @+1 {{invalid filter string 'opencl:cpu:x1'}}
func.func private @f(!usm.array<4xf32, "opencl:cpu:x1", device>)

// -----

// expected-error @+1 {{backend 'level_zero' in 'gpu:level_zero' must be the first part}}
func.func private @f(!usm.array<4xf32, "gpu:level_zero", device>)

// -----

// expected-error @+1 {{the host backend has only a 'cpu' device}}
func.func private @f(!usm.array<4xf32, "host:gpu", device>)

// -----

// expected-error @+1 {{invalid filter string 'tpu'}}
func.func private @f() attributes {q = #usm.queue<"tpu">}

// -----

// expected-error @+1 {{unknown USM kind 'pinned'; expected device, shared or host}}
func.func private @f(!usm.array<4xf32, "gpu", pinned>)

// -----

// expected-error @+1 {{unknown USM kind 'global'}}
func.func private @f() attributes {p = #usm.placement<"gpu", global>}

// -----

// expected-error @+1 {{unsupported array element type 'si32'}}
func.func private @f(!usm.array<4xsi32, "gpu", device>)

// -----

// expected-error @+1 {{unsupported array element type 'index'}}
func.func private @f(!usm.array<4xindex, "gpu", device>)

// -----

// expected-error @+1 {{unsupported array element type 'i7'}}
func.func private @f(!usm.array<4xi7, "gpu", device>)

// -----

// expected-error @+1 {{unsupported array element type 'complex<i32>'}}
func.func private @f(!usm.array<4xcomplex<i32>, "gpu", device>)

// -----

// Sizes whose byte count overflows (or exceeds 2^62 bytes) are rejected.
// expected-error @+1 {{array of shape 4611686018427387903 and element type 'f32' is too large: its size in bytes exceeds 2^62}}
func.func private @f(!usm.array<4611686018427387903xf32, "gpu", device>)

// -----

// expected-error @+1 {{array of shape 2097152x2097152x2097152 and element type 'f32' is too large}}
func.func private @f(!usm.array<2097152x2097152x2097152xf32, "host", device>)

// -----

// expected-error @+1 {{array of shape ?x4611686018427387905x? and element type 'i8' is too large}}
func.func private @f(!usm.array<?x4611686018427387905x?xi8, ?>)

// -----

// The largest allowed, and any size with a zero dimension.
func.func private @f(!usm.array<1152921504606846976xf32, "gpu", device>,
                     !usm.array<4611686018427387904xi1, "gpu", device>,
                     !usm.array<0x9223372036854775807x9223372036854775807xf64, "gpu", device>)

// -----

// expected-error @+1 {{'?' is not a filter string; an unplaced array is written !usm.array<shape x element, ?> (no queue, no USM kind)}}
func.func private @f(!usm.array<4xf32, "?", device>)

// -----

// expected-error @+1 {{expected '>'}}
func.func private @f(!usm.array<4xf32, ?, device>)

// -----

func.func @f(%h: !usm.array<4xf32, ?>) {
  // expected-error @+1 {{'usm.to_device' op cannot migrate to an unplaced array; name the target queue and USM kind}}
  %d = usm.to_device %h : !usm.array<4xf32, ?> -> !usm.array<4xf32, ?>
  return
}

// -----

// Unplaced operands follow the placed ones, which still share one queue.
func.func @f(%h: !usm.array<4xf32, ?>, %a: !usm.array<4xf32, "opencl:cpu:0", device>,
             %b: !usm.array<4xf32, "level_zero:gpu:0", device>) {
  // expected-error @+2 {{'usm.where' op execution placement can not be unambiguously inferred from input arguments: operand #1 is on queue "opencl:cpu:0" but operand #2 is on queue "level_zero:gpu:0"}}
  // expected-error @+1 {{failed to infer returned types}}
  %w = "usm.where"(%h, %a, %b) : (!usm.array<4xf32, ?>, !usm.array<4xf32, "opencl:cpu:0", device>, !usm.array<4xf32, "level_zero:gpu:0", device>) -> !usm.array<4xf32, "opencl:cpu:0", device>
  return
}

// -----

func.func @f(%h: !usm.array<4xf32, ?>) {
  // expected-error @+2 {{'usm.exp' op inferred type(s) '!usm.array<4xf32, ?>' are incompatible with return type(s) of operation '!usm.array<4xf32, "*:gpu:0", device>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %e = usm.exp %h : (!usm.array<4xf32, ?>) -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

//===--- Creation ----------------------------------------------------------===//

func.func @f(%n: index) {
  // expected-error @+1 {{expects 2 size operand(s), one per dynamic dimension of the result, got 1}}
  %0 = usm.empty(%n) : !usm.array<?x?xf32, "gpu", device>
  return
}

// -----

func.func @f(%v: f64) {
  // expected-error @+1 {{fill value of type 'f64' does not match the element type 'f32'}}
  %0 = usm.full %v : f64 -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%v: f32, %n: index) {
  // expected-error @+1 {{expects 0 size operand(s)}}
  %0 = usm.full %v (%n) : f32 -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%v: f32) {
  // expected-error @+1 {{result must be 1-D, got rank 2}}
  %0 = usm.arange %v, %v : f32 -> !usm.array<2x2xf32, "gpu", device>
  return
}

// -----

func.func @f(%v: i1) {
  // expected-error @+1 {{does not produce i1 (boolean) arrays}}
  %0 = usm.arange %v, %v : i1 -> !usm.array<4xi1, "gpu", device>
  return
}

// -----

func.func @f(%v: i32) {
  // expected-error @+1 {{start of type 'i32' does not match the element type 'f32'}}
  %0 = usm.arange %v, %v : i32 -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%v: f32, %w: f64) {
  // expected-error @+1 {{all of {start, step} have same type}}
  %0 = "usm.arange"(%v, %w) : (f32, f64) -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%v: f32) {
  // expected-error @+1 {{needs a size operand for its dynamic length}}
  %0 = usm.arange %v, %v : f32 -> !usm.array<?xf32, "gpu", device>
  return
}

// -----

func.func @f(%v: f32, %n: index) {
  // expected-error @+1 {{takes no size operand: its length is static}}
  %0 = usm.arange %v, %v (%n) : f32 -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{result must have a static shape, got (?,)}}
  %0 = usm.constant dense<1.0> : tensor<4xf32> -> !usm.array<?xf32, "gpu", device>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{value of type 'tensor<3xf32>' does not match the array's shape and element type ((4,), 'f32')}}
  %0 = usm.constant dense<1.0> : tensor<3xf32> -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{value of type 'tensor<4xf64>' does not match}}
  %0 = usm.constant dense<1.0> : tensor<4xf64> -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

//===--- Host boundary and migration --------------------------------------===//

func.func @f(%m: memref<4xf64>) {
  // expected-error @+1 {{host element type 'f64' differs from the array's 'f32'}}
  %0 = usm.from_host %m : memref<4xf64> -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%m: tensor<5xf32>) {
  // expected-error @+1 {{host shape (5,) differs from the array's (4,)}}
  %0 = usm.from_host %m : tensor<5xf32> -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{host shape (2,2) differs from the array's (4,)}}
  %0 = usm.to_host %a : !usm.array<4xf32, "gpu", device> -> memref<2x2xf32>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{host element type 'i32' differs from the array's 'f32'}}
  %0 = usm.to_host %a : !usm.array<4xf32, "gpu", device> -> tensor<4xi32>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{result element type 'f64' differs from the input's 'f32'}}
  %0 = usm.to_device %a : !usm.array<4xf32, "gpu", device> -> !usm.array<4xf64, "cpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{result shape (2,2) differs from the input's (4,); to_device changes placement only}}
  %0 = usm.to_device %a : !usm.array<4xf32, "gpu", device> -> !usm.array<2x2xf32, "cpu", device>
  return
}

// -----

//===--- Elementwise: placement -------------------------------------------===//

func.func @f(%a: !usm.array<4xf32, "opencl:cpu:0", device>, %b: !usm.array<4xf32, "host", device>) {
  // expected-error @+2 {{'usm.add' op execution placement can not be unambiguously inferred from input arguments: operand #0 is on queue "opencl:cpu:0" but operand #1 is on queue "host:cpu:0"; migrate one of them with usm.to_device}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.add %a, %b : (!usm.array<4xf32, "opencl:cpu:0", device>, !usm.array<4xf32, "host", device>) -> !usm.array<4xf32, "opencl:cpu:0", device>
  return
}

// -----

// Two queues on one device are different queues.
func.func @f(%a: !usm.array<4xf32, "gpu", device>, %b: !usm.array<4xf32, "gpu"("second"), device>) {
  // expected-error @+2 {{operand #0 is on queue "*:gpu:0" but operand #1 is on queue "*:gpu:0" (queue "second")}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.mul %a, %b : (!usm.array<4xf32, "gpu", device>, !usm.array<4xf32, "gpu"("second"), device>) -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%c: !usm.array<4xi1, "gpu:0", device>, %x: !usm.array<4xf32, "gpu:0", device>, %y: !usm.array<4xf32, "gpu:1", device>) {
  // expected-error @+2 {{operand #0 is on queue "*:gpu:0" but operand #2 is on queue "*:gpu:1"}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.where %c, %x, %y : (!usm.array<4xi1, "gpu:0", device>, !usm.array<4xf32, "gpu:0", device>, !usm.array<4xf32, "gpu:1", device>) -> !usm.array<4xf32, "gpu:0", device>
  return
}

// -----

func.func @f(%a: f32, %b: f32) {
  // expected-error @+2 {{'usm.add' op needs at least one array operand}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.add %a, %b : (f32, f32) -> !usm.array<f32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>, %b: !usm.array<4xf32, "gpu", shared>) {
  // The result kind is the coerced kind (device), not shared.
  // expected-error @+2 {{'usm.add' op inferred type(s) '!usm.array<4xf32, "*:gpu:0", device>' are incompatible with return type(s) of operation '!usm.array<4xf32, "*:gpu:0", shared>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.add %a, %b : (!usm.array<4xf32, "gpu", device>, !usm.array<4xf32, "gpu", shared>) -> !usm.array<4xf32, "gpu", shared>
  return
}

// -----

//===--- Elementwise: shapes and element types ----------------------------===//

func.func @f(%a: !usm.array<4x3xf32, "gpu", device>, %b: !usm.array<5xf32, "gpu", device>) {
  // expected-error @+2 {{operands could not be broadcast together with shapes (4,3) (5,)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.sub %a, %b : (!usm.array<4x3xf32, "gpu", device>, !usm.array<5xf32, "gpu", device>) -> !usm.array<4x3xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>, %b: !usm.array<4xf64, "gpu", device>) {
  // expected-error @+2 {{operand element types differ ('f32' and 'f64' at operand #1); convert one with usm.astype}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.add %a, %b : (!usm.array<4xf32, "gpu", device>, !usm.array<4xf64, "gpu", device>) -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>, %s: f64) {
  // expected-error @+2 {{scalar operand #1 of type 'f64' does not match the element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.mul %a, %s : (!usm.array<4xf32, "gpu", device>, f64) -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xi1, "gpu", device>) {
  // expected-error @+2 {{'usm.add' op does not accept i1 (boolean) elements; use a logical op or usm.astype}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.add %a, %a : (!usm.array<4xi1, "gpu", device>, !usm.array<4xi1, "gpu", device>) -> !usm.array<4xi1, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xi32, "gpu", device>) {
  // expected-error @+2 {{'usm.div' op requires floating-point elements, got 'i32'; convert with usm.astype}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.div %a, %a : (!usm.array<4xi32, "gpu", device>, !usm.array<4xi32, "gpu", device>) -> !usm.array<4xi32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xi32, "gpu", device>) {
  // expected-error @+2 {{'usm.exp' op requires floating-point elements, got 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.exp %a : (!usm.array<4xi32, "gpu", device>) -> !usm.array<4xi32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+2 {{'usm.lt' op inferred type(s) '!usm.array<4xi1, "*:gpu:0", device>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.lt %a, %a : (!usm.array<4xf32, "gpu", device>, !usm.array<4xf32, "gpu", device>) -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%c: !usm.array<4xf32, "gpu", device>, %x: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+2 {{'usm.where' op condition must have element type i1, got 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.where %c, %x, %x : (!usm.array<4xf32, "gpu", device>, !usm.array<4xf32, "gpu", device>, !usm.array<4xf32, "gpu", device>) -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{result placement ("*:gpu:0", shared) differs from the input's ("*:gpu:0", device); only usm.to_device changes placement}}
  %0 = usm.astype %a : !usm.array<4xf32, "gpu", device> to !usm.array<4xi32, "gpu", shared>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{result shape (2,2) differs from the input's (4,)}}
  %0 = usm.astype %a : !usm.array<4xf32, "gpu", device> to !usm.array<2x2xi32, "gpu", device>
  return
}

// -----

//===--- Reductions --------------------------------------------------------===//

func.func @f(%a: !usm.array<4x3xf32, "gpu", device>) {
  // expected-error @+2 {{'usm.sum' op axis 2 is out of bounds for an array of rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.sum %a axes [2] : !usm.array<4x3xf32, "gpu", device> -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4x3xf32, "gpu", device>) {
  // expected-error @+2 {{'usm.max' op axis -3 is out of bounds for an array of rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.max %a axes [-3] : !usm.array<4x3xf32, "gpu", device> -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4x3xf32, "gpu", device>) {
  // expected-error @+2 {{'usm.min' op repeated axis -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.min %a axes [1, -1] : !usm.array<4x3xf32, "gpu", device> -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4x3xi32, "gpu", device>) {
  // expected-error @+2 {{'usm.sum' op inferred type(s) '!usm.array<4xi64, "*:gpu:0", device>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.sum %a axes [1] : !usm.array<4x3xi32, "gpu", device> -> !usm.array<4xi32, "gpu", device>
  return
}

// -----

//===--- Shape operations --------------------------------------------------===//

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{result placement ("*:cpu:0", device) differs from the input's ("*:gpu:0", device)}}
  %0 = usm.broadcast_to %a : !usm.array<4xf32, "gpu", device> -> !usm.array<2x4xf32, "cpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{result element type 'f64' differs from the input's 'f32'}}
  %0 = usm.broadcast_to %a : !usm.array<4xf32, "gpu", device> -> !usm.array<2x4xf64, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<2x4xf32, "gpu", device>) {
  // expected-error @+1 {{cannot broadcast shape (2,4) to the lower-rank shape (4,)}}
  %0 = usm.broadcast_to %a : !usm.array<2x4xf32, "gpu", device> -> !usm.array<4xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<3xf32, "gpu", device>) {
  // expected-error @+1 {{cannot broadcast shape (3,) to (2,4): input dimension 0 has size 3 but the target has 4}}
  %0 = usm.broadcast_to %a : !usm.array<3xf32, "gpu", device> -> !usm.array<2x4xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{expects 1 size operand(s), one per dynamic dimension of the result, got 0}}
  %0 = usm.broadcast_to %a : !usm.array<4xf32, "gpu", device> -> !usm.array<?x4xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<2x6xf32, "gpu", device>) {
  // expected-error @+1 {{cannot reshape an array of 12 elements (2,6) into shape (5,2) (10 elements)}}
  %0 = usm.reshape %a : !usm.array<2x6xf32, "gpu", device> -> !usm.array<5x2xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<12xf32, "gpu", device>) {
  // expected-error @+1 {{result placement ("*:gpu:0", host) differs from the input's ("*:gpu:0", device)}}
  %0 = usm.reshape %a : !usm.array<12xf32, "gpu", device> -> !usm.array<3x4xf32, "gpu", host>
  return
}

// -----

func.func @f(%a: !usm.array<12xf32, "gpu", device>) {
  // expected-error @+1 {{result element type 'i32' differs from the input's 'f32'}}
  %0 = usm.reshape %a : !usm.array<12xf32, "gpu", device> -> !usm.array<3x4xi32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<?xf32, "gpu", device>) {
  // expected-error @+1 {{expects 1 size operand(s)}}
  %0 = usm.reshape %a : !usm.array<?xf32, "gpu", device> -> !usm.array<?x4xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<2x3xf32, "gpu", device>) {
  // expected-error @+2 {{'usm.transpose' op permutation has 1 entries but the array has rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.transpose %a [0] : !usm.array<2x3xf32, "gpu", device> -> !usm.array<2xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<2x3xf32, "gpu", device>) {
  // expected-error @+2 {{'usm.transpose' op permutation entry -1 is negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.transpose %a [-1, 0] : !usm.array<2x3xf32, "gpu", device> -> !usm.array<3x2xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<2x3xf32, "gpu", device>) {
  // expected-error @+2 {{'usm.transpose' op permutation entry 2 is out of bounds for an array of rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.transpose %a [2, 0] : !usm.array<2x3xf32, "gpu", device> -> !usm.array<3x2xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<2x3xf32, "gpu", device>) {
  // expected-error @+2 {{'usm.transpose' op repeated permutation entry 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.transpose %a [0, 0] : !usm.array<2x3xf32, "gpu", device> -> !usm.array<2x2xf32, "gpu", device>
  return
}

// -----

func.func @f(%a: !usm.array<2x3xf32, "gpu", device>) {
  // expected-error @+2 {{'usm.transpose' op inferred type(s) '!usm.array<3x2xf32, "*:gpu:0", device>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = usm.transpose %a [1, 0] : !usm.array<2x3xf32, "gpu", device> -> !usm.array<2x3xf32, "gpu", device>
  return
}

//===--- Fused groups ------------------------------------------------------===//

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{'usm.fused' op input #0 is on queue "*:gpu:0" but the fused group runs on queue "host:cpu:0"; a fused group never spans queues}}
  %0 = usm.fused "host" ins(%x = %a : !usm.array<4xf32, "gpu", device>) -> (!usm.array<4xf32, "gpu", device>) {
    %1 = usm.exp %x : (!usm.array<4xf32, "gpu", device>) -> !usm.array<4xf32, "gpu", device>
    usm.yield %1 : !usm.array<4xf32, "gpu", device>
  }
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{'usm.fused' op result #0 is on queue "host:cpu:0" but the fused group runs on queue "*:gpu:0"}}
  %0 = usm.fused "gpu" ins(%x = %a : !usm.array<4xf32, "gpu", device>) -> (!usm.array<4xf32, "host", device>) {
    %1 = usm.to_device %x : !usm.array<4xf32, "gpu", device> -> !usm.array<4xf32, "host", device>
    usm.yield %1 : !usm.array<4xf32, "host", device>
  }
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  %0 = usm.fused "gpu" ins(%x = %a : !usm.array<4xf32, "gpu", device>) -> (!usm.array<4xf32, "gpu", shared>) {
    // expected-error @+1 {{'usm.to_device' op changes placement and cannot be part of a fused group}}
    %1 = usm.to_device %x : !usm.array<4xf32, "gpu", device> -> !usm.array<4xf32, "gpu", shared>
    usm.yield %1 : !usm.array<4xf32, "gpu", shared>
  }
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  %0 = usm.fused "gpu" ins(%x = %a : !usm.array<4xf32, "gpu", device>) -> (!usm.array<4xf32, "gpu", device>) {
    // expected-error @+1 {{'usm.to_host' op has side effects and cannot be part of a fused group}}
    %m = usm.to_host %x : !usm.array<4xf32, "gpu", device> -> memref<4xf32>
    usm.yield %x : !usm.array<4xf32, "gpu", device>
  }
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{'usm.fused' op yields 1 value(s) whose types differ from the op's result types}}
  %0 = usm.fused "gpu" ins(%x = %a : !usm.array<4xf32, "gpu", device>) -> (!usm.array<4xf32, "gpu", shared>) {
    usm.yield %x : !usm.array<4xf32, "gpu", device>
  }
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{'usm.fused' op must return at least one array}}
  usm.fused "gpu" ins(%x = %a : !usm.array<4xf32, "gpu", device>) -> () {
    usm.yield
  }
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>, %m: memref<4xf32>) {
  // expected-error @+1 {{'usm.fused' op input #1 of type 'memref<4xf32>' is neither a usm array, a scalar nor an index}}
  %0 = usm.fused "gpu" ins(%x = %a : !usm.array<4xf32, "gpu", device>, %y = %m : memref<4xf32>) -> (!usm.array<4xf32, "gpu", device>) {
    usm.yield %x : !usm.array<4xf32, "gpu", device>
  }
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  %0 = usm.fused "gpu" ins(%x = %a : !usm.array<4xf32, "gpu", device>) -> (!usm.array<4xf32, "gpu", device>) {
    // expected-error @+1 {{'usm.fused' op cannot be nested in another usm.fused}}
    %1 = usm.fused "gpu" ins(%y = %x : !usm.array<4xf32, "gpu", device>) -> (!usm.array<4xf32, "gpu", device>) {
      usm.yield %y : !usm.array<4xf32, "gpu", device>
    }
    usm.yield %1 : !usm.array<4xf32, "gpu", device>
  }
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{'usm.yield' op expects parent op 'usm.fused'}}
  usm.yield %a : !usm.array<4xf32, "gpu", device>
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  %0 = usm.fused "gpu" ins(%x = %a : !usm.array<4xf32, "gpu", device>) -> (!usm.array<4xf32, "gpu", device>) {
    // expected-error @+1 {{'usm.constant' op result #0 is on queue "host:cpu:0" but the fused group runs on queue "*:gpu:0"}}
    %c = usm.constant dense<1.0> : tensor<4xf32> -> !usm.array<4xf32, "host", device>
    usm.yield %x : !usm.array<4xf32, "gpu", device>
  }
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, "gpu", device>) {
  // expected-error @+1 {{expected SSA operand}}
  %0 = usm.fused "gpu" ins(%x = : !usm.array<4xf32, "gpu", device>) -> (!usm.array<4xf32, "gpu", device>) {
    usm.yield %x : !usm.array<4xf32, "gpu", device>
  }
  return
}

// -----

func.func @f(%a: !usm.array<4xf32, ?>, %c: f32) {
  // expected-error @+1 {{'usm.fused' op input #0 is not placed; a fused group runs on one queue}}
  %0 = usm.fused "gpu" ins(%x = %a : !usm.array<4xf32, ?>, %y = %c : f32) -> (!usm.array<4xf32, "gpu", device>) {
    %1 = usm.full %y : f32 -> !usm.array<4xf32, "gpu", device>
    usm.yield %1 : !usm.array<4xf32, "gpu", device>
  }
  return
}

// -----

//===--- Run-time checks --------------------------------------------------===//

func.func @f(%ok: i1, %n: index) {
  // expected-error @+1 {{'usm.assert' op message refers to value {1} but the op has 1 values}}
  usm.assert %ok, "size {0} and {1}" (%n)
  return
}

// -----

func.func @f(%ok: i1) {
  // expected-error @+1 {{'usm.assert' op message has a '{' at offset 5 that is neither a placeholder {N} nor '{{'}}
  usm.assert %ok, "size {x}"
  return
}

// -----

func.func @f(%v: !usm.array<4xf32, "gpu:0", device>, %d: !usm.array<3xf32, "gpu:0", device>) {
  // expected-error @+1 {{'usm.store' op cannot store an array of shape (4,) into one of shape (3,)}}
  usm.store %v, %d : !usm.array<4xf32, "gpu:0", device>, !usm.array<3xf32, "gpu:0", device>
  return
}

// -----

func.func @f(%v: !usm.array<4xf32, "gpu:0", device>, %d: !usm.array<4xf32, "gpu:1", device>) {
  // expected-error @+1 {{'usm.store' op execution placement can not be unambiguously inferred from input arguments: the value is on queue}}
  usm.store %v, %d : !usm.array<4xf32, "gpu:0", device>, !usm.array<4xf32, "gpu:1", device>
  return
}
