//===- PlacementReport.cpp - where arrays live and what moves -------------===//
//
// Per function: the arrays on each queue, every usm.to_device with its
// bytes, and migrations that bring data back unchanged (A -> B -> A).
//
//===----------------------------------------------------------------------===//

#include "PlacementAnalysis.h"
#include "sluice/Dialect/USM/IR/USMOps.h"
#include "sluice/Dialect/USM/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

namespace sluice::usm {
#define GEN_PASS_DEF_USMPLACEMENTREPORTPASS
#include "sluice/Dialect/USM/Transforms/Passes.h.inc"
} // namespace sluice::usm

using namespace mlir;
using namespace sluice::usm;

/// The migration `v` is a copy of when nothing was computed on the way:
/// through shape ops, block arguments and region results. Null when some path
/// computes `v` or when paths lead to different migrations.
static ToDeviceOp
migratedFrom(Value v, const DenseMap<Value, SmallVector<Value>> &incoming) {
  ToDeviceOp found;
  SmallVector<Value> worklist{v};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value w = worklist.pop_back_val();
    if (!seen.insert(w).second)
      continue;
    Operation *def = w.getDefiningOp();
    if (auto m = dyn_cast_or_null<ToDeviceOp>(def)) {
      if (found && found != m)
        return {};
      found = m;
      continue;
    }
    if (isa_and_nonnull<ReshapeOp, TransposeOp, BroadcastToOp>(def)) {
      worklist.push_back(def->getOperand(0));
      continue;
    }
    auto it = incoming.find(w);
    if (it == incoming.end())
      return {};
    llvm::append_range(worklist, it->second);
  }
  return found;
}

static std::string placement(ArrayType t) {
  if (!t.isPlaced())
    return "unplaced";
  return formatQueue(t.getQueue()) + " " + stringifyUSMKind(t.getKind()).str();
}

namespace {
struct PlacementReportPass
    : public sluice::usm::impl::USMPlacementReportPassBase<
          PlacementReportPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto f : getOperation().getOps<func::FuncOp>())
      if (!f.isExternal())
        report(f);
    markAllAnalysesPreserved();
  }

  void report(func::FuncOp f) {
    AsmState state(f);
    auto name = [&](Value v) {
      std::string s;
      llvm::raw_string_ostream os(s);
      v.printAsOperand(os, state);
      return s;
    };

    // Arrays by queue, in order of appearance.
    llvm::MapVector<Attribute, SmallVector<std::string>> byQueue;
    auto add = [&](Value v) {
      auto t = dyn_cast<ArrayType>(v.getType());
      if (!t)
        return;
      std::string shape;
      for (int64_t d : t.getShape())
        shape += (ShapedType::isDynamic(d) ? "?" : std::to_string(d)) + "x";
      std::string elt;
      llvm::raw_string_ostream eos(elt);
      eos << t.getElementType();
      std::string entry = name(v) + " (" + shape + elt;
      if (t.isPlaced())
        entry += " " + stringifyUSMKind(t.getKind()).str();
      byQueue[t.getQueue()].push_back(entry + ")");
    };
    f->walk<WalkOrder::PreOrder>([&](Operation *op) {
      for (Region &r : op->getRegions())
        for (Block &b : r)
          for (Value a : b.getArguments())
            add(a);
      for (Value r : op->getResults())
        add(r);
    });

    DenseMap<Value, SmallVector<Value>> incoming;
    forEachFlowEdge(f, [&](Value from, Value to, Operation *) {
      incoming[to].push_back(from);
    });

    std::string text;
    llvm::raw_string_ostream os(text);
    os << "placement report for @" << f.getSymName() << "\n";
    for (auto &[queue, arrays] : byQueue) {
      std::string line =
          (cast<QueueAttr>(queue).isUnplaced()
               ? std::string("unplaced")
               : "queue " + formatQueue(cast<QueueAttr>(queue))) +
          ": " + llvm::join(arrays, ", ");
      os << "  " << line << "\n";
      if (remarks)
        f.emitRemark(line);
    }
    unsigned migrations = 0;
    uint64_t staticBytes = 0;
    f.walk([&](ToDeviceOp m) {
      ++migrations;
      ArrayType in = m.getSource().getType(), out = m.getType();
      std::string line = "to_device " + name(m.getResult()) + " = " +
                         name(m.getSource()) + ": " + placement(in) + " -> " +
                         placement(out) + ", ";
      if (out.hasStaticShape()) {
        uint64_t bytes = out.getNumElements() * out.getElementByteWidth();
        staticBytes += bytes;
        line += std::to_string(bytes) + " bytes";
      } else {
        line += "dynamic size";
      }
      os << "  " << line << "\n";
      if (remarks)
        m.emitRemark(line);
      ToDeviceOp back = migratedFrom(m.getSource(), incoming);
      if (!back || !back.getSource().getType().isPlaced() ||
          back.getSource().getType().getQueue() != out.getQueue())
        return;
      std::string flag =
          "round trip: the data came from " + formatQueue(out.getQueue()) +
          " through " + name(back.getResult()) +
          " and nothing was computed on " + formatQueue(in.getQueue());
      os << "    " << flag << "\n";
      if (remarks)
        m.emitWarning(flag).attachNote(back.getLoc())
            << "the first migration, from " << formatQueue(out.getQueue());
    });
    os << "  " << migrations << " migration(s), " << staticBytes
       << " bytes of static size\n";
    if (!remarks)
      llvm::outs() << text;
  }
};
} // namespace
