// RUN: sluice-opt %s --sluice-expand-complex --split-input-file | FileCheck %s

// Complex arithmetic becomes float arithmetic on the parts; complex values
// moved whole (memrefs, loads, stores, function arguments) become
// vector<2xT>, NumPy's (real, imaginary) layout, built by inserts.
// CHECK-LABEL: func.func @kernel
// CHECK-SAME: (%[[A:.*]]: memref<?xvector<2xf32>>, %[[S:.*]]: vector<2xf32>, %[[I:.*]]: index)
// CHECK: %[[X:.*]] = memref.load %[[A]][%[[I]]] : memref<?xvector<2xf32>>
// CHECK-DAG: vector.extract %[[X]][0] : f32 from vector<2xf32>
// CHECK-DAG: vector.extract %[[X]][1] : f32 from vector<2xf32>
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK: %[[Z0:.*]] = vector.insert %{{.*}}, %{{.*}} [0] : f32 into vector<2xf32>
// CHECK: %[[Z:.*]] = vector.insert %{{.*}}, %[[Z0]] [1] : f32 into vector<2xf32>
// CHECK: memref.store %[[Z]], %[[A]][%[[I]]] : memref<?xvector<2xf32>>
// CHECK-NOT: complex.
func.func @kernel(%a: memref<?xcomplex<f32>>, %s: complex<f32>, %i: index) {
  %x = memref.load %a[%i] : memref<?xcomplex<f32>>
  %y = complex.mul %x, %s : complex<f32>
  memref.store %y, %a[%i] : memref<?xcomplex<f32>>
  return
}

// -----

// Constants become vector constants.
// CHECK-LABEL: func.func @constant
// CHECK: arith.constant dense<[1.000000e+00, -2.000000e+00]> : vector<2xf64>
func.func @constant(%a: memref<4xcomplex<f64>>) {
  %c = complex.constant [1.0 : f64, -2.0 : f64] : complex<f64>
  linalg.fill ins(%c : complex<f64>) outs(%a : memref<4xcomplex<f64>>)
  return
}

// -----

// A module without complex numbers is left alone.
// CHECK-LABEL: func.func @real
// CHECK-NEXT: arith.addf
func.func @real(%a: f32) -> f32 {
  %b = arith.addf %a, %a : f32
  return %b : f32
}

// -----

// A selection of whole numbers takes its condition per part.
// CHECK-LABEL: func.func @select
// CHECK: vector.insert %{{.*}}, %{{.*}} [0] : i1 into vector<2xi1>
// CHECK: %[[M:.*]] = vector.insert %{{.*}}, %{{.*}} [1] : i1 into vector<2xi1>
// CHECK: arith.select %[[M]], %{{.*}}, %{{.*}} : vector<2xi1>, vector<2xf32>
func.func @select(%c: i1, %a: complex<f32>, %b: complex<f32>) -> complex<f32> {
  %0 = arith.select %c, %a, %b : complex<f32>
  return %0 : complex<f32>
}
