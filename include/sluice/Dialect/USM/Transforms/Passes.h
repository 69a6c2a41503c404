//===- Passes.h - usm dialect passes ----------------------------*- C++ -*-===//

#ifndef SLUICE_DIALECT_USM_TRANSFORMS_PASSES_H
#define SLUICE_DIALECT_USM_TRANSFORMS_PASSES_H

#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/Pass/Pass.h"
#include "llvm/Support/CommandLine.h"

namespace sluice::usm {

/// The values of a pass option that names a USM kind: the kinds as the
/// dialect spells them (stringifyUSMKind).
llvm::cl::ValuesClass usmKindOptionValues();

#define GEN_PASS_DECL
#include "sluice/Dialect/USM/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "sluice/Dialect/USM/Transforms/Passes.h.inc"

/// Registers every usm pass with the global registry (tools call this).
void registerAllUSMPasses();

} // namespace sluice::usm

#endif // SLUICE_DIALECT_USM_TRANSFORMS_PASSES_H
