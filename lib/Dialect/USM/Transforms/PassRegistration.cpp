//===- PassRegistration.cpp - registers the usm dialect's passes ----------===//

#include "sluice/Dialect/USM/Transforms/Passes.h"

// Keeps the library non-empty while the pass list is being filled; the
// registration function itself is generated from Passes.td.
namespace sluice::usm {
void registerAllUSMPasses() { registerUSMPasses(); }
} // namespace sluice::usm
