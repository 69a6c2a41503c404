// RUN: %python %S/check.py %s
// RUN: %if opencl-device %{ %python %S/check.py %s --device=opencl:cpu:0 %}
// RUN: %if level-zero-driver %{ %ze_env %python %S/check.py %s --device=level_zero:gpu:0 %}

// usm.astype from every element type to every other, against NumPy's
// astype: integers wrap when narrowed and keep their signedness when
// widened; floats round to nearest; floats to integers truncate toward zero
// (only values the target can hold: anything else is undefined in NumPy
// too); any value to i1 is value != 0 (NaN is true). f16 has cases of its
// own (not on OpenCL yet).

// from i1
// FOR: n in [0, 131]
// INPUT: a = edges(n, 'i1')
// EXPECT: a.astype(np.int8)
// EXPECT: a.astype(np.int16)
// EXPECT: a.astype(np.int32)
// EXPECT: a.astype(np.int64)
// EXPECT: a.astype(np.uint8)
// EXPECT: a.astype(np.uint16)
// EXPECT: a.astype(np.uint32)
// EXPECT: a.astype(np.uint64)
// EXPECT: a.astype(np.float32)
// EXPECT: a.astype(np.float64)
!S = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !S) -> (!usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi8, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi16, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi32, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi64, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xui8, "host:cpu:0", device>
  %5 = usm.astype %a : !S to !usm.array<?xui16, "host:cpu:0", device>
  %6 = usm.astype %a : !S to !usm.array<?xui32, "host:cpu:0", device>
  %7 = usm.astype %a : !S to !usm.array<?xui64, "host:cpu:0", device>
  %8 = usm.astype %a : !S to !usm.array<?xf32, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// from i8
// FOR: n in [131]
// INPUT: a = edges(n, 'i8')
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.int16)
// EXPECT: a.astype(np.int32)
// EXPECT: a.astype(np.int64)
// EXPECT: a.astype(np.uint8)
// EXPECT: a.astype(np.uint16)
// EXPECT: a.astype(np.uint32)
// EXPECT: a.astype(np.uint64)
// EXPECT: a.astype(np.float32)
// EXPECT: a.astype(np.float64)
!S = !usm.array<?xi8, "host:cpu:0", device>
func.func @main(%a: !S) -> (!usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi1, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi16, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi32, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi64, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xui8, "host:cpu:0", device>
  %5 = usm.astype %a : !S to !usm.array<?xui16, "host:cpu:0", device>
  %6 = usm.astype %a : !S to !usm.array<?xui32, "host:cpu:0", device>
  %7 = usm.astype %a : !S to !usm.array<?xui64, "host:cpu:0", device>
  %8 = usm.astype %a : !S to !usm.array<?xf32, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// from i16
// FOR: n in [131]
// INPUT: a = edges(n, 'i16')
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.int8)
// EXPECT: a.astype(np.int32)
// EXPECT: a.astype(np.int64)
// EXPECT: a.astype(np.uint8)
// EXPECT: a.astype(np.uint16)
// EXPECT: a.astype(np.uint32)
// EXPECT: a.astype(np.uint64)
// EXPECT: a.astype(np.float32)
// EXPECT: a.astype(np.float64)
!S = !usm.array<?xi16, "host:cpu:0", device>
func.func @main(%a: !S) -> (!usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi1, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi8, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi32, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi64, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xui8, "host:cpu:0", device>
  %5 = usm.astype %a : !S to !usm.array<?xui16, "host:cpu:0", device>
  %6 = usm.astype %a : !S to !usm.array<?xui32, "host:cpu:0", device>
  %7 = usm.astype %a : !S to !usm.array<?xui64, "host:cpu:0", device>
  %8 = usm.astype %a : !S to !usm.array<?xf32, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// from i32
// FOR: n in [131]
// INPUT: a = edges(n, 'i32')
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.int8)
// EXPECT: a.astype(np.int16)
// EXPECT: a.astype(np.int64)
// EXPECT: a.astype(np.uint8)
// EXPECT: a.astype(np.uint16)
// EXPECT: a.astype(np.uint32)
// EXPECT: a.astype(np.uint64)
// EXPECT: a.astype(np.float32)
// EXPECT: a.astype(np.float64)
!S = !usm.array<?xi32, "host:cpu:0", device>
func.func @main(%a: !S) -> (!usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi1, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi8, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi16, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi64, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xui8, "host:cpu:0", device>
  %5 = usm.astype %a : !S to !usm.array<?xui16, "host:cpu:0", device>
  %6 = usm.astype %a : !S to !usm.array<?xui32, "host:cpu:0", device>
  %7 = usm.astype %a : !S to !usm.array<?xui64, "host:cpu:0", device>
  %8 = usm.astype %a : !S to !usm.array<?xf32, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// from i64
// FOR: n in [131]
// INPUT: a = edges(n, 'i64')
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.int8)
// EXPECT: a.astype(np.int16)
// EXPECT: a.astype(np.int32)
// EXPECT: a.astype(np.uint8)
// EXPECT: a.astype(np.uint16)
// EXPECT: a.astype(np.uint32)
// EXPECT: a.astype(np.uint64)
// EXPECT: a.astype(np.float32)
// EXPECT: a.astype(np.float64)
!S = !usm.array<?xi64, "host:cpu:0", device>
func.func @main(%a: !S) -> (!usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi1, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi8, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi16, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi32, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xui8, "host:cpu:0", device>
  %5 = usm.astype %a : !S to !usm.array<?xui16, "host:cpu:0", device>
  %6 = usm.astype %a : !S to !usm.array<?xui32, "host:cpu:0", device>
  %7 = usm.astype %a : !S to !usm.array<?xui64, "host:cpu:0", device>
  %8 = usm.astype %a : !S to !usm.array<?xf32, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// from ui8
// FOR: n in [131]
// INPUT: a = edges(n, 'ui8')
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.int8)
// EXPECT: a.astype(np.int16)
// EXPECT: a.astype(np.int32)
// EXPECT: a.astype(np.int64)
// EXPECT: a.astype(np.uint16)
// EXPECT: a.astype(np.uint32)
// EXPECT: a.astype(np.uint64)
// EXPECT: a.astype(np.float32)
// EXPECT: a.astype(np.float64)
!S = !usm.array<?xui8, "host:cpu:0", device>
func.func @main(%a: !S) -> (!usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi1, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi8, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi16, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi32, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xi64, "host:cpu:0", device>
  %5 = usm.astype %a : !S to !usm.array<?xui16, "host:cpu:0", device>
  %6 = usm.astype %a : !S to !usm.array<?xui32, "host:cpu:0", device>
  %7 = usm.astype %a : !S to !usm.array<?xui64, "host:cpu:0", device>
  %8 = usm.astype %a : !S to !usm.array<?xf32, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// from ui16
// FOR: n in [131]
// INPUT: a = edges(n, 'ui16')
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.int8)
// EXPECT: a.astype(np.int16)
// EXPECT: a.astype(np.int32)
// EXPECT: a.astype(np.int64)
// EXPECT: a.astype(np.uint8)
// EXPECT: a.astype(np.uint32)
// EXPECT: a.astype(np.uint64)
// EXPECT: a.astype(np.float32)
// EXPECT: a.astype(np.float64)
!S = !usm.array<?xui16, "host:cpu:0", device>
func.func @main(%a: !S) -> (!usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi1, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi8, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi16, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi32, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xi64, "host:cpu:0", device>
  %5 = usm.astype %a : !S to !usm.array<?xui8, "host:cpu:0", device>
  %6 = usm.astype %a : !S to !usm.array<?xui32, "host:cpu:0", device>
  %7 = usm.astype %a : !S to !usm.array<?xui64, "host:cpu:0", device>
  %8 = usm.astype %a : !S to !usm.array<?xf32, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// from ui32
// FOR: n in [131]
// INPUT: a = edges(n, 'ui32')
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.int8)
// EXPECT: a.astype(np.int16)
// EXPECT: a.astype(np.int32)
// EXPECT: a.astype(np.int64)
// EXPECT: a.astype(np.uint8)
// EXPECT: a.astype(np.uint16)
// EXPECT: a.astype(np.uint64)
// EXPECT: a.astype(np.float32)
// EXPECT: a.astype(np.float64)
!S = !usm.array<?xui32, "host:cpu:0", device>
func.func @main(%a: !S) -> (!usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi1, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi8, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi16, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi32, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xi64, "host:cpu:0", device>
  %5 = usm.astype %a : !S to !usm.array<?xui8, "host:cpu:0", device>
  %6 = usm.astype %a : !S to !usm.array<?xui16, "host:cpu:0", device>
  %7 = usm.astype %a : !S to !usm.array<?xui64, "host:cpu:0", device>
  %8 = usm.astype %a : !S to !usm.array<?xf32, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// from ui64
// FOR: n in [131]
// INPUT: a = edges(n, 'ui64')
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.int8)
// EXPECT: a.astype(np.int16)
// EXPECT: a.astype(np.int32)
// EXPECT: a.astype(np.int64)
// EXPECT: a.astype(np.uint8)
// EXPECT: a.astype(np.uint16)
// EXPECT: a.astype(np.uint32)
// EXPECT: a.astype(np.float32)
// EXPECT: a.astype(np.float64)
!S = !usm.array<?xui64, "host:cpu:0", device>
func.func @main(%a: !S) -> (!usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi1, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi8, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi16, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi32, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xi64, "host:cpu:0", device>
  %5 = usm.astype %a : !S to !usm.array<?xui8, "host:cpu:0", device>
  %6 = usm.astype %a : !S to !usm.array<?xui16, "host:cpu:0", device>
  %7 = usm.astype %a : !S to !usm.array<?xui32, "host:cpu:0", device>
  %8 = usm.astype %a : !S to !usm.array<?xf32, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// from f32
// FOR: n in [131]
// INPUT: a = np.where(rand(n, 'i1'), rand(n, 'f32', -128, 128), rand(n, 'f32', -3, 3).round())
// INPUT: p = rand(n, 'f32', 0, 255)
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.int8)
// EXPECT: a.astype(np.int16)
// EXPECT: a.astype(np.int32)
// EXPECT: a.astype(np.int64)
// EXPECT: p.astype(np.uint8)
// EXPECT: p.astype(np.uint16)
// EXPECT: p.astype(np.uint32)
// EXPECT: p.astype(np.uint64)
// EXPECT: a.astype(np.float64)
!S = !usm.array<?xf32, "host:cpu:0", device>
func.func @main(%a: !S, %p: !S) -> (!usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi1, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi8, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi16, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi32, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xi64, "host:cpu:0", device>
  %5 = usm.astype %p : !S to !usm.array<?xui8, "host:cpu:0", device>
  %6 = usm.astype %p : !S to !usm.array<?xui16, "host:cpu:0", device>
  %7 = usm.astype %p : !S to !usm.array<?xui32, "host:cpu:0", device>
  %8 = usm.astype %p : !S to !usm.array<?xui64, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// from f64
// FOR: n in [131]
// INPUT: a = np.where(rand(n, 'i1'), rand(n, 'f64', -128, 128), rand(n, 'f64', -3, 3).round())
// INPUT: p = rand(n, 'f64', 0, 255)
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.int8)
// EXPECT: a.astype(np.int16)
// EXPECT: a.astype(np.int32)
// EXPECT: a.astype(np.int64)
// EXPECT: p.astype(np.uint8)
// EXPECT: p.astype(np.uint16)
// EXPECT: p.astype(np.uint32)
// EXPECT: p.astype(np.uint64)
// EXPECT: a.astype(np.float32)
!S = !usm.array<?xf64, "host:cpu:0", device>
func.func @main(%a: !S, %p: !S) -> (!usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi1, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi8, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi16, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi32, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xi64, "host:cpu:0", device>
  %5 = usm.astype %p : !S to !usm.array<?xui8, "host:cpu:0", device>
  %6 = usm.astype %p : !S to !usm.array<?xui16, "host:cpu:0", device>
  %7 = usm.astype %p : !S to !usm.array<?xui32, "host:cpu:0", device>
  %8 = usm.astype %p : !S to !usm.array<?xui64, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf32, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>
}

