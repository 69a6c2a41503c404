//===- ByteSize.h - Byte sizes in environment variables ---------*- C++ -*-===//
//
// The one parser of the byte sizes Sluice's environment variables take
// (SLUICE_POOL_LIMIT, SLUICE_POOL_HOLD_BYTES, SLUICE_INLINE_BYTES), header
// only, so that the runtime and the Python extension share it.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_RUNTIME_BYTESIZE_H
#define SLUICE_RUNTIME_BYTESIZE_H

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace sluice::rt {

/// Bytes in an environment variable: a decimal number with an optional
/// K, M, G or T suffix (powers of 1024; "KiB", "MB" and the like too).
/// False when the variable is unset or malformed.
inline bool parseByteSize(const char *text, uint64_t &bytes) {
  if (!text || !*text)
    return false;
  const char *p = text;
  while (std::isspace(static_cast<unsigned char>(*p)))
    ++p;
  if (!std::isdigit(static_cast<unsigned char>(*p)))
    return false;
  char *end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(p, &end, 10);
  if (errno)
    return false;
  std::string unit;
  for (; *end; ++end)
    if (!std::isspace(static_cast<unsigned char>(*end)))
      unit += static_cast<char>(std::toupper(static_cast<unsigned char>(*end)));
  int shift = 0;
  if (unit.empty() || unit == "B")
    shift = 0;
  else if (unit == "K" || unit == "KB" || unit == "KIB")
    shift = 10;
  else if (unit == "M" || unit == "MB" || unit == "MIB")
    shift = 20;
  else if (unit == "G" || unit == "GB" || unit == "GIB")
    shift = 30;
  else if (unit == "T" || unit == "TB" || unit == "TIB")
    shift = 40;
  else
    return false;
  if (shift && v > (~0ull >> shift))
    return false;
  bytes = static_cast<uint64_t>(v) << shift;
  return true;
}

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_BYTESIZE_H
