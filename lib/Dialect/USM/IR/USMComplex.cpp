//===- USMComplex.cpp - element-type rules of complex numbers -------------===//
//
// Which elementwise ops and reductions take complex<f32>/complex<f64>
// elements and what they return, following NumPy and the Array API:
// arithmetic, powers, the exponential and logarithm, roots, trigonometric
// functions, equality and selection take them; complex numbers have no
// order, so comparisons, maximum/minimum, floor division and remainder do
// not.
//
//===----------------------------------------------------------------------===//

#include "USMDetail.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace sluice::usm;

unsigned sluice::usm::getElementBitWidth(Type type) {
  if (auto c = dyn_cast<ComplexType>(type))
    return 2 * c.getElementType().getIntOrFloatBitWidth();
  return type.getIntOrFloatBitWidth();
}

/// Elementwise ops with a complex lowering (ComplexEmitter.cpp).
static bool acceptsComplex(StringRef opName) {
  static const char *const names[] = {
      "usm.add",        "usm.sub",         "usm.mul",        "usm.div",
      "usm.pow",        "usm.negative",    "usm.abs",        "usm.exp",
      "usm.log",        "usm.sqrt",        "usm.sin",        "usm.cos",
      "usm.tanh",       "usm.eq",          "usm.ne",         "usm.logical_and",
      "usm.logical_or", "usm.logical_not", "usm.where",      "usm.conj",
      "usm.real",       "usm.imag",        "usm.angle",      "usm.tan",
      "usm.sinh",       "usm.cosh",        "usm.asin",       "usm.acos",
      "usm.atan",       "usm.asinh",       "usm.acosh",      "usm.atanh",
      "usm.exp2",       "usm.expm1",       "usm.log2",       "usm.log10",
      "usm.log1p",      "usm.rsqrt",       "usm.reciprocal", "usm.sign",
      "usm.rint",       "usm.isnan",       "usm.isinf",      "usm.isfinite"};
  return llvm::is_contained(names, opName);
}

static bool isOrdering(StringRef opName) {
  return llvm::is_contained({"usm.lt", "usm.le", "usm.gt", "usm.ge",
                             "usm.maximum", "usm.minimum", "usm.max",
                             "usm.min"},
                            opName);
}

FailureOr<Type>
sluice::usm::detail::inferComplexElement(std::optional<Location> loc,
                                         StringRef opName, ElementRule rule,
                                         Type element) {
  auto complex = dyn_cast<ComplexType>(element);
  if (rule == ElementRule::MakeComplex) {
    if (!element.isF32() && !element.isF64())
      return emitOptionalError(loc, "'", opName,
                               "' op makes complex numbers of f32 or f64 "
                               "parts, got ",
                               element);
    return Type(ComplexType::get(element));
  }
  if (rule == ElementRule::ComplexPart) {
    if (complex)
      return complex.getElementType();
    if (isa<FloatType>(element))
      return element;
    return emitOptionalError(loc, "'", opName,
                             "' op requires floating-point or complex "
                             "elements, got ",
                             element, "; convert with usm.astype");
  }
  if (!complex)
    return element;
  if (isOrdering(opName))
    return emitOptionalError(loc, "'", opName,
                             "' op complex numbers have no order (", element,
                             " elements); compare real parts or absolute "
                             "values instead");
  if (!acceptsComplex(opName))
    return emitOptionalError(loc, "'", opName,
                             "' op is not defined for complex numbers (",
                             element, " elements)");
  if (opName == "usm.abs")
    return complex.getElementType();
  if (rule == ElementRule::Compare || rule == ElementRule::Logical)
    return Type(IntegerType::get(element.getContext(), 1));
  return element;
}

LogicalResult
sluice::usm::detail::checkComplexReduction(std::optional<Location> loc,
                                           StringRef opName, Type element) {
  if (isa<ComplexType>(element) && isOrdering(opName))
    return emitOptionalError(loc, "'", opName,
                             "' op complex numbers have no order (", element,
                             " elements); reduce real parts or absolute "
                             "values instead");
  return success();
}
