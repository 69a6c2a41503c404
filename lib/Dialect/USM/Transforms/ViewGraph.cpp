//===- ViewGraph.cpp - a function's array graph as Graphviz DOT -----------===//
//
// One digraph per function: array arguments and array ops as nodes filled
// by queue, array values as edges, usm.fused bodies as clusters, and
// usm.to_device edges thick and red.
//
//===----------------------------------------------------------------------===//

#include "sluice/Dialect/USM/IR/USMOps.h"
#include "sluice/Dialect/USM/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace sluice::usm {
#define GEN_PASS_DEF_USMVIEWGRAPHPASS
#include "sluice/Dialect/USM/Transforms/Passes.h.inc"
} // namespace sluice::usm

using namespace mlir;
using namespace sluice::usm;

namespace {

/// Fill colours for queues, in order of first appearance.
constexpr const char *kPalette[] = {"#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6",
                                    "#fb9a99", "#ffff99", "#8dd3c7", "#d9d9d9"};

std::string escape(StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

/// "4x?xf32", or "f32" for rank 0.
std::string shortType(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto array = dyn_cast<ArrayType>(type)) {
    for (int64_t d : array.getShape()) {
      if (ShapedType::isDynamic(d))
        os << "?";
      else
        os << d;
      os << "x";
    }
    os << array.getElementType();
  } else {
    os << type;
  }
  return s;
}

std::string queueLabel(QueueAttr queue) {
  if (queue.isUnplaced())
    return "unplaced (?)";
  std::string s = queue.getDevice().str();
  if (!queue.isCanonical())
    s += " (" + queue.getName().str() + ")";
  return s;
}

class GraphWriter {
public:
  GraphWriter(raw_ostream &os) : os(os) {}

  void write(FunctionOpInterface fn) {
    os << "digraph \"" << escape(fn.getName()) << "\" {\n"
       << "  rankdir=TB;\n"
       << "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\","
          " fillcolor=white];\n"
       << "  edge [fontname=\"Helvetica\", fontsize=10];\n";
    Block &entry = fn.getFunctionBody().front();
    for (BlockArgument arg : entry.getArguments()) {
      auto type = dyn_cast<ArrayType>(arg.getType());
      if (!type)
        continue;
      std::string id = "arg" + std::to_string(arg.getArgNumber());
      sources[arg] = id;
      os << "  " << id << " [shape=ellipse, label=\"%arg" << arg.getArgNumber()
         << "\\n"
         << shortType(type) << "\"" << fill(type.getQueue()) << "];\n";
    }
    for (Operation &op : entry)
      visit(op, "  ");
    for (const std::string &edge : edges)
      os << edge;
    if (!queues.empty()) {
      os << "  subgraph cluster_legend {\n    label=\"queues\";\n"
         << "    style=dashed;\n";
      for (auto [queue, index] : queues)
        os << "    legend" << index << " [label=\"" << escape(queueLabel(queue))
           << "\", fillcolor=\"" << kPalette[index % std::size(kPalette)]
           << "\"];\n";
      os << "  }\n";
    }
    os << "}\n";
  }

private:
  raw_ostream &os;
  llvm::MapVector<QueueAttr, unsigned> queues;
  DenseMap<Value, std::string> sources;
  /// Nodes that are usm.to_device: their edges are highlighted.
  std::vector<std::string> migrationIds;
  std::vector<std::string> edges;
  unsigned nextNode = 0, nextCluster = 0;

  std::string fill(QueueAttr queue) {
    if (!queue)
      return {};
    unsigned index = queues.insert({queue, queues.size()}).first->second;
    return std::string(", fillcolor=\"") +
           kPalette[index % std::size(kPalette)] + "\"";
  }

  static QueueAttr queueOf(Operation &op) {
    for (Type type : op.getResultTypes())
      if (auto array = dyn_cast<ArrayType>(type))
        return array.getQueue();
    for (Type type : op.getOperandTypes())
      if (auto array = dyn_cast<ArrayType>(type))
        return array.getQueue();
    return {};
  }

  static bool touchesArrays(Operation &op) {
    bool found = false;
    op.walk([&](Operation *nested) {
      for (Type type : nested->getOperandTypes())
        found |= isa<ArrayType>(type);
      for (Type type : nested->getResultTypes())
        found |= isa<ArrayType>(type);
    });
    return found;
  }

  /// Adds edges from the producers of `op`'s array operands (including
  /// those used in its regions) to node `id`.
  void addEdges(Operation &op, const std::string &id, bool toDevice) {
    llvm::SetVector<Value> operands;
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (isa<ArrayType>(v.getType()))
          operands.insert(v);
    });
    for (Value v : operands) {
      auto it = sources.find(v);
      if (it == sources.end())
        continue;
      std::string attrs = "label=\"" + shortType(v.getType()) + "\"";
      bool fromMigration = llvm::is_contained(migrationIds, it->second);
      if (toDevice || fromMigration)
        attrs += ", color=red, fontcolor=red, penwidth=3";
      edges.push_back("  " + it->second + " -> " + id + " [" + attrs + "];\n");
    }
  }

  void visit(Operation &op, StringRef indent) {
    if (auto fused = dyn_cast<FusedOp>(op)) {
      visitFused(fused, indent);
      return;
    }
    if (!touchesArrays(op))
      return;
    std::string id = "n" + std::to_string(nextNode++);
    bool toDevice = isa<ToDeviceOp>(op);
    std::string label = escape(op.getName().getStringRef());
    if (op.getNumResults() == 1 && isa<ArrayType>(op.getResult(0).getType()))
      label += "\\n" + shortType(op.getResult(0).getType());
    os << indent << id << " [label=\"" << label << "\"";
    if (op.hasTrait<mlir::OpTrait::IsTerminator>())
      os << ", shape=plain";
    else
      os << fill(queueOf(op));
    if (toDevice)
      os << ", color=red, penwidth=3, fontcolor=red";
    os << "];\n";
    addEdges(op, id, toDevice);
    if (toDevice)
      migrationIds.push_back(id);
    for (Value result : op.getResults())
      sources[result] = id;
  }

  void visitFused(FusedOp fused, StringRef indent) {
    Block &body = fused.getBodyBlock();
    for (auto [arg, input] : llvm::zip(body.getArguments(), fused.getInputs()))
      if (auto it = sources.find(input); it != sources.end())
        sources[arg] = it->second;
    os << indent << "subgraph cluster_fused" << nextCluster << " {\n"
       << indent << "  label=\"usm.fused #" << nextCluster << "\\n"
       << escape(queueLabel(fused.getQueue())) << "\";\n"
       << indent << "  style=\"rounded,bold\";\n"
       << indent << "  color=\"#555555\";\n";
    ++nextCluster;
    std::string inner = (indent + "  ").str();
    for (Operation &op : body.without_terminator())
      visit(op, inner);
    os << indent << "}\n";
    for (auto [result, yielded] :
         llvm::zip(fused.getResults(), fused.getYield().getValues()))
      if (auto it = sources.find(yielded); it != sources.end())
        sources[result] = it->second;
  }
};

struct USMViewGraphPass
    : public sluice::usm::impl::USMViewGraphPassBase<USMViewGraphPass> {
  using Base::Base;

  void runOnOperation() override {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      getOperation().emitError("usm-view-graph: ") << error;
      return signalPassFailure();
    }
    getOperation().walk([&](FunctionOpInterface fn) {
      if (!fn.isExternal())
        GraphWriter(file->os()).write(fn);
    });
    file->keep();
    markAllAnalysesPreserved();
  }
};

} // namespace
