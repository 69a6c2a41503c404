//===- StoreLowering.cpp - usm.store and writing results in place ---------===//
//
// A store whose value is the only result of an elementwise op or group is
// not a copy: the producer's generic takes the destination as its output.
// That is safe when the producer reads the destination, if at all, at the
// element it writes (the destination has the result's shape, so an operand
// that is the destination is read without broadcasting), when nothing
// between producer and store touches the destination, and when no operand
// of the producer is a view of the destination made inside the program.
// Aliasing between distinct arguments is the caller's guarantee.
//
//===----------------------------------------------------------------------===//

#include "StoreLowering.h"
#include "Broadcasting.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace sluice::usm;

namespace {

/// Whether `v` is `dest` or a view of it made by a shape op.
bool derivesFrom(Value v, Value dest) {
  while (v) {
    if (v == dest)
      return true;
    Operation *def = v.getDefiningOp();
    if (!def || !isa<ReshapeOp, TransposeOp, BroadcastToOp>(def))
      return false;
    v = def->getOperand(0);
  }
  return false;
}

/// Whether an op in [from, to) uses `value` (in nested regions too).
bool usedBetween(Operation *from, Operation *to, Value value) {
  for (Operation *op = from; op && op != to; op = op->getNextNode()) {
    bool uses = false;
    op->walk([&](Operation *inner) {
      if (llvm::is_contained(inner->getOperands(), value))
        uses = true;
    });
    if (uses)
      return true;
  }
  return false;
}

/// Checks at run time that `shape` (the value's) equals `dest`'s.
void checkSameShape(OpBuilder &b, Location loc, Operation *store,
                    ArrayRef<OpFoldResult> shape, Value dest) {
  Shape destShape = runtimeShape(b, loc, dest);
  ShapeMath math{b, loc};
  Value ok;
  for (auto [x, y] : llvm::zip(shape, destShape))
    ok = math.both(ok, math.isEqual(x, y));
  CheckMessage message(store);
  message << "cannot store an array of shape ";
  message.shape(shape) << " into one of shape ";
  message.shape(destShape);
  message.assertThat(b, loc, ok);
}

} // namespace

Value sluice::usm::storeDestination(ConversionPatternRewriter &rewriter,
                                    Operation *producer, Value result,
                                    ArrayRef<OpFoldResult> shape) {
  if (producer->getNumResults() != 1 || !result.hasOneUse())
    return Value();
  auto store = dyn_cast<StoreOp>(*result.getUsers().begin());
  if (!store || store.getValue() != result ||
      store.getDest().getType() != result.getType() ||
      store->getBlock() != producer->getBlock() ||
      !producer->isBeforeInBlock(store))
    return Value();
  Value dest = store.getDest();
  for (Value input : producer->getOperands())
    if (input != dest && derivesFrom(input, dest))
      return Value();
  if (usedBetween(producer->getNextNode(), store, dest))
    return Value();
  Value converted = rewriter.getRemappedValue(dest);
  if (!converted || !isa<MemRefType>(converted.getType()))
    return Value();
  checkSameShape(rewriter, producer->getLoc(), store, shape, converted);
  return converted;
}

namespace {

/// A store whose producer wrote into the destination is done; any other
/// copies the value.
struct StoreLowering : OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value value = adaptor.getValue(), dest = adaptor.getDest();
    if (value == dest) {
      rewriter.eraseOp(op);
      return success();
    }
    Location loc = op.getLoc();
    Shape shape = runtimeShape(rewriter, loc, value);
    checkSameShape(rewriter, loc, op, shape, dest);
    buildBroadcastingGeneric(rewriter, loc, {BroadcastOperand{value, shape}},
                             op.getValue().getType().getShape(), shape, dest,
                             [](OpBuilder &, Location, ValueRange args) {
                               return SmallVector<Value>{args[0]};
                             });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void sluice::usm::populateStoreLoweringPatterns(USMTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<StoreLowering>(converter, patterns.getContext());
}
