//===- SourceNesting.h - Nesting depth of MLIR source text ------*- C++ -*-===//
//
// MLIR's parser, verifier and printer recurse once per nested region,
// bracket or attribute: a program nested a few thousand levels deep
// overflows the stack (SIGSEGV) before any diagnostic. The tools scan the
// text first, a cheap linear pass, and report an error at the first bracket
// that nests deeper than a limit no real program reaches.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_SUPPORT_SOURCENESTING_H
#define SLUICE_SUPPORT_SOURCENESTING_H

#include <cstddef>
#include <optional>
#include <string_view>

namespace sluice {

/// How deep `{`, `(` and `[` may nest in a program the tools parse.
inline constexpr unsigned kMaxSourceNesting = 1000;

/// The offset of the first `{`, `(` or `[` in `text` that opens a bracket
/// nested deeper than `limit`, outside string literals and `//` comments;
/// none when the text nests no deeper. MLIR bytecode (binary) is not
/// scanned.
inline std::optional<size_t>
findTooDeepNesting(std::string_view text, unsigned limit = kMaxSourceNesting) {
  if (text.substr(0, 4) == std::string_view("ML\xefR", 4))
    return std::nullopt;
  size_t depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n')
        ++i;
    } else if (c == '{' || c == '(' || c == '[') {
      if (++depth > limit)
        return i;
    } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

} // namespace sluice

#endif // SLUICE_SUPPORT_SOURCENESTING_H
