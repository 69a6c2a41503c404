//===- StoreLowering.h - usm.store and writing results in place -*- C++ -*-===//
//
// Internal to convert-usm-to-linalg. `usm.store %v, %dest` copies into the
// destination's memory; when %v's producer is a single-result elementwise op
// or group, the producer writes into the destination instead (see
// usm.store's description for when).
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_LIB_CONVERSION_USMTOLINALG_STORELOWERING_H
#define SLUICE_LIB_CONVERSION_USMTOLINALG_STORELOWERING_H

#include "RuntimeShapes.h"
#include "sluice/Conversion/USMToLinalg/USMToLinalg.h"

namespace sluice::usm {

/// The converted destination that `producer` (an elementwise op or fused
/// group being converted) may write its only result `result` into, or null.
/// `shape` is the result's run-time shape: a check that it equals the
/// destination's is emitted first.
mlir::Value storeDestination(mlir::ConversionPatternRewriter &rewriter,
                             mlir::Operation *producer, mlir::Value result,
                             llvm::ArrayRef<mlir::OpFoldResult> shape);

void populateStoreLoweringPatterns(USMTypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);

} // namespace sluice::usm

#endif // SLUICE_LIB_CONVERSION_USMTOLINALG_STORELOWERING_H
