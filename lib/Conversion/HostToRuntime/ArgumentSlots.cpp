//===- ArgumentSlots.cpp - Stack slots of launch and failure arguments ----===//
//
// Launches and failed checks pass their arguments in stack memory allocated
// between `llvm.intr.stacksave` and `llvm.intr.stackrestore` where they
// happen. After conversion to LLVM, those allocations move to the function's
// entry block, one set of slots shared by every such place (the places run
// one after another and the runtime copies what it keeps): the stack no
// longer grows and shrinks per launch, and the host code has no dynamic
// allocation that LLVM's fast instruction selector (host code compiled
// without optimisation) would hand to the slow one.
//
//===----------------------------------------------------------------------===//

#include "HostToRuntime.h"

#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace sluice;
using namespace sluice::host;

namespace {

/// The constant element count of an alloca, if it has one.
std::optional<uint64_t> constantCount(LLVM::AllocaOp alloca) {
  auto c = alloca.getArraySize().getDefiningOp<LLVM::ConstantOp>();
  if (!c)
    return std::nullopt;
  auto value = dyn_cast<IntegerAttr>(c.getValue());
  if (!value || value.getValue().isNegative())
    return std::nullopt;
  return value.getValue().getZExtValue();
}

/// The allocas of one stacksave/stackrestore pair, in order, or nothing
/// when the pair is not a simple region of constant-size allocations.
std::optional<SmallVector<LLVM::AllocaOp>>
regionAllocas(LLVM::StackSaveOp save) {
  if (!save->hasOneUse())
    return std::nullopt;
  auto restore = dyn_cast<LLVM::StackRestoreOp>(*save->getUsers().begin());
  if (!restore || restore->getBlock() != save->getBlock() ||
      !save->isBeforeInBlock(restore))
    return std::nullopt;
  SmallVector<LLVM::AllocaOp> allocas;
  for (Operation *op = save->getNextNode(); op != restore;
       op = op->getNextNode()) {
    if (isa<LLVM::StackSaveOp, LLVM::StackRestoreOp>(op))
      return std::nullopt;
    auto alloca = dyn_cast<LLVM::AllocaOp>(op);
    if (!alloca)
      continue;
    if (!constantCount(alloca))
      return std::nullopt;
    allocas.push_back(alloca);
  }
  return allocas;
}

void hoistInFunction(LLVM::LLVMFuncOp f) {
  if (f.isExternal())
    return;
  Block &entry = f.getBody().front();
  SmallVector<std::pair<LLVM::StackSaveOp, SmallVector<LLVM::AllocaOp>>>
      regions;
  f.walk([&](LLVM::StackSaveOp save) {
    if (std::optional<SmallVector<LLVM::AllocaOp>> allocas =
            regionAllocas(save))
      regions.emplace_back(save, std::move(*allocas));
  });
  if (regions.empty())
    return;
  // Slot i serves the i-th allocation of every region: the largest size
  // and alignment asked of it.
  DataLayout layout = DataLayout::closest(f);
  SmallVector<std::pair<uint64_t, uint64_t>> slots; // bytes, alignment
  for (auto &[save, allocas] : regions)
    for (auto [i, alloca] : llvm::enumerate(allocas)) {
      Type element = alloca.getElemType();
      uint64_t bytes =
          layout.getTypeSize(element).getFixedValue() * *constantCount(alloca);
      uint64_t align = std::max<uint64_t>(alloca.getAlignment().value_or(1),
                                          layout.getTypeABIAlignment(element));
      if (i >= slots.size())
        slots.emplace_back(0, 1);
      slots[i].first = std::max(slots[i].first, std::max<uint64_t>(bytes, 1));
      slots[i].second = std::max(slots[i].second, align);
    }
  OpBuilder b(f.getContext());
  b.setInsertionPointToStart(&entry);
  Location loc = f.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(f.getContext());
  Type i8 = b.getI8Type();
  SmallVector<Value> slotValues;
  for (auto [bytes, align] : slots) {
    Value count = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                           b.getI64IntegerAttr(bytes));
    slotValues.push_back(LLVM::AllocaOp::create(b, loc, ptr, i8, count,
                                                static_cast<unsigned>(align)));
  }
  for (auto &[save, allocas] : regions) {
    for (auto [i, alloca] : llvm::enumerate(allocas)) {
      alloca.getResult().replaceAllUsesWith(slotValues[i]);
      alloca.erase();
    }
    Operation *restore = *save->getUsers().begin();
    restore->erase();
    save.erase();
  }
}

} // namespace

void sluice::host::hoistArgumentSlots(ModuleOp module,
                                      ArrayRef<HostKernel> kernels) {
  llvm::StringSet<> skipped;
  for (const HostKernel &k : kernels)
    skipped.insert(k.impl);
  for (auto f : module.getOps<LLVM::LLVMFuncOp>())
    if (!skipped.contains(f.getName()))
      hoistInFunction(f);
}
