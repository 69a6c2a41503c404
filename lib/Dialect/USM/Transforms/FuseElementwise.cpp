//===- FuseElementwise.cpp - groups array ops into usm.fused kernels ------===//
//
// Partitions each block's array operations into fusible groups (greedy
// merging of producer-consumer pairs, then of siblings that read the same
// array), recomputes cheap producers in every group that uses them, and
// outlines each group of two or more ops into a `usm.fused` op. The
// description in Passes.td states the policy; docs/fusion.md explains it.
//
//===----------------------------------------------------------------------===//

#include "sluice/Dialect/USM/IR/USMOps.h"
#include "sluice/Dialect/USM/Transforms/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"

namespace sluice::usm {
#define GEN_PASS_DEF_USMFUSEELEMENTWISEPASS
#include "sluice/Dialect/USM/Transforms/Passes.h.inc"
} // namespace sluice::usm

using namespace mlir;
using namespace sluice::usm;

namespace {

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

ArrayType arrayTypeOf(Value v) { return dyn_cast<ArrayType>(v.getType()); }

bool isReduction(Operation *op) {
  return op->hasTrait<sluice::usm::OpTrait::Reduction>();
}

bool isElementwise(Operation *op) {
  return op->hasTrait<sluice::usm::OpTrait::Elementwise>() ||
         isa<BroadcastToOp>(op);
}

/// Array producers without array operands that a kernel computes from
/// scalars: `usm.full` and splat constants.
bool isLeaf(Operation *op) {
  if (isa<FullOp>(op))
    return true;
  if (auto constant = dyn_cast<ConstantOp>(op))
    return constant.getValue().isSplat();
  return false;
}

/// A gather of static shapes joins elementwise groups: its indices are
/// computed in the group and its source, read whole from memory, is an
/// input of the group (never computed in it).
bool isFusibleGather(Operation *op) {
  auto gather = dyn_cast<GatherOp>(op);
  return gather && arrayTypeOf(gather.getResult()).hasStaticShape() &&
         arrayTypeOf(gather.getSource()).hasStaticShape();
}

/// The queue an op runs on; null when its result is not placed.
QueueAttr queueOf(Operation *op) {
  if (op->getNumResults() != 1)
    return {};
  ArrayType type = arrayTypeOf(op->getResult(0));
  return type && type.isPlaced() ? type.getQueue() : QueueAttr();
}

/// Ops that can be part of a fused group.
bool isCandidate(Operation *op) {
  if (!isElementwise(op) && !isReduction(op) && !isLeaf(op) &&
      !isFusibleGather(op))
    return false;
  // Dead ops are left to DCE; unplaced arrays wait for usm-infer-placement.
  if (op->use_empty() || !queueOf(op))
    return false;
  return llvm::all_of(op->getOperands(), [](Value v) {
    ArrayType type = arrayTypeOf(v);
    return !type || type.isPlaced();
  });
}

/// Cheap producers are recomputed in each group that uses them: leaves,
/// broadcasts, and elementwise ops without transcendental math that read at
/// most one array whose elements are no wider than the result's (so reading
/// the operand again costs no more than reading the materialised result).
bool isCheap(Operation *op) {
  if (isLeaf(op) || isa<BroadcastToOp>(op))
    return true;
  if (!op->hasTrait<sluice::usm::OpTrait::Elementwise>())
    return false;
  if (isa<ExpOp, LogOp, SqrtOp, SinOp, CosOp, TanhOp, PowOp, DivOp,
          FloorDivideOp, RemainderOp, TanOp, AsinOp, AcosOp, AtanOp, Atan2Op,
          SinhOp, CoshOp, AsinhOp, AcoshOp, AtanhOp, Exp2Op, Expm1Op, Log2Op,
          Log10Op, Log1pOp, CbrtOp, RsqrtOp, ErfOp, ErfcOp, HypotOp,
          LogaddexpOp, Logaddexp2Op, GcdOp, LcmOp, LdexpOp, FmodOp>(op))
    return false;
  ArrayType result = arrayTypeOf(op->getResult(0));
  unsigned arrays = 0;
  for (Value v : op->getOperands()) {
    ArrayType type = arrayTypeOf(v);
    if (!type)
      continue;
    ++arrays;
    if (type.getElementByteWidth() > result.getElementByteWidth())
      return false;
  }
  return arrays <= 1;
}

/// A key that is equal for two array values only when their shapes are
/// provably equal at run time: the written shape when static; otherwise the
/// value an elementwise chain starts from, followed through ops whose array
/// operands all have the result's written shape and the same key (NumPy
/// broadcasting can only grow a dimension, and an op that combines arrays
/// of equal extents keeps them), `astype` and `to_device`. A reduction
/// with `keepdims` has the key of its input marked as reduced along its
/// axes (sizes 1 there, its input's elsewhere): an op combining values of
/// key K with such values of K reduced keeps K (`x - x.max(axis=1,
/// keepdims=True)` has x's shape).
class ShapeKeys {
public:
  std::string get(Value v) {
    ArrayType type = arrayTypeOf(v);
    if (type.hasStaticShape())
      return "static" + formatShape(type.getShape());
    auto it = memo.find(v);
    if (it != memo.end())
      return it->second;
    std::string key =
        "value" +
        std::to_string(reinterpret_cast<uintptr_t>(v.getAsOpaquePointer()));
    Operation *def = v.getDefiningOp();
    if (def && isReduction(def) && def->hasAttr("keepdims")) {
      std::string axes;
      llvm::raw_string_ostream os(axes);
      def->getAttr("axes").print(os);
      key = std::string(reducedPrefix) + get(def->getOperand(0)) + "|" + axes;
    } else if (def && (def->hasTrait<sluice::usm::OpTrait::Elementwise>() ||
                       isa<ToDeviceOp>(def))) {
      std::optional<std::string> common;
      SmallVector<std::string> reduced; // keys of the other operands
      bool same = true;
      for (Value operand : def->getOperands()) {
        ArrayType operandType = arrayTypeOf(operand);
        if (!operandType)
          continue;
        std::string k = get(operand);
        if (operandType.getShape() != type.getShape()) {
          if (operandType.getRank() != type.getRank() ||
              !StringRef(k).starts_with(reducedPrefix)) {
            same = false;
            break;
          }
          reduced.push_back(std::move(k));
          continue;
        }
        if (common && *common != k) {
          same = false;
          break;
        }
        common = k;
      }
      // Operands of another written shape must be `common` reduced.
      for (const std::string &k : reduced)
        same &= common && StringRef(k).starts_with(std::string(reducedPrefix) +
                                                   *common + "|");
      if (same && common)
        key = *common;
    }
    memo[v] = key;
    return key;
  }

private:
  static constexpr llvm::StringLiteral reducedPrefix = "reduced:";
  DenseMap<Value, std::string> memo;
};

//===----------------------------------------------------------------------===//
// Grouping within one block
//===----------------------------------------------------------------------===//

struct Options {
  bool producers, reductions, epilogues, siblings, multiOutput, recompute,
      report;
  /// Most ops in a group (0: no limit).
  unsigned maxGroupOps;
  /// Most inputs of a group (0: no limit).
  unsigned maxGroupInputs;
};

/// tryMerge's reason when the merged group would exceed maxGroupOps.
constexpr llvm::StringLiteral kTooLarge =
    "the group would exceed the size limit (max-group-ops)";
/// tryMerge's reason when the merged group would exceed maxGroupInputs.
constexpr llvm::StringLiteral kTooManyInputs =
    "the group would exceed the input limit (max-group-inputs)";

/// Whether a split for size refused the edge (recomputation does not cross
/// such a split: a chain of cheap ops would be copied whole into the next
/// group).
bool isSizeLimit(StringRef reason) {
  return reason == kTooLarge || reason == kTooManyInputs;
}

/// Whether a group reading `v` from outside takes it as an input: every
/// value but constant scalars, which the fused op rematerialises.
bool isInput(Value v) {
  if (arrayTypeOf(v))
    return true;
  Operation *def = v.getDefiningOp();
  return !(def && def->getNumOperands() == 0 && matchPattern(v, m_Constant()));
}

using OpSet = SmallPtrSet<Operation *, 16>;

class BlockFusion {
public:
  BlockFusion(Block &block, const Options &options)
      : block(block), options(options) {}

