// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// Reductions (sum, prod, max, min) on every element type against NumPy:
// over all axes, one axis, several axes, negative axes, with keepdims.
// Sums and products of integers narrower than 64 bits and of i1 return the
// 64-bit type of the same signedness, as NumPy's do; integer results are
// exact (wrapping like NumPy's). Float sums and products reassociate:
// positive inputs, rtol 1e-5 for f32, 1e-12 for f64, 1e-2 for f16 (f16
// accumulates in f16, NumPy in f32 with pairwise summation).

// f32
// FOR: n in [4]
// INPUT: a = rand((n, 5, 7), 'f32', 0.5, 1.5)
// INPUT: p = rand((n, 5, 7), 'f32', 0.8, 1.25)
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
!A = !usm.array<?x5x7xf32, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<f32, "host:cpu:0", device>, !usm.array<?x7xf32, "host:cpu:0", device>, !usm.array<1x5x1xf32, "host:cpu:0", device>, !usm.array<?x5xf32, "host:cpu:0", device>, !usm.array<7xf32, "host:cpu:0", device>, !usm.array<1x5x1xf32, "host:cpu:0", device>, !usm.array<?x5xf32, "host:cpu:0", device>, !usm.array<1x1x1xf32, "host:cpu:0", device>, !usm.array<1x5x7xf32, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<f32, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xf32, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xf32, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xf32, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xf32, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xf32, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xf32, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xf32, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xf32, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<f32, "host:cpu:0", device>, !usm.array<?x7xf32, "host:cpu:0", device>, !usm.array<1x5x1xf32, "host:cpu:0", device>, !usm.array<?x5xf32, "host:cpu:0", device>, !usm.array<7xf32, "host:cpu:0", device>, !usm.array<1x5x1xf32, "host:cpu:0", device>, !usm.array<?x5xf32, "host:cpu:0", device>, !usm.array<1x1x1xf32, "host:cpu:0", device>, !usm.array<1x5x7xf32, "host:cpu:0", device>
}

// -----

// f64
// FOR: n in [4]
// INPUT: a = rand((n, 5, 7), 'f64', 0.5, 1.5)
// INPUT: p = rand((n, 5, 7), 'f64', 0.8, 1.25)
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
!A = !usm.array<?x5x7xf64, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<f64, "host:cpu:0", device>, !usm.array<?x7xf64, "host:cpu:0", device>, !usm.array<1x5x1xf64, "host:cpu:0", device>, !usm.array<?x5xf64, "host:cpu:0", device>, !usm.array<7xf64, "host:cpu:0", device>, !usm.array<1x5x1xf64, "host:cpu:0", device>, !usm.array<?x5xf64, "host:cpu:0", device>, !usm.array<1x1x1xf64, "host:cpu:0", device>, !usm.array<1x5x7xf64, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<f64, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xf64, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xf64, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xf64, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xf64, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xf64, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xf64, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xf64, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<f64, "host:cpu:0", device>, !usm.array<?x7xf64, "host:cpu:0", device>, !usm.array<1x5x1xf64, "host:cpu:0", device>, !usm.array<?x5xf64, "host:cpu:0", device>, !usm.array<7xf64, "host:cpu:0", device>, !usm.array<1x5x1xf64, "host:cpu:0", device>, !usm.array<?x5xf64, "host:cpu:0", device>, !usm.array<1x1x1xf64, "host:cpu:0", device>, !usm.array<1x5x7xf64, "host:cpu:0", device>
}

// -----

// f16
// FOR: n in [4]
// INPUT: a = rand((n, 5, 7), 'f16', 0.5, 1.5)
// INPUT: p = rand((n, 5, 7), 'f16', 0.8, 1.25)
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
// TOL: rtol=1e-2 atol=1e-2
!A = !usm.array<?x5x7xf16, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<f16, "host:cpu:0", device>, !usm.array<?x7xf16, "host:cpu:0", device>, !usm.array<1x5x1xf16, "host:cpu:0", device>, !usm.array<?x5xf16, "host:cpu:0", device>, !usm.array<7xf16, "host:cpu:0", device>, !usm.array<1x5x1xf16, "host:cpu:0", device>, !usm.array<?x5xf16, "host:cpu:0", device>, !usm.array<1x1x1xf16, "host:cpu:0", device>, !usm.array<1x5x7xf16, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<f16, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xf16, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xf16, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xf16, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xf16, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xf16, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xf16, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xf16, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xf16, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<f16, "host:cpu:0", device>, !usm.array<?x7xf16, "host:cpu:0", device>, !usm.array<1x5x1xf16, "host:cpu:0", device>, !usm.array<?x5xf16, "host:cpu:0", device>, !usm.array<7xf16, "host:cpu:0", device>, !usm.array<1x5x1xf16, "host:cpu:0", device>, !usm.array<?x5xf16, "host:cpu:0", device>, !usm.array<1x1x1xf16, "host:cpu:0", device>, !usm.array<1x5x7xf16, "host:cpu:0", device>
}

