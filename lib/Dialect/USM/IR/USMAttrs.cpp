//===- USMAttrs.cpp - usm dialect attributes ------------------------------===//

#include "USMDetail.h"
#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace sluice::usm;

#include "sluice/Dialect/USM/IR/USMEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "sluice/Dialect/USM/IR/USMAttrs.cpp.inc"

LogicalResult sluice::usm::detail::parsePlacement(AsmParser &parser,
                                                  QueueAttr &queue,
                                                  USMKind &kind) {
  queue = QueueAttr::parseShort(parser);
  if (!queue || parser.parseComma())
    return failure();
  FailureOr<USMKind> parsed = parseKind(parser);
  if (failed(parsed))
    return failure();
  kind = *parsed;
  return success();
}

FailureOr<USMKind> sluice::usm::detail::parseKind(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<USMKind> kind = symbolizeUSMKind(name);
  if (!kind)
    return parser.emitError(loc) << "unknown USM kind '" << name
                                 << "'; expected device, shared or host";
  return *kind;
}

QueueAttr QueueAttr::getChecked(MLIRContext *ctx, StringRef filter,
                                StringRef name, std::string &error) {
  std::string normalized;
  if (!normalizeFilterString(filter, normalized, error))
    return {};
  return QueueAttr::get(ctx, normalized, name);
}

QueueAttr QueueAttr::getUnplaced(MLIRContext *ctx) {
  return QueueAttr::get(ctx, "?", "");
}

LogicalResult QueueAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                StringRef device, StringRef name) {
  if (device == "?") {
    if (!name.empty())
      return emitError() << "the unplaced queue has no name";
    return success();
  }
  std::string normalized, error;
  if (!normalizeFilterString(device, normalized, error))
    return emitError() << error;
  if (normalized != device)
    return emitError() << "queue device '" << device
                       << "' is not normalised (expected '" << normalized
                       << "')";
  return success();
}

/// Parses `"filter"` optionally followed by `("name")`.
static QueueAttr parseQueueBody(AsmParser &parser, bool nameInParens) {
  SMLoc loc = parser.getCurrentLocation();
  std::string filter, name;
  if (parser.parseString(&filter))
    return {};
  if (nameInParens) {
    if (succeeded(parser.parseOptionalLParen())) {
      if (parser.parseString(&name) || parser.parseRParen())
        return {};
    }
  } else if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseString(&name))
      return {};
  }
  if (StringRef(filter).trim() == "?") {
    parser.emitError(loc)
        << "'?' is not a filter string; an unplaced array is written "
           "!usm.array<shape x element, ?> (no queue, no USM kind)";
    return {};
  }
  std::string error;
  auto queue = QueueAttr::getChecked(parser.getContext(), filter, name, error);
  if (!queue) {
    parser.emitError(loc) << error;
    return {};
  }
  return queue;
}

Attribute QueueAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  QueueAttr queue = parseQueueBody(parser, /*nameInParens=*/false);
  if (!queue || parser.parseGreater())
    return {};
  return queue;
}

void QueueAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getDevice());
  if (!isCanonical()) {
    printer << ", ";
    printer.printString(getName());
  }
  printer << ">";
}

QueueAttr QueueAttr::parseShort(AsmParser &parser) {
  return parseQueueBody(parser, /*nameInParens=*/true);
}

void QueueAttr::printShort(AsmPrinter &printer) const {
  printer.printString(getDevice());
  if (!isCanonical()) {
    printer << "(";
    printer.printString(getName());
    printer << ")";
  }
}

Attribute PlacementAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  QueueAttr queue;
  USMKind kind;
  if (failed(sluice::usm::detail::parsePlacement(parser, queue, kind)) ||
      parser.parseGreater())
    return {};
  return PlacementAttr::get(parser.getContext(), queue, kind);
}

void PlacementAttr::print(AsmPrinter &printer) const {
  printer << "<";
  getQueue().printShort(printer);
  printer << ", " << stringifyUSMKind(getKind()) << ">";
}

void USMDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "sluice/Dialect/USM/IR/USMAttrs.cpp.inc"
      >();
}