  /// Forms groups, recomputes cheap producers, and outlines every group of
  /// two or more ops into usm.fused. Report lines go to `remarks`.
  void run(unsigned &groupCounter);

private:
  Block &block;
  const Options &options;
  /// Group members, each sorted in block order; empty when merged away.
  std::vector<SmallVector<Operation *>> groups;
  /// What makes merging cheap, per group (see tryMerge): whether no op in
  /// the group is a reduction and every result of the group's ops has one
  /// shape key (then `key` holds it), and whether the group's ops follow
  /// each other in the block with only operand-less ops (constants)
  /// between them.
  struct Summary {
    bool uniform = false;
    std::string key;
    bool contiguous = false;
    /// Whether the group holds a gather, a reduction.
    bool gather = false, reduction = false;
  };
  std::vector<Summary> summaries;
  Summary summarize(Operation *op);
  /// Whether only operand-less, region-less ops lie between `a` and `b`
  /// (a before b in the block).
  static bool adjacent(Operation *a, Operation *b);
  DenseMap<Operation *, unsigned> groupOf;
  /// The inputs of each group (values it reads that no op of it defines),
  /// kept while merging when max-group-inputs is set.
  std::vector<DenseSet<Value>> inputSets;
  /// The number of inputs of the union of groups `a` and `b`; visits the
  /// ops and inputs of the group of fewer ops only.
  size_t mergedInputCount(unsigned a, unsigned b);
  /// Moves the inputs of `gone` into those of `keep` (before groupOf is
  /// updated); same cost.
  void mergeInputSets(unsigned keep, unsigned gone);
  /// Why a producer -> consumer edge was left between groups.
  llvm::MapVector<std::pair<Operation *, Operation *>, std::string> refused;
  ShapeKeys shapeKeys;
  /// Ops of the block whose values reach a reduction through the block's
  /// ops (computed once, when first asked).
  std::optional<OpSet> feedingReductions;
  bool feedsReduction(Operation *op);
  /// Report lines about siblings left apart.
  SmallVector<std::pair<Location, std::string>> siblingNotes;

