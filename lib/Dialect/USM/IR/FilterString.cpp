//===- FilterString.cpp - dpctl filter strings naming one device ---------===//
//
// A queue attribute names one device with a dpctl filter string
// (`backend:device_type:index`, any part optional). This file normalises such
// strings for the compiler; selection among several devices (`,` fallbacks,
// SLUICE_DEVICE_SELECTOR) is the runtime's job.
//
//===----------------------------------------------------------------------===//

#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace {
enum class Part { Backend, Type, Index };
} // namespace

static std::optional<StringRef> canonicalBackend(StringRef s) {
  return StringSwitch<std::optional<StringRef>>(s)
      .Case("level_zero", StringRef("level_zero"))
      .Case("opencl", StringRef("opencl"))
      .Case("cuda", StringRef("cuda"))
      .Case("host", StringRef("host"))
      .Case("native_cpu", StringRef("host"))
      .Default(std::nullopt);
}

static bool isDeviceType(StringRef s) {
  return s == "gpu" || s == "cpu" || s == "accelerator";
}

bool sluice::usm::normalizeFilterString(StringRef filter,
                                        std::string &normalized,
                                        std::string &error) {
  auto fail = [&](const Twine &msg) {
    error = ("invalid filter string '" + filter + "': " + msg).str();
    return false;
  };
  if (filter.trim().empty())
    return fail("it is empty; expected 'backend:device_type:index' with any "
                "part optional, e.g. 'opencl:cpu:0' or 'gpu'");
  if (filter.contains(','))
    return fail("a fallback list selects a device at run time; a queue names "
                "exactly one device");
  SmallVector<StringRef> tokens;
  filter.split(tokens, ':', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  if (tokens.size() > 3)
    return fail("too many ':'-separated parts (at most backend, device type "
                "and index)");

  std::string backend = "*", type = "*";
  int64_t index = 0;
  int last = -1; // the order of parts: backend < type < index
  for (StringRef raw : tokens) {
    std::string tok = raw.trim().lower();
    if (tok.empty())
      return fail("empty part between ':' separators");
    int part;
    if (auto b = canonicalBackend(tok)) {
      part = static_cast<int>(Part::Backend);
      backend = b->str();
    } else if (isDeviceType(tok)) {
      part = static_cast<int>(Part::Type);
      type = tok;
    } else if (tok == "*") {
      // A wildcard stands for the part that would come next.
      part = last + 1;
      if (part > static_cast<int>(Part::Type))
        return fail("'*' cannot stand for a device index");
    } else if (StringRef(tok).getAsInteger(10, index) == false) {
      part = static_cast<int>(Part::Index);
      if (index < 0)
        return fail("the device index must be non-negative");
    } else if (tok[0] == '-' && isDigit(tok.size() > 1 ? tok[1] : 'x')) {
      return fail("the device index must be non-negative");
    } else {
      return fail("unknown part '" + raw.trim() +
                  "'; expected a backend (level_zero, opencl, cuda, host, "
                  "native_cpu), a device type (gpu, cpu, accelerator) or an "
                  "index");
    }
    if (part <= last)
      return fail("parts must appear in the order backend:device_type:index");
    last = part;
  }
  if (backend == "host") {
    if (type != "*" && type != "cpu")
      return fail("the host backend has only a 'cpu' device");
    type = "cpu";
  }
  normalized = backend + ":" + type + ":" + std::to_string(index);
  return true;
}
