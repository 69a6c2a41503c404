//===- FilterString.cpp - dpctl filter strings naming one device ---------===//
//
// A queue attribute names one device with a dpctl filter string
// (`backend:device_type:index`, any part optional). The grammar is the
// runtime's (sluice-selector), so the compiler and the runtime accept exactly
// the same strings; this file adds what a queue identity needs: one device,
// every part spelled out.
//
//===----------------------------------------------------------------------===//

#include "sluice/Dialect/USM/IR/USMTypes.h"
#include "sluice/Runtime/FilterSelector.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;

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
  std::string parseError;
  std::optional<rt::FilterSelector> selector = rt::parseFilterSelector(
      std::string_view(filter.data(), filter.size()), &parseError);
  if (!selector)
    return fail(parseError);
  if (selector->terms.size() != 1)
    return fail("a fallback list selects a device at run time; a queue names "
                "exactly one device");
  const rt::FilterTerm &term = selector->terms.front();
  std::string backend =
      term.backend ? rt::backendName(*term.backend) : std::string("*");
  std::string type =
      term.type ? rt::deviceTypeName(*term.type) : std::string("*");
  if (term.backend == SLUICE_BACKEND_HOST) {
    if (term.type && *term.type != SLUICE_DEVICE_TYPE_CPU)
      return fail("the host backend has only a 'cpu' device");
    type = "cpu";
  }
  normalized =
      backend + ":" + type + ":" + std::to_string(term.index.value_or(0));
  return true;
}