  Operation *ancestor(Operation *op) {
    return block.findAncestorOpInBlock(*op);
  }
  bool inGroup(Operation *op) { return groupOf.count(op); }

  /// Values defined in `set` that are used outside it, in block order.
  SmallVector<Value> outputsOf(ArrayRef<Operation *> ops, const OpSet &set);
  /// Empty when `ops` (sorted) can run as one kernel; otherwise the reason.
  std::string checkShapes(ArrayRef<Operation *> ops, const OpSet &set);
  /// Empty when `ops` (sorted) can be outlined at the last op without a
  /// cycle and without moving an op with side effects; otherwise the reason.
  std::string checkSchedule(ArrayRef<Operation *> ops, const OpSet &set);
  /// Merges the groups of `a` and `b` when legal; else returns the reason.
  std::string tryMerge(unsigned a, unsigned b);
  /// Why groups `a` and `b` cannot merge because of a gather, or empty.
  std::string gatherConflict(unsigned a, unsigned b);
  void recomputeCheapProducers();
  /// The report line of a group, before it is outlined.
  std::string describeGroup(ArrayRef<Operation *> ops, unsigned id,
                            AsmState &state);
  void outline(ArrayRef<Operation *> ops, const std::string &report);
  void mergeSiblings();
  std::string boundaryReason(Operation *producer, Operation *user);
};

bool BlockFusion::feedsReduction(Operation *op) {
  if (!feedingReductions) {
    feedingReductions.emplace();
    // Users follow their producers in a block: one walk backwards.
    SmallVector<Operation *> ops;
    for (Operation &o : block)
      ops.push_back(&o);
    for (Operation *o : llvm::reverse(ops))
      for (Operation *user : o->getUsers())
        if (Operation *top = ancestor(user);
            top && (isReduction(top) || feedingReductions->contains(top))) {
          feedingReductions->insert(o);
          break;
        }
  }
  return feedingReductions->contains(op);
}

SmallVector<Value> BlockFusion::outputsOf(ArrayRef<Operation *> ops,
                                          const OpSet &set) {
  SmallVector<Value> outputs;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !set.contains(ancestor(user));
          }))
        outputs.push_back(result);
  return outputs;
}

std::string BlockFusion::checkShapes(ArrayRef<Operation *> ops,
                                     const OpSet &set) {
  SmallVector<Value> outputs = outputsOf(ops, set);
  SmallVector<Operation *> reductions;
  for (Operation *op : ops)
    if (isReduction(op))
      reductions.push_back(op);

  if (!options.multiOutput && outputs.size() > 1)
    return "the group would return several results (multi-output is off)";

  if (reductions.empty()) {
    // An elementwise group: every result spans the iteration space.
    for (Value v : outputs)
      if (shapeKeys.get(v) != shapeKeys.get(outputs.front())) {
        ArrayType a = arrayTypeOf(outputs.front()), b = arrayTypeOf(v);
        if (a.getShape() != b.getShape())
          return "the results would have different shapes " +
                 formatShape(a.getShape()) + " and " +
                 formatShape(b.getShape());
        return "the results' dynamic shapes " + formatShape(a.getShape()) +
               " cannot be proven equal";
      }
    return {};
  }

  // A reduction group: prologue ops over the reductions' input shape, the
  // reductions (same input shape, axes and keepdims), and an epilogue over
  // the reduced shape.
  Operation *first = reductions.front();
  Value domain = first->getOperand(0);
  Value reduced = first->getResult(0);
  for (Operation *r : reductions) {
    if (shapeKeys.get(r->getOperand(0)) != shapeKeys.get(domain))
      return "reductions over inputs of shapes " +
             formatShape(arrayTypeOf(domain).getShape()) + " and " +
             formatShape(arrayTypeOf(r->getOperand(0)).getShape()) +
             " that are not provably equal";
    if (r->getAttr("axes") != first->getAttr("axes") ||
        r->hasAttr("keepdims") != first->hasAttr("keepdims"))
      return "reductions over different axes";
  }
  DenseSet<Operation *> afterReduction; // reductions and their epilogue
  for (Operation *op : ops) {
    bool reads = false;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp();
          def && set.contains(def) && afterReduction.contains(def))
        reads = true;
    if (isReduction(op)) {
      if (reads)
        return "a reduction would read another reduction's result";
      afterReduction.insert(op);
      continue;
    }
    if (!reads)
      continue;
    afterReduction.insert(op);
    std::string key = shapeKeys.get(op->getResult(0));
    if (key == shapeKeys.get(reduced))
      continue;
    // A broadcast epilogue (`e / e.sum(axis=1, keepdims=True)`): over the
    // reductions' input shape again, evaluated after them in one more pass
    // that recomputes the prologue rather than storing it. Not for values
    // that feed a reduction: they belong to that reduction's group.
    if (key == shapeKeys.get(domain) && !feedsReduction(op))
      continue;
    return "'" + op->getName().getStringRef().str() +
           "' broadcasts a reduction result to the shape " +
           formatShape(arrayTypeOf(op->getResult(0)).getShape()) +
           (key == shapeKeys.get(domain)
                ? " and feeds a reduction (it goes with that reduction)"
                : " (needs a second pass over the data)");
  }
  for (Value v : outputs) {
    if (afterReduction.contains(v.getDefiningOp()))
      continue;
    if (shapeKeys.get(v) != shapeKeys.get(domain))
      return "a result of shape " + formatShape(arrayTypeOf(v).getShape()) +
             " is not the reduction's iteration space " +
             formatShape(arrayTypeOf(domain).getShape());
  }
  return {};
}