// -----

// from f16
// FOR: n in [131]
// INPUT: a = np.where(rand(n, 'i1'), rand(n, 'f16', -128, 128), rand(n, 'f16', -3, 3).round())
// INPUT: p = rand(n, 'f16', 0, 255)
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.int8)
// EXPECT: a.astype(np.int16)
// EXPECT: a.astype(np.int32)
// EXPECT: a.astype(np.int64)
// EXPECT: p.astype(np.uint8)
// EXPECT: p.astype(np.uint16)
// EXPECT: p.astype(np.uint32)
// EXPECT: p.astype(np.uint64)
// EXPECT: a.astype(np.float32)
// EXPECT: a.astype(np.float64)
!S = !usm.array<?xf16, "host:cpu:0", device>
func.func @main(%a: !S, %p: !S) -> (!usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>) {
  %0 = usm.astype %a : !S to !usm.array<?xi1, "host:cpu:0", device>
  %1 = usm.astype %a : !S to !usm.array<?xi8, "host:cpu:0", device>
  %2 = usm.astype %a : !S to !usm.array<?xi16, "host:cpu:0", device>
  %3 = usm.astype %a : !S to !usm.array<?xi32, "host:cpu:0", device>
  %4 = usm.astype %a : !S to !usm.array<?xi64, "host:cpu:0", device>
  %5 = usm.astype %p : !S to !usm.array<?xui8, "host:cpu:0", device>
  %6 = usm.astype %p : !S to !usm.array<?xui16, "host:cpu:0", device>
  %7 = usm.astype %p : !S to !usm.array<?xui32, "host:cpu:0", device>
  %8 = usm.astype %p : !S to !usm.array<?xui64, "host:cpu:0", device>
  %9 = usm.astype %a : !S to !usm.array<?xf32, "host:cpu:0", device>
  %10 = usm.astype %a : !S to !usm.array<?xf64, "host:cpu:0", device>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : !usm.array<?xi1, "host:cpu:0", device>, !usm.array<?xi8, "host:cpu:0", device>, !usm.array<?xi16, "host:cpu:0", device>, !usm.array<?xi32, "host:cpu:0", device>, !usm.array<?xi64, "host:cpu:0", device>, !usm.array<?xui8, "host:cpu:0", device>, !usm.array<?xui16, "host:cpu:0", device>, !usm.array<?xui32, "host:cpu:0", device>, !usm.array<?xui64, "host:cpu:0", device>, !usm.array<?xf32, "host:cpu:0", device>, !usm.array<?xf64, "host:cpu:0", device>
}

