//===- InsertDeallocs.cpp - Free temporary USM buffers --------------------===//

#include "sluice/Conversion/Passes.h"
#include "sluice/Dialect/USM/IR/USMDialect.h"
#include "sluice/Dialect/USM/IR/USMOps.h"
#include "sluice/Dialect/USM/IR/USMTypes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace sluice {
#define GEN_PASS_DEF_INSERTDEALLOCSPASS
#include "sluice/Conversion/Passes.h.inc"
} // namespace sluice

using namespace mlir;

namespace {

/// Users that read or write a buffer without keeping it beyond the op
/// (the address as an integer: the streaming-store alignment test).
bool isLocalUse(Operation *user) {
  return isa<gpu::LaunchFuncOp, memref::CopyOp, memref::DimOp, memref::LoadOp,
             memref::DeallocOp, memref::ExtractAlignedPointerAsIndexOp,
             sluice::usm::LibraryMatmulOp>(user);
}

/// Collects the users of `buffer` and its views; false if it escapes.
bool collectUsers(Value buffer, SmallVectorImpl<Operation *> &users) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && view.getViewSource() == buffer) {
      users.push_back(user);
      // Views are the memref results (extract_strided_metadata also
      // returns sizes and strides).
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()) &&
            !collectUsers(result, users))
          return false;
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(user);
        store && store.getMemRef() == buffer) {
      users.push_back(user);
      continue;
    }
    if (!isLocalUse(user))
      return false;
    if (isa<memref::DeallocOp>(user))
      return false; // already freed
    users.push_back(user);
  }
  return true;
}

struct InsertDeallocsPass
    : sluice::impl::InsertDeallocsPassBase<InsertDeallocsPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk([&](memref::AllocOp op) {
      if (isa_and_nonnull<sluice::usm::PlacementAttr>(
              op.getType().getMemorySpace()) &&
          !op->getParentOfType<gpu::GPUModuleOp>())
        allocs.push_back(op);
    });
    for (memref::AllocOp alloc : allocs) {
      SmallVector<Operation *> users;
      if (!collectUsers(alloc.getResult(), users))
        continue;
      Block *block = alloc->getBlock();
      Operation *last = alloc;
      for (Operation *user : users) {
        Operation *inBlock = block->findAncestorOpInBlock(*user);
        if (!inBlock) {
          last = nullptr; // used outside the allocation's block
          break;
        }
        if (last->isBeforeInBlock(inBlock))
          last = inBlock;
      }
      if (!last)
        continue;
      OpBuilder b(alloc.getContext());
      b.setInsertionPointAfter(last);
      memref::DeallocOp::create(b, alloc.getLoc(), alloc.getResult());
    }
  }
};

} // namespace
