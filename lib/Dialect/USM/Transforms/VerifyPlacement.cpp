//===- VerifyPlacement.cpp - compute-follows-data across programs --------===//
//
// Runs the placement solver on a copy of the module, so that every conflict
// is found as inference would find it (per call placement, through control
// flow), and leaves the module unchanged.
//
//===----------------------------------------------------------------------===//

#include "PlacementAnalysis.h"
#include "sluice/Dialect/USM/Transforms/Passes.h"

namespace sluice::usm {
#define GEN_PASS_DEF_USMVERIFYPLACEMENTPASS
#include "sluice/Dialect/USM/Transforms/Passes.h.inc"
} // namespace sluice::usm

using namespace mlir;
using namespace sluice::usm;

namespace {
struct VerifyPlacementPass
    : public sluice::usm::impl::USMVerifyPlacementPassBase<
          VerifyPlacementPass> {
  void runOnOperation() override {
    OwningOpRef<ModuleOp> copy = getOperation().clone();
    PlacementOptions options;
    options.reportUnresolved = false;
    if (failed(solvePlacement(*copy, options)))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