// -----

// to f16 from every type: rounding to nearest, inf beyond 65504.
// FOR: n in [131]
// INPUT: a0 = edges(n, 'i1')
// INPUT: a1 = edges(n, 'i8')
// INPUT: a2 = edges(n, 'i16')
// INPUT: a3 = edges(n, 'i32')
// INPUT: a4 = edges(n, 'i64')
// INPUT: a5 = edges(n, 'ui8')
// INPUT: a6 = edges(n, 'ui16')
// INPUT: a7 = edges(n, 'ui32')
// INPUT: a8 = edges(n, 'ui64')
// INPUT: a9 = special(n, 'f32', -70000, 70000)
// INPUT: a10 = special(n, 'f64', -70000, 70000)
// EXPECT: a0.astype(np.float16)
// EXPECT: a1.astype(np.float16)
// EXPECT: a2.astype(np.float16)
// EXPECT: a3.astype(np.float16)
// EXPECT: a4.astype(np.float16)
// EXPECT: a5.astype(np.float16)
// EXPECT: a6.astype(np.float16)
// EXPECT: a7.astype(np.float16)
// EXPECT: a8.astype(np.float16)
// EXPECT: a9.astype(np.float16)
// EXPECT: a10.astype(np.float16)
!H = !usm.array<?xf16, "host:cpu:0", device>
func.func @main(%a0: !usm.array<?xi1, "host:cpu:0", device>, %a1: !usm.array<?xi8, "host:cpu:0", device>, %a2: !usm.array<?xi16, "host:cpu:0", device>, %a3: !usm.array<?xi32, "host:cpu:0", device>, %a4: !usm.array<?xi64, "host:cpu:0", device>, %a5: !usm.array<?xui8, "host:cpu:0", device>, %a6: !usm.array<?xui16, "host:cpu:0", device>, %a7: !usm.array<?xui32, "host:cpu:0", device>, %a8: !usm.array<?xui64, "host:cpu:0", device>, %a9: !usm.array<?xf32, "host:cpu:0", device>, %a10: !usm.array<?xf64, "host:cpu:0", device>) -> (!H, !H, !H, !H, !H, !H, !H, !H, !H, !H, !H) {
  %0 = usm.astype %a0 : !usm.array<?xi1, "host:cpu:0", device> to !H
  %1 = usm.astype %a1 : !usm.array<?xi8, "host:cpu:0", device> to !H
  %2 = usm.astype %a2 : !usm.array<?xi16, "host:cpu:0", device> to !H
  %3 = usm.astype %a3 : !usm.array<?xi32, "host:cpu:0", device> to !H
  %4 = usm.astype %a4 : !usm.array<?xi64, "host:cpu:0", device> to !H
  %5 = usm.astype %a5 : !usm.array<?xui8, "host:cpu:0", device> to !H
  %6 = usm.astype %a6 : !usm.array<?xui16, "host:cpu:0", device> to !H
  %7 = usm.astype %a7 : !usm.array<?xui32, "host:cpu:0", device> to !H
  %8 = usm.astype %a8 : !usm.array<?xui64, "host:cpu:0", device> to !H
  %9 = usm.astype %a9 : !usm.array<?xf32, "host:cpu:0", device> to !H
  %10 = usm.astype %a10 : !usm.array<?xf64, "host:cpu:0", device> to !H
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : !H, !H, !H, !H, !H, !H, !H, !H, !H, !H, !H
}