std::string BlockFusion::checkSchedule(ArrayRef<Operation *> ops,
                                       const OpSet &set) {
  // Walk from the first to the last op of the group: ops outside the group
  // that (transitively) use its values must move after the fused op.
  OpSet tainted;
  auto usesTainted = [&](Operation *op) {
    bool found = false;
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (Operation *def = v.getDefiningOp())
          if (Operation *top = ancestor(def);
              top && (set.contains(top) || tainted.contains(top)))
            found = true;
    });
    return found;
  };
  for (Operation *op = ops.front(); op != ops.back(); op = op->getNextNode()) {
    if (set.contains(op))
      continue;
    if (!usesTainted(op))
      continue;
    if (!isMemoryEffectFree(op))
      return "'" + op->getName().getStringRef().str() +
             "' has side effects and uses a value of the group between its "
             "ops";
    tainted.insert(op);
  }
  for (Operation *op : ops)
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        if (Operation *top = ancestor(def); top && tainted.contains(top))
          return "fusing would form a cycle through '" +
                 top->getName().getStringRef().str() + "'";
  return {};
}

std::string BlockFusion::gatherConflict(unsigned a, unsigned b) {
  const Summary &sa = summaries[a], &sb = summaries[b];
  if (!sa.gather && !sb.gather)
    return {};
  if (sa.reduction || sb.reduction)
    return "a gather fuses into elementwise groups only";
  for (unsigned g : {a, b})
    for (Operation *op : groups[g])
      if (auto gather = dyn_cast<GatherOp>(op))
        if (Operation *def = gather.getSource().getDefiningOp();
            def && inGroup(def) && (groupOf[def] == a || groupOf[def] == b))
          return "a gather reads its source whole from memory, after the "
                 "source's kernel";
  return {};
}

BlockFusion::Summary BlockFusion::summarize(Operation *op) {
  Summary summary;
  summary.contiguous = true;
  summary.gather = isa<GatherOp>(op);
  summary.reduction = isReduction(op);
  if (isReduction(op) || op->getNumResults() != 1)
    return summary;
  summary.uniform = true;
  summary.key = shapeKeys.get(op->getResult(0));
  return summary;
}

bool BlockFusion::adjacent(Operation *a, Operation *b) {
  for (Operation *op = a->getNextNode(); op != b; op = op->getNextNode()) {
    if (!op || op->getNumOperands() || op->getNumRegions())
      return false;
  }
  return true;
}

size_t BlockFusion::mergedInputCount(unsigned a, unsigned b) {
  unsigned small = groups[a].size() <= groups[b].size() ? a : b;
  unsigned large = small == a ? b : a;
  const DenseSet<Value> &smallInputs = inputSets[small];
  const DenseSet<Value> &largeInputs = inputSets[large];
  size_t count = largeInputs.size();
  // Inputs of the large group that the small group defines.
  for (Operation *op : groups[small])
    for (Value result : op->getResults())
      if (largeInputs.contains(result))
        --count;
  // Inputs of the small group that are neither inputs of the large group
  // nor defined by it.
  for (Value v : smallInputs) {
    if (largeInputs.contains(v))
      continue;
    Operation *def = v.getDefiningOp();
    if (def) {
      auto it = groupOf.find(def);
      if (it != groupOf.end() && it->second == large)
        continue;
    }
    ++count;
  }
  return count;
}

void BlockFusion::mergeInputSets(unsigned keep, unsigned gone) {
  if (!options.maxGroupInputs)
    return;
  unsigned small = groups[keep].size() <= groups[gone].size() ? keep : gone;
  unsigned large = small == keep ? gone : keep;
  DenseSet<Value> smallInputs = std::move(inputSets[small]);
  DenseSet<Value> merged = std::move(inputSets[large]);
  for (Operation *op : groups[small])
    for (Value result : op->getResults())
      merged.erase(result);
  for (Value v : smallInputs) {
    Operation *def = v.getDefiningOp();
    if (def) {
      auto it = groupOf.find(def);
      if (it != groupOf.end() && it->second == large)
        continue;
    }
    merged.insert(v);
  }
  inputSets[keep] = std::move(merged);
  inputSets[gone] = {};
}