// -----

// i8
// FOR: n in [4]
// INPUT: a = edges((n, 5, 7), 'i8')
// INPUT: p = rand((n, 5, 7), 'i8', -3, 3)
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
!A = !usm.array<?x5x7xi8, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<i64, "host:cpu:0", device>, !usm.array<?x7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi8, "host:cpu:0", device>, !usm.array<7xi8, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<1x1x1xi8, "host:cpu:0", device>, !usm.array<1x5x7xi8, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<i64, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xi64, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xi64, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xi8, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xi8, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xi64, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xi64, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xi8, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xi8, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<i64, "host:cpu:0", device>, !usm.array<?x7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi8, "host:cpu:0", device>, !usm.array<7xi8, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<1x1x1xi8, "host:cpu:0", device>, !usm.array<1x5x7xi8, "host:cpu:0", device>
}

// -----

// i16
// FOR: n in [4]
// INPUT: a = edges((n, 5, 7), 'i16')
// INPUT: p = rand((n, 5, 7), 'i16', -3, 3)
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
!A = !usm.array<?x5x7xi16, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<i64, "host:cpu:0", device>, !usm.array<?x7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi16, "host:cpu:0", device>, !usm.array<7xi16, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<1x1x1xi16, "host:cpu:0", device>, !usm.array<1x5x7xi16, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<i64, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xi64, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xi64, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xi16, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xi16, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xi64, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xi64, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xi16, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xi16, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<i64, "host:cpu:0", device>, !usm.array<?x7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi16, "host:cpu:0", device>, !usm.array<7xi16, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<1x1x1xi16, "host:cpu:0", device>, !usm.array<1x5x7xi16, "host:cpu:0", device>
}

// -----

// i32
// FOR: n in [4]
// INPUT: a = edges((n, 5, 7), 'i32')
// INPUT: p = rand((n, 5, 7), 'i32', -3, 3)
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
!A = !usm.array<?x5x7xi32, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<i64, "host:cpu:0", device>, !usm.array<?x7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi32, "host:cpu:0", device>, !usm.array<7xi32, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<1x1x1xi32, "host:cpu:0", device>, !usm.array<1x5x7xi32, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<i64, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xi64, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xi64, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xi32, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xi32, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xi64, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xi64, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xi32, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xi32, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<i64, "host:cpu:0", device>, !usm.array<?x7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi32, "host:cpu:0", device>, !usm.array<7xi32, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<1x1x1xi32, "host:cpu:0", device>, !usm.array<1x5x7xi32, "host:cpu:0", device>
}

// -----

// i64
// FOR: n in [4]
// INPUT: a = edges((n, 5, 7), 'i64')
// INPUT: p = rand((n, 5, 7), 'i64', -3, 3)
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
!A = !usm.array<?x5x7xi64, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<i64, "host:cpu:0", device>, !usm.array<?x7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<1x1x1xi64, "host:cpu:0", device>, !usm.array<1x5x7xi64, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<i64, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xi64, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xi64, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xi64, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xi64, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xi64, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xi64, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xi64, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xi64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<i64, "host:cpu:0", device>, !usm.array<?x7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<1x1x1xi64, "host:cpu:0", device>, !usm.array<1x5x7xi64, "host:cpu:0", device>
}

// -----

// ui8
// FOR: n in [4]
// INPUT: a = edges((n, 5, 7), 'ui8')
// INPUT: p = rand((n, 5, 7), 'ui8', 0, 3)
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
!A = !usm.array<?x5x7xui8, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<ui64, "host:cpu:0", device>, !usm.array<?x7xui64, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui8, "host:cpu:0", device>, !usm.array<7xui8, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui64, "host:cpu:0", device>, !usm.array<1x1x1xui8, "host:cpu:0", device>, !usm.array<1x5x7xui8, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<ui64, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xui64, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xui64, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xui8, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xui8, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xui64, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xui64, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xui8, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xui8, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<ui64, "host:cpu:0", device>, !usm.array<?x7xui64, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui8, "host:cpu:0", device>, !usm.array<7xui8, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui64, "host:cpu:0", device>, !usm.array<1x1x1xui8, "host:cpu:0", device>, !usm.array<1x5x7xui8, "host:cpu:0", device>
}

