//===- StringUtil.h - Small string helpers for the runtime ------*- C++ -*-===//
#ifndef SLUICE_LIB_RUNTIME_STRINGUTIL_H
#define SLUICE_LIB_RUNTIME_STRINGUTIL_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sluice::rt {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

inline std::string toLower(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return out;
}

/// Splits on `sep`, keeping empty pieces.
inline std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

/// Parses a non-negative decimal integer that fits an unsigned.
inline std::optional<unsigned> parseIndex(std::string_view s) {
  if (s.empty() || s.size() > 9)
    return std::nullopt;
  unsigned value = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return std::nullopt;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  return value;
}

} // namespace sluice::rt

#endif // SLUICE_LIB_RUNTIME_STRINGUTIL_H
