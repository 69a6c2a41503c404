//===- ArrayIOInternal.h - shared helpers of sluice-arrayio -----*- C++ -*-===//
#ifndef SLUICE_LIB_SUPPORT_ARRAYIOINTERNAL_H
#define SLUICE_LIB_SUPPORT_ARRAYIOINTERNAL_H

#include "sluice/Support/ArrayIO.h"

#include <cstring>
#include <string>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
// HostArray data is little-endian and read with plain loads.
#error "sluice-arrayio supports little-endian hosts only"
#endif

namespace sluice::io {

/// Reads a T from possibly unaligned memory.
template <typename T> T load(const uint8_t *p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

/// Writes a T to possibly unaligned memory.
template <typename T> void store(uint8_t *p, T value) {
  std::memcpy(p, &value, sizeof value);
}

/// Element `index` as text in the input spec syntax: the shortest decimal
/// that reads back to the same float, nan, inf, -inf, true, false, integers
/// in decimal.
std::string formatElement(const HostArray &array, int64_t index);

/// Shortens `text` for an error message: at most `max` characters, with
/// "..." when cut.
std::string clip(std::string_view text, size_t max = 60);

} // namespace sluice::io

#endif // SLUICE_LIB_SUPPORT_ARRAYIOINTERNAL_H
