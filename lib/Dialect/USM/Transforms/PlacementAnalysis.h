//===- PlacementAnalysis.h - whole-program placement of arrays --*- C++ -*-===//
//
// Shared by usm-verify-placement, usm-infer-placement and
// usm-placement-report: how array values flow through control flow, and the
// solver that gives unplaced arrays the placement of the arrays they meet.
//
//===----------------------------------------------------------------------===//

#ifndef SLUICE_LIB_DIALECT_USM_TRANSFORMS_PLACEMENTANALYSIS_H
#define SLUICE_LIB_DIALECT_USM_TRANSFORMS_PLACEMENTANALYSIS_H

#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Value.h"

namespace sluice::usm {

/// Calls `fn(from, to, through)` for every array value `from` that flows
/// into the block argument or op result `to` without being computed on:
/// the entries, back edges and exits of `RegionBranchOpInterface` ops
/// (`through` is that op) and the successor operands of `BranchOpInterface`
/// ops (`through` is the branch), nested anywhere under `root`.
void forEachFlowEdge(mlir::Operation *root,
                     llvm::function_ref<void(mlir::Value from, mlir::Value to,
                                             mlir::Operation *through)>
                         fn);

struct PlacementOptions {
  /// Report arrays left unplaced (usm-infer-placement). Without it only
  /// conflicts are errors (usm-verify-placement, which runs the solver on a
  /// copy of the module).
  bool reportUnresolved = true;
  /// Queue for arrays that meet no placed array; null: none.
  QueueAttr defaultQueue;
  USMKind defaultKind = USMKind::device;
};

/// Solves placement over every function of `module` and rewrites it: places
/// unplaced arrays and specialises functions (see the descriptions of
/// usm-verify-placement and usm-infer-placement). Reports every conflict as
/// an error with notes; fails if there was one, or, with
/// `reportUnresolved`, if an array is left unplaced.
llvm::LogicalResult solvePlacement(mlir::ModuleOp module,
                                   const PlacementOptions &options);

} // namespace sluice::usm

#endif // SLUICE_LIB_DIALECT_USM_TRANSFORMS_PLACEMENTANALYSIS_H
