//===- Passes.td - usm dialect passes ----------------------*- tablegen -*-===//

#ifndef SLUICE_DIALECT_USM_TRANSFORMS_PASSES_TD
#define SLUICE_DIALECT_USM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Placement (compute-follows-data across whole programs)
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Fusion
//===----------------------------------------------------------------------===//

#endif // SLUICE_DIALECT_USM_TRANSFORMS_PASSES_TD
