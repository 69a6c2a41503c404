//===- USMDialect.h - The usm dialect ---------------------------*- C++ -*-===//

#ifndef SLUICE_DIALECT_USM_IR_USMDIALECT_H
#define SLUICE_DIALECT_USM_IR_USMDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"

#include "sluice/Dialect/USM/IR/USMDialect.h.inc"

#endif // SLUICE_DIALECT_USM_IR_USMDIALECT_H
