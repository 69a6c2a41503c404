//===- Sizes.h - Array sizes that fit in memory ---------------------------===//
//
// An array's size in bytes must fit in 2^62 (what the compiler's types and
// the runtime allow): larger or overflowing sizes raise ValueError, as in
// NumPy, before anything is allocated or launched.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_PYTHON_SIZES_H
#define SLUICE_PYTHON_SIZES_H

#include "Errors.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sluice::py {

/// Throws ValueError unless `shape` (negative entries: unknown, skipped) of
/// elements of `itemsize` bytes fits in 2^62 bytes.
inline void checkArrayBytes(const int64_t *shape, size_t rank,
                            size_t itemsize) {
  const uint64_t limit = uint64_t(1) << 62;
  uint64_t bytes = itemsize ? itemsize : 1;
  bool tooLarge = false;
  for (size_t i = 0; i < rank; ++i) {
    int64_t d = shape[i];
    if (d == 0)
      return;
    if (d < 0 || tooLarge)
      continue;
    if (bytes > limit / uint64_t(d))
      tooLarge = true;
    else
      bytes *= uint64_t(d);
  }
  if (!tooLarge)
    return;
  std::string text = "(";
  for (size_t i = 0; i < rank; ++i)
    text += (i ? ", " : "") +
            (shape[i] < 0 ? std::string("?") : std::to_string(shape[i]));
  text += rank == 1 ? ",)" : ")";
  throw Error(ErrorKind::Value,
              "array is too big: shape " + text + " of " +
                  std::to_string(itemsize) +
                  "-byte elements needs more than 2^62 bytes");
}

inline void checkArrayBytes(const std::vector<int64_t> &shape,
                            size_t itemsize) {
  checkArrayBytes(shape.data(), shape.size(), itemsize);
}

} // namespace sluice::py

#endif // SLUICE_PYTHON_SIZES_H
