//===- USMDetail.h - helpers shared by the usm dialect's sources -*- C++
//-*-===//

#ifndef SLUICE_LIB_DIALECT_USM_IR_USMDETAIL_H
#define SLUICE_LIB_DIALECT_USM_IR_USMDETAIL_H

#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"

namespace sluice::usm {
enum class ElementRule;
} // namespace sluice::usm

namespace sluice::usm::detail {

/// Parses a placement body `"queue"("name")?, kind` (used by the array type
/// and by #usm.placement).
llvm::LogicalResult parsePlacement(mlir::AsmParser &parser, QueueAttr &queue,
                                   USMKind &kind);

/// Parses a USM kind keyword (device, shared, host) with a diagnostic.
llvm::FailureOr<USMKind> parseKind(mlir::AsmParser &parser);

// (formatShape and formatQueue are public: USMTypes.h.)
using sluice::usm::formatQueue;
using sluice::usm::formatShape;

/// Checks that all array operands share one queue (compute-follows-data) and
/// returns it with the coerced USM kind. Fails with a diagnostic at `loc`.
llvm::LogicalResult checkSamePlacementQueue(std::optional<mlir::Location> loc,
                                            llvm::StringRef opName,
                                            mlir::ValueRange operands,
                                            QueueAttr &queue, USMKind &kind);

/// Checks axes in [-rank, rank) without repeats.
llvm::LogicalResult checkAxes(std::optional<mlir::Location> loc,
                              llvm::StringRef opName, int64_t rank,
                              llvm::ArrayRef<int64_t> axes,
                              llvm::StringRef what);

/// The result element type of elementwise op `opName` under `rule` when its
/// data elements are complex, or its rule is about complex numbers
/// (ComplexPart, MakeComplex); a diagnostic for the ops complex numbers do
/// not take (USMComplex.cpp). Other elements are returned unchanged.
llvm::FailureOr<mlir::Type>
inferComplexElement(std::optional<mlir::Location> loc, llvm::StringRef opName,
                    ElementRule rule, mlir::Type element);
/// Rejects the reductions complex numbers do not take (max, min).
llvm::LogicalResult checkComplexReduction(std::optional<mlir::Location> loc,
                                          llvm::StringRef opName,
                                          mlir::Type element);

} // namespace sluice::usm::detail

#endif // SLUICE_LIB_DIALECT_USM_IR_USMDETAIL_H
