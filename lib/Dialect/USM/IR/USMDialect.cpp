//===- USMDialect.cpp - The usm dialect -----------------------------------===//

#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMOps.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace sluice::usm;

#include "sluice/Dialect/USM/IR/USMDialect.cpp.inc"

void USMDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "sluice/Dialect/USM/IR/USMOps.cpp.inc"
      >();
}

Operation *USMDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto arrayType = dyn_cast<ArrayType>(type);
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!arrayType || !elements)
    return nullptr;
  return ConstantOp::create(builder, loc, arrayType, elements);
}