std::string BlockFusion::tryMerge(unsigned a, unsigned b) {
  if (options.maxGroupOps &&
      groups[a].size() + groups[b].size() > options.maxGroupOps)
    return kTooLarge.str();
  if (options.maxGroupInputs && mergedInputCount(a, b) > options.maxGroupInputs)
    return kTooManyInputs.str();
  if (queueOf(groups[a].front()) != queueOf(groups[b].front()))
    return "different queues " + formatQueue(queueOf(groups[a].front())) +
           " and " + formatQueue(queueOf(groups[b].front()));
  if (std::string why = gatherConflict(a, b); !why.empty())
    return why;
  // The fast path, which keeps long chains linear: two elementwise groups
  // whose results all have one shape key, each contiguous and next to the
  // other. Every output of the merged group then has that key (checkShapes
  // passes), and no op between its ops reads a value (checkSchedule
  // passes). The smaller group's ops join the larger group.
  Summary &sa = summaries[a], &sb = summaries[b];
  if (options.multiOutput && sa.uniform && sb.uniform && sa.key == sb.key &&
      sa.contiguous && sb.contiguous) {
    bool aFirst = groups[a].back()->isBeforeInBlock(groups[b].front());
    Operation *firstBack = aFirst ? groups[a].back() : groups[b].back();
    Operation *secondFront = aFirst ? groups[b].front() : groups[a].front();
    if (firstBack->isBeforeInBlock(secondFront) &&
        adjacent(firstBack, secondFront)) {
      unsigned keep = groups[a].size() >= groups[b].size() ? a : b;
      unsigned gone = keep == a ? b : a;
      mergeInputSets(keep, gone);
      for (Operation *op : groups[gone])
        groupOf[op] = keep;
      bool keepFirst = (keep == a) == aFirst;
      if (keepFirst)
        groups[keep].append(groups[gone].begin(), groups[gone].end());
      else
        groups[keep].insert(groups[keep].begin(), groups[gone].begin(),
                            groups[gone].end());
      groups[gone].clear();
      summaries[keep].gather |= summaries[gone].gather;
      return {};
    }
  }
  SmallVector<Operation *> merged(groups[a]);
  merged.append(groups[b].begin(), groups[b].end());
  llvm::sort(merged,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  OpSet set(merged.begin(), merged.end());
  std::string reason = checkShapes(merged, set);
  if (reason.empty())
    reason = checkSchedule(merged, set);
  if (!reason.empty())
    return reason;
  mergeInputSets(a, b);
  for (Operation *op : groups[b])
    groupOf[op] = a;
  groups[a] = std::move(merged);
  groups[b].clear();
  // The merged group takes the slow path from now on, unless it is still
  // uniform and contiguous.
  Summary summary{sa.uniform && sb.uniform && sa.key == sb.key, sa.key, true,
                  sa.gather || sb.gather, sa.reduction || sb.reduction};
  for (size_t i = 1; summary.contiguous && i < groups[a].size(); ++i)
    summary.contiguous = adjacent(groups[a][i - 1], groups[a][i]);
  summaries[a] = std::move(summary);
  return {};
}

/// Moves `def` (a clone made for recomputation: pure) and the clones it
/// uses up before `user` where it comes after it. Clones of a chain are made
/// consumer first, each at the group's first op, so a clone can come after
/// the clone that uses it; originals never need to move (a clone's
/// operands are its original's, which dominate every user).
static void hoistBefore(Operation *def, Operation *user) {
  if (def->getBlock() != user->getBlock() || def->isBeforeInBlock(user))
    return;
  def->moveBefore(user);
  for (Value v : def->getOperands())
    if (Operation *d = v.getDefiningOp())
      hoistBefore(d, def);
}

void BlockFusion::recomputeCheapProducers() {
  // Originals left without uses are erased at the end: `refused` is keyed
  // by op addresses, which a clone made later could reuse.
  SmallVector<Operation *> dead;
  for (unsigned id = 0; id < groups.size(); ++id) {
    if (groups[id].empty())
      continue;
    // Producer value -> its clone inside this group.
    DenseMap<Value, Value> clones;
    SmallVector<Operation *> worklist(groups[id]);
    while (!worklist.empty()) {
      Operation *user = worklist.pop_back_val();
      for (OpOperand &use : user->getOpOperands()) {
        Operation *def = use.get().getDefiningOp();
        if (!def || def->getBlock() != &block || !inGroup(def) ||
            groupOf[def] == id || !isCheap(def) ||
            queueOf(def) != queueOf(user))
          continue;
        // A gather's source stays an input of the group (read whole).
        if (isa<GatherOp>(user) && use.getOperandNumber() == 0)
          continue;
        // Recomputing is producer-consumer fusion: it obeys those options,
        // and the size limits: it does not cross a split for size (else a
        // split chain of cheap ops would be recomputed whole in the next
        // group), and copies no op into a group of max-group-ops ops (the
        // producer is then a result of its own group).
        if (isReduction(user) ? !options.reductions : !options.producers)
          continue;
        if (auto it = refused.find({def, user});
            it != refused.end() && isSizeLimit(it->second))
          continue;
        Value &clone = clones[use.get()];
        if (!clone && options.maxGroupOps &&
            groups[id].size() >= options.maxGroupOps) {
          clones.erase(use.get());
          continue;
        }
        if (!clone) {
          OpBuilder builder(groups[id].front());
          // Place the clone right before the group's first op: its operands
          // dominate `def`, which comes before every user.
          if (def->isBeforeInBlock(groups[id].front()))
            builder.setInsertionPoint(groups[id].front());
          else
            builder.setInsertionPoint(user);
          Operation *copy = builder.clone(*def);
          clone = copy->getResult(0);
          groupOf[copy] = id;
          groups[id].push_back(copy);
          worklist.push_back(copy);
        }
        Operation *original = def;
        use.set(clone);
        if (original->use_empty()) {
          auto &owner = groups[groupOf[original]];
          llvm::erase(owner, original);
          groupOf.erase(original);
          // Its operands lose this use now (so a producer it alone used
          // can go too); the op itself goes at the end.
          original->dropAllReferences();
          dead.push_back(original);
        }
      }
    }
    for (Operation *op : llvm::to_vector(groups[id]))
      for (Value v : op->getOperands())
        if (Operation *d = v.getDefiningOp())
          hoistBefore(d, op);
    llvm::sort(groups[id], [](Operation *x, Operation *y) {
      return x->isBeforeInBlock(y);
    });
  }
  for (Operation *op : dead)
    op->erase();
}

std::string BlockFusion::boundaryReason(Operation *producer, Operation *user) {
  auto it = refused.find({producer, user});
  if (it != refused.end())
    return it->second;
  StringRef name = user->getName().getStringRef();
  if (isa<ToDeviceOp>(user))
    return "usm.to_device changes placement: the migration is a copy "
           "between kernels";
  if (isa<ReshapeOp, TransposeOp>(user))
    return "'" + name.str() + "' reindexes the array and is not fused";
  if (!isMemoryEffectFree(user))
    return "'" + name.str() + "' has side effects";
  if (user->getNumRegions())
    return "'" + name.str() +
           "' holds other blocks; each block fuses on its "
           "own";
  if (!isCandidate(user))
    return "'" + name.str() + "' is not an operation that fuses";
  if (isReduction(producer) && isReduction(user))
    return "a reduction would read another reduction's result";
  return "fusion of this kind is off";
}

/// Bytes of a value for the report; nullopt when its shape is dynamic.
std::optional<int64_t> bytesOf(Value v) {
  ArrayType type = arrayTypeOf(v);
  if (!type)
    return 0;
  if (!type.hasStaticShape())
    return std::nullopt;
  return type.getNumElements() * type.getElementByteWidth();
}

struct ByteCount {
  int64_t known = 0;
  unsigned dynamic = 0;
  void add(Value v) {
    if (std::optional<int64_t> b = bytesOf(v))
      known += *b;
    else
      ++dynamic;
  }
  std::string str() const {
    std::string arrays =
        std::to_string(dynamic) + " dynamic array" + (dynamic == 1 ? "" : "s");
    if (dynamic && !known)
      return arrays;
    std::string s = std::to_string(known) + " B";
    if (dynamic)
      s += " + " + arrays;
    return s;
  }
};

std::string describe(Value v, AsmState &state) {
  std::string s;
  llvm::raw_string_ostream os(s);
  v.printAsOperand(os, state);
  os << " " << v.getType();
  if (ArrayType type = arrayTypeOf(v)) {
    if (std::optional<int64_t> b = bytesOf(v))
      os << " (" << *b << " B)";
    else
      os << " (dynamic)";
  }
  return s;
}

/// Values a group reads from outside: its inputs, and the constant scalars
/// it rematerialises inside.
static void collectInputs(ArrayRef<Operation *> ops, const OpSet &set,
                          llvm::SetVector<Value> &inputs,
                          SmallVectorImpl<Operation *> &scalarConstants) {
  SmallPtrSet<Operation *, 16> seen;
  for (Operation *op : ops)
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (def && set.contains(def))
        continue;
      if (!arrayTypeOf(v) && def && def->getNumOperands() == 0 &&
          matchPattern(v, m_Constant())) {
        if (seen.insert(def).second)
          scalarConstants.push_back(def);
        continue;
      }
      inputs.insert(v);
    }
}

