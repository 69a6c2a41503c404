//===- InferPlacement.cpp - places unplaced arrays ------------------------===//

#include "PlacementAnalysis.h"
#include "sluice/Dialect/USM/Transforms/Passes.h"

namespace sluice::usm {
#define GEN_PASS_DEF_USMINFERPLACEMENTPASS
#include "sluice/Dialect/USM/Transforms/Passes.h.inc"
} // namespace sluice::usm

using namespace mlir;
using namespace sluice::usm;

namespace {
struct InferPlacementPass
    : public sluice::usm::impl::USMInferPlacementPassBase<InferPlacementPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    PlacementOptions options;
    options.defaultKind = defaultKind;
    if (!defaultQueue.empty()) {
      std::string error;
      options.defaultQueue =
          QueueAttr::getChecked(&getContext(), defaultQueue, "", error);
      if (!options.defaultQueue) {
        module.emitError("usm-infer-placement: default-queue: ") << error;
        return signalPassFailure();
      }
    }
    if (failed(solvePlacement(module, options)))
      signalPassFailure();
  }
};
} // namespace