// -----

// Special floats to i1 and between f32 and f64: NaN and +-inf survive.
// FOR: n in [259]
// INPUT: a = special(n, 'f32', -70000, 70000)
// INPUT: d = np.concatenate([special(n - 64, 'f64', -1e39, 1e39), rand(64, 'f64', -1e-40, 1e-40)])
// EXPECT: a.astype(np.bool_)
// EXPECT: a.astype(np.float64)
// EXPECT: d.astype(np.float32)
// EXPECT: d.astype(np.bool_)
!A = !usm.array<?xf32, "host:cpu:0", device>
!D = !usm.array<?xf64, "host:cpu:0", device>
!B = !usm.array<?xi1, "host:cpu:0", device>
func.func @main(%a: !A, %d: !D) -> (!B, !D, !A, !B) {
  %0 = usm.astype %a : !A to !B
  %1 = usm.astype %a : !A to !D
  %2 = usm.astype %d : !D to !A
  %3 = usm.astype %d : !D to !B
  return %0, %1, %2, %3 : !B, !D, !A, !B
}

// -----

// f16 conversions at every boundary: each of the 65536 f16 bit patterns
// (NaN payloads, subnormals, infinities) to f32, and back from f32 and f64
// each midpoint between neighbouring f16 values (ties to even) with its
// neighbours one ulp away. OpenCL devices without cl_khr_fp16 compute f16
// in f32 with integer conversions (EmulateF16.cpp); f64 goes through f32
// rounded to odd, so that it is rounded once.
// INPUT: h = np.arange(65536, dtype=np.uint16).view(np.float16)
// INPUT: m = (lambda g: (g[:-1] + g[1:]) / 2)(np.arange(0x7c01, dtype=np.uint16).view(np.float16).astype(np.float64))
// INPUT: a = (lambda f: np.concatenate([f, np.nextafter(f, np.float32(np.inf)), np.nextafter(f, np.float32(0)), -f]))(m.astype(np.float32))
// INPUT: d = np.concatenate([m, np.nextafter(m, np.inf), np.nextafter(m, 0), -m, np.nextafter(-m, -np.inf)])
// EXPECT: h.astype(np.float32)
// EXPECT: a.astype(np.float16)
// EXPECT: d.astype(np.float16)
!H = !usm.array<?xf16, "host:cpu:0", device>
!F = !usm.array<?xf32, "host:cpu:0", device>
!D = !usm.array<?xf64, "host:cpu:0", device>
func.func @main(%h: !H, %m: !D, %a: !F, %d: !D) -> (!F, !H, !H) {
  %0 = usm.astype %h : !H to !F
  %1 = usm.astype %a : !F to !H
  %2 = usm.astype %d : !D to !H
  return %0, %1, %2 : !F, !H, !H
}