std::string BlockFusion::describeGroup(ArrayRef<Operation *> ops, unsigned id,
                                       AsmState &state) {
  OpSet set(ops.begin(), ops.end());
  llvm::SetVector<Value> inputs;
  SmallVector<Operation *> scalarConstants;
  collectInputs(ops, set, inputs, scalarConstants);
  SmallVector<Value> outputs = outputsOf(ops, set);
  std::string report;
  llvm::raw_string_ostream os(report);
  ByteCount reads, writes, unfused;
  for (Value v : inputs)
    reads.add(v);
  for (Value v : outputs)
    writes.add(v);
  for (Operation *op : ops) {
    for (Value v : op->getOperands())
      unfused.add(v);
    unfused.add(op->getResult(0));
  }
  ByteCount total = reads;
  total.known += writes.known;
  total.dynamic += writes.dynamic;
  os << "fused group #" << id << " on queue "
     << formatQueue(queueOf(ops.front())) << ": " << ops.size() << " ops (";
  llvm::interleaveComma(ops, os, [&](Operation *op) { os << op->getName(); });
  os << "); inputs: ";
  llvm::interleaveComma(inputs, os, [&](Value v) { os << describe(v, state); });
  os << "; outputs: ";
  llvm::interleaveComma(outputs, os,
                        [&](Value v) { os << describe(v, state); });
  os << "; compulsory bytes: " << total.str() << " (read " << reads.str()
     << ", write " << writes.str() << "); the ops unfused move "
     << unfused.str();
  return report;
}