// -----

// ui16
// FOR: n in [4]
// INPUT: a = edges((n, 5, 7), 'ui16')
// INPUT: p = rand((n, 5, 7), 'ui16', 0, 3)
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
!A = !usm.array<?x5x7xui16, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<ui64, "host:cpu:0", device>, !usm.array<?x7xui64, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui16, "host:cpu:0", device>, !usm.array<7xui16, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui64, "host:cpu:0", device>, !usm.array<1x1x1xui16, "host:cpu:0", device>, !usm.array<1x5x7xui16, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<ui64, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xui64, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xui64, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xui16, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xui16, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xui64, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xui64, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xui16, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xui16, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<ui64, "host:cpu:0", device>, !usm.array<?x7xui64, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui16, "host:cpu:0", device>, !usm.array<7xui16, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui64, "host:cpu:0", device>, !usm.array<1x1x1xui16, "host:cpu:0", device>, !usm.array<1x5x7xui16, "host:cpu:0", device>
}

// -----

// ui32
// FOR: n in [4]
// INPUT: a = edges((n, 5, 7), 'ui32')
// INPUT: p = rand((n, 5, 7), 'ui32', 0, 3)
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
!A = !usm.array<?x5x7xui32, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<ui64, "host:cpu:0", device>, !usm.array<?x7xui64, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui32, "host:cpu:0", device>, !usm.array<7xui32, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui64, "host:cpu:0", device>, !usm.array<1x1x1xui32, "host:cpu:0", device>, !usm.array<1x5x7xui32, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<ui64, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xui64, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xui64, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xui32, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xui32, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xui64, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xui64, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xui32, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xui32, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<ui64, "host:cpu:0", device>, !usm.array<?x7xui64, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui32, "host:cpu:0", device>, !usm.array<7xui32, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui64, "host:cpu:0", device>, !usm.array<1x1x1xui32, "host:cpu:0", device>, !usm.array<1x5x7xui32, "host:cpu:0", device>
}

// -----

// ui64
// FOR: n in [4]
// INPUT: a = edges((n, 5, 7), 'ui64')
// INPUT: p = rand((n, 5, 7), 'ui64', 0, 3)
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
!A = !usm.array<?x5x7xui64, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<ui64, "host:cpu:0", device>, !usm.array<?x7xui64, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui64, "host:cpu:0", device>, !usm.array<7xui64, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui64, "host:cpu:0", device>, !usm.array<1x1x1xui64, "host:cpu:0", device>, !usm.array<1x5x7xui64, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<ui64, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xui64, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xui64, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xui64, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xui64, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xui64, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xui64, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xui64, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xui64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<ui64, "host:cpu:0", device>, !usm.array<?x7xui64, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui64, "host:cpu:0", device>, !usm.array<7xui64, "host:cpu:0", device>, !usm.array<1x5x1xui64, "host:cpu:0", device>, !usm.array<?x5xui64, "host:cpu:0", device>, !usm.array<1x1x1xui64, "host:cpu:0", device>, !usm.array<1x5x7xui64, "host:cpu:0", device>
}

// -----

