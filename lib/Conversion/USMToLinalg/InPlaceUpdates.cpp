//===- InPlaceUpdates.cpp - which updates write their destination in place ===//
//
// A usm.strided_insert writes only its window, and a usm.scatter only its
// positions, into its destination's memory when the destination's old
// value is dead after it (no later use of the destination or of a view of
// it, in block order) and that memory may be reused: a buffer the program
// allocates, another update's result (itself a new buffer or a memory
// reused in place), or a function argument that a later usm.store
// overwrites with the chain of updates that begins here (the jit's
// written-back arguments). The value (and a scatter's positions) must not
// be a view of the destination: it would be written while it is read.
//
//===----------------------------------------------------------------------===//

#include "sluice/Conversion/USMToLinalg/USMToLinalg.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace sluice::usm;

namespace {

/// Ops whose result is (in the lowering) a view of their first operand's
/// memory.
bool isView(Operation *op) {
  return isa<ReshapeOp, TransposeOp, BroadcastToOp, StridedViewOp>(op);
}

/// `v` and every value made from it by view ops (transitively).
llvm::SetVector<Value> viewsOf(Value v) {
  llvm::SetVector<Value> views;
  views.insert(v);
  for (size_t i = 0; i < views.size(); ++i)
    for (Operation *user : views[i].getUsers())
      if (isView(user) && user->getOperand(0) == views[i])
        views.insert(user->getResult(0));
  return views;
}

/// The value `v` is a view of (through view ops), or `v`.
Value viewRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isView(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// The destination of an update (a strided insert or a scatter), or null.
Value destOf(Operation *op) {
  if (auto insert = dyn_cast_or_null<StridedInsertOp>(op))
    return insert.getDest();
  if (auto scatter = dyn_cast_or_null<ScatterOp>(op))
    return scatter.getDest();
  return Value();
}

/// Whether `v` is `from` or made from it by further updates of it.
bool updatesOf(Value v, Value from) {
  while (v != from) {
    Value dest = destOf(v.getDefiningOp());
    if (!dest)
      return false;
    v = dest;
  }
  return true;
}

bool inPlace(Operation *op) {
  Value dest = destOf(op);
  if (dest.getDefiningOp() && isView(dest.getDefiningOp()))
    return false;
  if (dest.getParentBlock() != op->getBlock())
    return false;
  // What the update reads must not be a view of what it writes.
  for (Value read : op->getOperands())
    if (read != dest && viewRoot(read) == dest)
      return false;
  auto arg = dyn_cast<BlockArgument>(dest);
  if (arg && !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return false;
  llvm::SetVector<Value> views = viewsOf(dest);
  bool writtenBack = false;
  for (Operation *after = op->getNextNode(); after;
       after = after->getNextNode()) {
    bool used = false;
    after->walk([&](Operation *inner) {
      auto store = dyn_cast<StoreOp>(inner);
      if (arg && store && store.getDest() == dest &&
          !views.contains(store.getValue()) &&
          updatesOf(store.getValue(), op->getResult(0))) {
        writtenBack = true;
        return;
      }
      for (Value operand : inner->getOperands())
        used |= views.contains(operand);
    });
    if (used)
      return false;
  }
  return !arg || writtenBack;
}

} // namespace

void sluice::usm::markInPlaceUpdates(Operation *root) {
  root->walk([&](Operation *op) {
    if (!isa<StridedInsertOp, ScatterOp>(op))
      return;
    op->removeAttr(kInPlaceAttr);
    if (inPlace(op))
      op->setAttr(kInPlaceAttr, UnitAttr::get(op->getContext()));
  });
}

bool sluice::usm::isInPlaceUpdate(Operation *op, Value dest) {
  if (!op->hasAttr(kInPlaceAttr))
    return false;
  if (isa<BlockArgument>(dest))
    return true;
  Operation *def = dest.getDefiningOp();
  // A buffer of the program's, or (through casts the conversion makes) an
  // insert's result or argument: never a constant's global memory.
  while (auto cast = dyn_cast_or_null<UnrealizedConversionCastOp>(def)) {
    if (cast->getNumOperands() != 1)
      return false;
    if (isa<BlockArgument>(cast->getOperand(0)))
      return true;
    def = cast->getOperand(0).getDefiningOp();
  }
  return isa_and_nonnull<memref::AllocOp>(def) ||
         destOf(op->getOperand(1).getDefiningOp());
}
