//===- PassRegistration.cpp - registers the usm dialect's passes ----------===//

#include "sluice/Dialect/USM/Transforms/Passes.h"

// The registration function itself is generated from Passes.td.
namespace sluice::usm {
void registerAllUSMPasses() { registerUSMPasses(); }

llvm::cl::ValuesClass usmKindOptionValues() {
  auto value = [](USMKind kind, const char *description) {
    return llvm::cl::OptionEnumValue{stringifyUSMKind(kind), int(kind),
                                     description};
  };
  return llvm::cl::ValuesClass({value(USMKind::device, "device USM"),
                                value(USMKind::shared, "shared USM"),
                                value(USMKind::host, "host USM")});
}
} // namespace sluice::usm