// i1
// FOR: n in [4]
// INPUT: a = rand((n, 5, 7), 'i1')
// INPUT: p = rand((n, 5, 7), 'i1')
// EXPECT: np.sum(a)
// EXPECT: np.sum(a, axis=1)
// EXPECT: np.prod(p, axis=(0, 2), keepdims=True)
// EXPECT: np.max(a, axis=-1)
// EXPECT: np.min(a, axis=(0, 1))
// EXPECT: np.sum(a, axis=(-1, 0), keepdims=True)
// EXPECT: np.prod(p, axis=2)
// EXPECT: np.max(a, keepdims=True)
// EXPECT: np.min(a, axis=0, keepdims=True)
!A = !usm.array<?x5x7xi1, "host:cpu:0", device>
func.func @main(%a: !A, %p: !A) -> (!usm.array<i64, "host:cpu:0", device>, !usm.array<?x7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi1, "host:cpu:0", device>, !usm.array<7xi1, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<1x1x1xi1, "host:cpu:0", device>, !usm.array<1x5x7xi1, "host:cpu:0", device>) {
  %0 = usm.sum %a : !A -> !usm.array<i64, "host:cpu:0", device>
  %1 = usm.sum %a axes [1] : !A -> !usm.array<?x7xi64, "host:cpu:0", device>
  %2 = usm.prod %p axes [0, 2] keepdims : !A -> !usm.array<1x5x1xi64, "host:cpu:0", device>
  %3 = usm.max %a axes [-1] : !A -> !usm.array<?x5xi1, "host:cpu:0", device>
  %4 = usm.min %a axes [0, 1] : !A -> !usm.array<7xi1, "host:cpu:0", device>
  %5 = usm.sum %a axes [-1, 0] keepdims : !A -> !usm.array<1x5x1xi64, "host:cpu:0", device>
  %6 = usm.prod %p axes [2] : !A -> !usm.array<?x5xi64, "host:cpu:0", device>
  %7 = usm.max %a keepdims : !A -> !usm.array<1x1x1xi1, "host:cpu:0", device>
  %8 = usm.min %a axes [0] keepdims : !A -> !usm.array<1x5x7xi1, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !usm.array<i64, "host:cpu:0", device>, !usm.array<?x7xi64, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi1, "host:cpu:0", device>, !usm.array<7xi1, "host:cpu:0", device>, !usm.array<1x5x1xi64, "host:cpu:0", device>, !usm.array<?x5xi64, "host:cpu:0", device>, !usm.array<1x1x1xi1, "host:cpu:0", device>, !usm.array<1x5x7xi1, "host:cpu:0", device>
}

// -----

// NaN propagates through max and min (and sums); +-inf and -0 are ordinary.
// FOR: n in [1000]
// INPUT: a = special((n, 3), 'f32')
// EXPECT: np.max(a, axis=0)
// EXPECT: np.min(a, axis=0)
// EXPECT: np.sum(a, axis=0)
// EXPECT: np.max(np.where(np.isnan(a), np.float32(0), a), axis=0)
!A = !usm.array<?x3xf32, "host:cpu:0", device>
!R = !usm.array<3xf32, "host:cpu:0", device>
func.func @main(%a: !A) -> (!R, !R, !R, !R) {
  %zero = arith.constant 0.0 : f32
  %0 = usm.max %a axes [0] : !A -> !R
  %1 = usm.min %a axes [0] : !A -> !R
  %2 = usm.sum %a axes [0] : !A -> !R
  %nan = usm.ne %a, %a : (!A, !A) -> !usm.array<?x3xi1, "host:cpu:0", device>
  %clean = usm.where %nan, %zero, %a : (!usm.array<?x3xi1, "host:cpu:0", device>, f32, !A) -> !A
  %3 = usm.max %clean axes [0] : !A -> !R
  return %0, %1, %2, %3 : !R, !R, !R, !R
}

// -----

// Reductions of a 0-d array and over a size-1 axis; empty reductions give
// the identity (0 for sum, 1 for prod).
// FOR: n in [0, 1]
// INPUT: z = rand((), 'f64')
// INPUT: a = rand((n, 4), 'i32')
// EXPECT: np.sum(z)
// EXPECT: np.max(z)
// EXPECT: np.sum(a, axis=0)
// EXPECT: np.prod(a, axis=0)
// EXPECT: np.sum(a, axis=1, keepdims=True)
!Z = !usm.array<f64, "host:cpu:0", device>
!A = !usm.array<?x4xi32, "host:cpu:0", device>
!R = !usm.array<4xi64, "host:cpu:0", device>
!K = !usm.array<?x1xi64, "host:cpu:0", device>
func.func @main(%z: !Z, %a: !A) -> (!Z, !Z, !R, !R, !K) {
  %0 = usm.sum %z : !Z -> !Z
  %1 = usm.max %z : !Z -> !Z
  %2 = usm.sum %a axes [0] : !A -> !R
  %3 = usm.prod %a axes [0] : !A -> !R
  %4 = usm.sum %a axes [1] keepdims : !A -> !K
  return %0, %1, %2, %3, %4 : !Z, !Z, !R, !R, !K
}