void BlockFusion::outline(ArrayRef<Operation *> ops,
                          const std::string &report) {
  OpSet set(ops.begin(), ops.end());
  Operation *last = ops.back();

  // Pure ops between the group's ops that use its values move after it
  // (checkSchedule made sure they are pure and form no cycle).
  SmallVector<Operation *> toMove;
  {
    OpSet moved;
    for (Operation *op = ops.front(); op != last; op = op->getNextNode()) {
      if (set.contains(op))
        continue;
      bool uses = false;
      op->walk([&](Operation *nested) {
        for (Value v : nested->getOperands())
          if (Operation *def = v.getDefiningOp())
            if (Operation *top = ancestor(def);
                top && (set.contains(top) || moved.contains(top)))
              uses = true;
      });
      if (uses) {
        moved.insert(op);
        toMove.push_back(op);
      }
    }
  }

  llvm::SetVector<Value> inputs;
  SmallVector<Operation *> scalarConstants;
  collectInputs(ops, set, inputs, scalarConstants);
  SmallVector<Value> outputs = outputsOf(ops, set);
  if (outputs.empty())
    return;

  OpBuilder builder(last->getContext());
  builder.setInsertionPointAfter(last);
  SmallVector<Location> locs;
  for (Operation *op : ops)
    locs.push_back(op->getLoc());
  Location loc = builder.getFusedLoc(locs);
  SmallVector<Type> resultTypes;
  for (Value v : outputs)
    resultTypes.push_back(v.getType());
  auto fused = FusedOp::create(builder, loc, resultTypes, queueOf(ops.front()),
                               inputs.getArrayRef());
  Block *body = builder.createBlock(&fused.getBody());
  IRMapping mapping;
  for (Value v : inputs)
    mapping.map(v, body->addArgument(v.getType(), v.getLoc()));
  builder.setInsertionPointToStart(body);
  for (Operation *constant : scalarConstants)
    builder.clone(*constant, mapping);
  for (Operation *op : ops)
    builder.clone(*op, mapping);
  SmallVector<Value> yielded;
  for (Value v : outputs)
    yielded.push_back(mapping.lookup(v));
  YieldOp::create(builder, loc, yielded);

  for (auto [v, result] : llvm::zip(outputs, fused.getResults()))
    v.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !set.contains(ancestor(use.getOwner()));
    });
  Operation *after = fused;
  for (Operation *op : toMove) {
    op->moveAfter(after);
    after = op;
  }
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  for (Operation *constant : scalarConstants)
    if (constant->use_empty())
      constant->erase();
  if (!report.empty())
    fused.emitRemark(report);
}

void BlockFusion::mergeSiblings() {
  // Arrays read by ops of two or more groups, in program order.
  llvm::SetVector<Value> shared;
  for (Operation &op : block)
    if (inGroup(&op))
      for (Value v : op.getOperands())
        if (arrayTypeOf(v))
          shared.insert(v);
  for (Value v : shared) {
    SmallVector<Operation *> readers;
    for (Operation *user : v.getUsers())
      if (Operation *top = ancestor(user); top && inGroup(top))
        readers.push_back(top);
    llvm::sort(readers, [](Operation *x, Operation *y) {
      return x->isBeforeInBlock(y);
    });
    Operation *def = v.getDefiningOp();
    for (unsigned i = 1; i < readers.size(); ++i) {
      unsigned a = groupOf[readers.front()], b = groupOf[readers[i]];
      if (a == b)
        continue;
      // A producer and its consumer are not siblings: that edge was decided.
      if (def && inGroup(def) && (groupOf[def] == a || groupOf[def] == b))
        continue;
      std::string reason = tryMerge(a, b);
      if (!reason.empty() && options.report)
        siblingNotes.push_back(
            {readers[i]->getLoc(),
             "siblings not fused: '" +
                 readers.front()->getName().getStringRef().str() + "' and '" +
                 readers[i]->getName().getStringRef().str() +
                 "' read the same array but " + reason});
    }
  }
}