// -----

// bf16 (no NumPy type: checked through f32). f32 -> bf16 rounds to nearest,
// ties to even (the expected values round with integer code on the bits);
// bf16 products are computed in f32 and rounded once; bf16 -> f64 is exact.
// Midpoints between neighbouring bf16 values and their neighbours are
// among the inputs. OpenCL computes bf16 in f32 (core SPIR-V has no bf16).
// FOR: n in [4099]
// INPUT: a = np.concatenate([special(n, 'f32', -3e38, 3e38), special(n, 'f32', -4, 4), (lambda m: np.concatenate([m, np.nextafter(m, np.float32(np.inf)), np.nextafter(m, np.float32(0)), -m]))((np.arange(0x7f80, dtype=np.uint32) << 16 | 0x8000).view(np.float32))])
// EXPECT: (lambda r: r(a))(lambda x: np.where(np.isnan(x), x, ((((x.view(np.uint32).astype(np.uint64) + 0x7fff + ((x.view(np.uint32) >> 16) & 1)) >> 16) << 16).astype(np.uint32)).view(np.float32)))
// EXPECT: (lambda r: r(r(a) * r(a)))(lambda x: np.where(np.isnan(x), x, ((((x.view(np.uint32).astype(np.uint64) + 0x7fff + ((x.view(np.uint32) >> 16) & 1)) >> 16) << 16).astype(np.uint32)).view(np.float32)))
// EXPECT: (lambda r: r(a).astype(np.float64))(lambda x: np.where(np.isnan(x), x, ((((x.view(np.uint32).astype(np.uint64) + 0x7fff + ((x.view(np.uint32) >> 16) & 1)) >> 16) << 16).astype(np.uint32)).view(np.float32)))
!F = !usm.array<?xf32, "host:cpu:0", device>
!B = !usm.array<?xbf16, "host:cpu:0", device>
!D = !usm.array<?xf64, "host:cpu:0", device>
func.func @main(%a: !F) -> (!F, !F, !D) {
  %b = usm.astype %a : !F to !B
  %0 = usm.astype %b : !B to !F
  %p = usm.mul %b, %b : (!B, !B) -> !B
  %1 = usm.astype %p : !B to !F
  %2 = usm.astype %b : !B to !D
  return %0, %1, %2 : !F, !F, !D
}
