//===- ProgramFail.cpp - Run-time checks of compiled programs -------------===//
#include "ProgramState.h"

#include "sluice-c/Program.h"

using namespace sluice::rt;
using namespace sluice::rt::program;

namespace {

/// `format` with "{i}" replaced by values[i] and "{{" by "{".
std::string formatMessage(const char *format, uint32_t numValues,
                          const int64_t *values) {
  std::string out;
  if (!format)
    return out;
  for (const char *p = format; *p;) {
    if (p[0] == '{' && p[1] == '{') {
      out += '{';
      p += 2;
      continue;
    }
    if (*p == '{') {
      // A placeholder is '{', decimal digits, '}' naming a given value.
      const char *q = p + 1;
      uint64_t index = 0;
      bool digits = false, overflow = false;
      while (*q >= '0' && *q <= '9') {
        index = index * 10 + uint64_t(*q - '0');
        overflow = overflow || index > UINT32_MAX;
        digits = true;
        ++q;
      }
      if (digits && *q == '}' && !overflow && index < numValues && values) {
        out += std::to_string(values[index]);
        p = q + 1;
        continue;
      }
    }
    out += *p++;
  }
  return out;
}

} // namespace

extern "C" {

void sluiceProgramFail(int32_t status, const char *format, uint32_t numValues,
                       const int64_t *values) {
  Invocation &inv = Invocation::current();
  run(inv, [&] {
    SluiceStatus s = static_cast<SluiceStatus>(SLUICE_ERROR_INVALID_VALUE);
    if (status > SLUICE_SUCCESS && status <= SLUICE_ERROR_NOT_READY)
      s = static_cast<SluiceStatus>(status);
    std::string message = formatMessage(format, numValues, values);
    if (message.empty())
      message = "the program failed a run-time check";
    return fail(s, std::move(message));
  });
}

} // extern "C"
