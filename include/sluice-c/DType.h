/*===- sluice-c/DType.h - Sluice's element types ------------------*- C -*-===//
 *
 * The element types of arrays, numbered once for every part of Sluice: the
 * embedding API (SluiceDType, sluice-c/Compiler.h), the array I/O of the
 * tools (sluice::io::DType, sluice/Support/ArrayIO.h) and the Python
 * extension (python/src/Array.h) expand SLUICE_DTYPE_LIST into their enums,
 * so a dtype's number is the same in all of them.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SLUICE_C_DTYPE_H
#define SLUICE_C_DTYPE_H

/* X(C name, C++ name, NumPy name, bytes per element) for each element type,
 * in the order of their numbers (from 0). */
#define SLUICE_DTYPE_LIST(X)                                                   \
  X(BOOL, Bool, bool, 1)                                                       \
  X(INT8, I8, int8, 1)                                                         \
  X(INT16, I16, int16, 2)                                                      \
  X(INT32, I32, int32, 4)                                                      \
  X(INT64, I64, int64, 8)                                                      \
  X(UINT8, U8, uint8, 1)                                                       \
  X(UINT16, U16, uint16, 2)                                                    \
  X(UINT32, U32, uint32, 4)                                                    \
  X(UINT64, U64, uint64, 8)                                                    \
  X(FLOAT16, F16, float16, 2)                                                  \
  X(FLOAT32, F32, float32, 4)                                                  \
  X(FLOAT64, F64, float64, 8)                                                  \
  X(COMPLEX64, C64, complex64, 8)     /* complex<f32>: (re, im) f32 pairs */   \
  X(COMPLEX128, C128, complex128, 16) /* complex<f64> */

/* Element types (NumPy's names): SLUICE_DTYPE_BOOL = 0, SLUICE_DTYPE_INT8,
 * ..., SLUICE_DTYPE_COMPLEX128 = 13. */
typedef enum SluiceDType {
#define SLUICE_DTYPE_ENUMERATOR(c, cpp, numpy, bytes) SLUICE_DTYPE_##c,
  SLUICE_DTYPE_LIST(SLUICE_DTYPE_ENUMERATOR)
#undef SLUICE_DTYPE_ENUMERATOR
} SluiceDType;

#endif /* SLUICE_C_DTYPE_H */