void BlockFusion::run(unsigned &groupCounter) {
  for (Operation &op : block)
    if (isCandidate(&op)) {
      groupOf[&op] = groups.size();
      groups.push_back({&op});
      summaries.push_back(summarize(&op));
      inputSets.emplace_back();
      if (options.maxGroupInputs)
        for (Value v : op.getOperands())
          if (isInput(v))
            inputSets.back().insert(v);
    }
  if (groups.empty())
    return;

  // Producer-consumer merging, in program order.
  for (Operation &consumer : block) {
    if (!inGroup(&consumer))
      continue;
    for (Value v : consumer.getOperands()) {
      Operation *producer = v.getDefiningOp();
      if (!producer || producer->getBlock() != &block || !inGroup(producer))
        continue;
      unsigned p = groupOf[producer], c = groupOf[&consumer];
      if (p == c)
        continue;
      std::string reason;
      if (isReduction(producer)) {
        if (isReduction(&consumer))
          reason = "a reduction would read another reduction's result";
        else if (!options.epilogues)
          reason = "fusing reduction results into elementwise ops is off";
      } else if (isReduction(&consumer)) {
        if (!options.reductions)
          reason = "fusing producers into reductions is off";
      } else if (!options.producers) {
        reason = "producer-consumer fusion is off";
      }
      if (reason.empty())
        reason = tryMerge(c, p);
      if (!reason.empty())
        refused[{producer, &consumer}] = reason;
    }
  }

  if (options.siblings)
    mergeSiblings();

  if (options.recompute)
    recomputeCheapProducers();

  // Boundaries left, for the report (before outlining moves ops).
  SmallVector<std::pair<Location, std::string>> boundaries;
  if (options.report) {
    for (Operation &producer : block) {
      bool migration = isa<ToDeviceOp>(producer);
      if (!inGroup(&producer) && !migration)
        continue;
      for (OpOperand &use : producer.getUses()) {
        Operation *user = use.getOwner();
        Operation *top = ancestor(user);
        if (!top || top->hasTrait<mlir::OpTrait::IsTerminator>())
          continue;
        if (migration) {
          if (inGroup(top))
            boundaries.push_back(
                {user->getLoc(),
                 "fusion boundary: 'usm.to_device' -> '" +
                     user->getName().getStringRef().str() +
                     "': the input is migrated by usm.to_device, a copy "
                     "between kernels"});
          continue;
        }
        if (inGroup(top) && groupOf[top] == groupOf[&producer])
          continue;
        boundaries.push_back(
            {user->getLoc(),
             "fusion boundary: '" + producer.getName().getStringRef().str() +
                 "' -> '" + user->getName().getStringRef().str() +
                 "': " + boundaryReason(&producer, top)});
      }
    }
  }

  Operation *scope = block.getParentOp();
  if (!scope->hasTrait<mlir::OpTrait::IsIsolatedFromAbove>())
    scope = scope->getParentWithTrait<mlir::OpTrait::IsIsolatedFromAbove>();
  AsmState state(scope);
  // Number and outline groups in program order of their first ops.
  SmallVector<SmallVector<Operation *>> toOutline;
  for (auto &ops : groups)
    if (ops.size() >= 2)
      toOutline.push_back(ops);
  llvm::sort(toOutline, [](const auto &x, const auto &y) {
    return x.front()->isBeforeInBlock(y.front());
  });
  SmallVector<std::string> reports;
  for (auto &ops : toOutline)
    reports.push_back(options.report ? describeGroup(ops, groupCounter++, state)
                                     : std::string());
  for (auto [ops, report] : llvm::zip(toOutline, reports))
    outline(ops, report);
  for (auto &[loc, message] : siblingNotes)
    mlir::emitRemark(loc, message);
  for (auto &[loc, message] : boundaries)
    mlir::emitRemark(loc, message);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct USMFuseElementwisePass
    : public sluice::usm::impl::USMFuseElementwisePassBase<
          USMFuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    Options opts{fuseProducers, fuseReductions, fuseEpilogues,
                 fuseSiblings,  multiOutput,    recompute,
                 report,        maxGroupOps,    maxGroupInputs};
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa<FusedOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    // Group numbers restart in each function-like op.
    DenseMap<Operation *, unsigned> counters;
    for (Block *block : blocks) {
      Operation *scope = block->getParentOp();
      if (!scope->hasTrait<mlir::OpTrait::IsIsolatedFromAbove>())
        scope = scope->getParentWithTrait<mlir::OpTrait::IsIsolatedFromAbove>();
      BlockFusion(*block, opts).run(counters[scope]);
    }
  }
};

} // namespace
