//===- USMFused.cpp - usm.fused and usm.yield -----------------------------===//
//
// The op that holds a fused group (built by usm-fuse-elementwise): custom
// assembly and the verifier of its placement and body.
//
//===----------------------------------------------------------------------===//

#include "USMDetail.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace sluice::usm;
namespace ud = sluice::usm::detail;

YieldOp FusedOp::getYield() {
  return cast<YieldOp>(getBodyBlock().getTerminator());
}

// usm.fused "queue" ins(%x = %a : type, ...) -> (types) attrs {body}
ParseResult FusedOp::parse(OpAsmParser &parser, OperationState &result) {
  QueueAttr queue = QueueAttr::parseShort(parser);
  if (!queue)
    return failure();
  result.addAttribute(getQueueAttrName(result.name), queue);

  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> inputs;
  SmallVector<Type> inputTypes;
  auto parseInput = [&]() -> ParseResult {
    OpAsmParser::Argument &arg = args.emplace_back();
    OpAsmParser::UnresolvedOperand &input = inputs.emplace_back();
    if (parser.parseArgument(arg) || parser.parseEqual() ||
        parser.parseOperand(input) || parser.parseColonType(arg.type))
      return failure();
    inputTypes.push_back(arg.type);
    return success();
  };
  SMLoc inputsLoc = parser.getCurrentLocation();
  if (parser.parseKeyword("ins") ||
      parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                     parseInput) ||
      parser.resolveOperands(inputs, inputTypes, inputsLoc, result.operands))
    return failure();

  SmallVector<Type> resultTypes;
  if (parser.parseArrowTypeList(resultTypes))
    return failure();
  result.addTypes(resultTypes);
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  return parser.parseRegion(*body, args);
}

void FusedOp::print(OpAsmPrinter &p) {
  p << ' ';
  getQueue().printShort(p);
  p << " ins(";
  Block &block = getBodyBlock();
  llvm::interleaveComma(llvm::zip(block.getArguments(), getInputs()), p,
                        [&](auto pair) {
                          auto [arg, input] = pair;
                          p.printRegionArgument(arg, {}, /*omitType=*/true);
                          p << " = " << input << " : ";
                          p.printType(input.getType());
                        });
  p << ") -> (";
  llvm::interleaveComma(getResultTypes(), p,
                        [&](Type type) { p.printType(type); });
  p << ")";
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), {getQueueAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

/// Where a type lives: null for scalars and `index`.
static ArrayType asArray(Type type) { return dyn_cast<ArrayType>(type); }

LogicalResult FusedOp::verifyRegions() {
  QueueAttr queue = getQueue();
  auto wrongQueue = [&](Operation *at, StringRef what, unsigned index,
                        ArrayType type) {
    if (!type.isPlaced())
      return at->emitOpError()
             << what << " #" << index
             << " is not placed; a fused group runs on one queue";
    return at->emitOpError()
           << what << " #" << index << " is on queue "
           << ud::formatQueue(type.getQueue())
           << " but the fused group runs on queue " << ud::formatQueue(queue)
           << "; a fused group never spans queues";
  };

  if (getNumResults() == 0)
    return emitOpError("must return at least one array");

  Block &block = getBodyBlock();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("has ")
           << getInputs().size() << " input(s) but its body takes "
           << block.getNumArguments() << " argument(s)";
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    Type type = input.getType();
    if (block.getArgument(i).getType() != type)
      return emitOpError("input #")
             << i << " has type " << type << " but body argument #" << i
             << " has type " << block.getArgument(i).getType();
    if (ArrayType array = asArray(type)) {
      if (array.getQueue() != queue)
        return wrongQueue(*this, "input", i, array);
    } else if (!type.isIntOrIndexOrFloat() && !isa<ComplexType>(type)) {
      return emitOpError("input #")
             << i << " of type " << type
             << " is neither a usm array, a scalar nor an index";
    }
  }
  for (auto [i, type] : llvm::enumerate(getResultTypes()))
    if (cast<ArrayType>(type).getQueue() != queue)
      return wrongQueue(*this, "result", i, cast<ArrayType>(type));

  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return emitOpError("body must end with usm.yield");
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields ")
           << yield.getValues().size()
           << " value(s) whose types differ from the op's result types";

  for (Operation &op : block.without_terminator()) {
    if (isa<FusedOp>(op))
      return op.emitOpError("cannot be nested in another usm.fused");
    if (isa<ToDeviceOp>(op))
      return op.emitOpError(
          "changes placement and cannot be part of a fused group");
    if (!isMemoryEffectFree(&op))
      return op.emitOpError(
          "has side effects and cannot be part of a fused group");
    for (auto [i, type] : llvm::enumerate(op.getResultTypes()))
      if (ArrayType array = asArray(type); array && array.getQueue() != queue)
        return wrongQueue(&op, "result", i, array);
  }
  return success();
}
