//===- PlacementAnalysis.cpp - whole-program placement of arrays ----------===//
//
// Values that must share a queue form groups (union-find): the array
// operands and results of one op, and the values joined by block arguments,
// region yields, branches and returns. Placed members pin their group to a
// queue; two pins on different queues are a compute-follows-data violation,
// reported at the op that joins them. Unplaced members take their group's
// placement. Calls connect functions through their signatures: a placed
// parameter pins its argument, and a call passing placed arrays to unplaced
// parameters is redirected to a clone of the callee specialised for them.
//
//===----------------------------------------------------------------------===//

#include "PlacementAnalysis.h"
#include "sluice/Dialect/USM/IR/USMOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace sluice::usm;

static bool isArray(Value v) { return isa<ArrayType>(v.getType()); }

void sluice::usm::forEachFlowEdge(
    Operation *root, function_ref<void(Value, Value, Operation *)> fn) {
  auto connect = [&](ValueRange from, ValueRange to, Operation *through) {
    for (auto [f, t] : llvm::zip(from, to))
      if (isArray(f) && isArray(t))
        fn(f, t, through);
  };
  root->walk([&](Operation *op) {
    if (auto branch = dyn_cast<BranchOpInterface>(op)) {
      for (unsigned i = 0, e = op->getNumSuccessors(); i < e; ++i) {
        SuccessorOperands operands = branch.getSuccessorOperands(i);
        Block *dest = op->getSuccessor(i);
        connect(
            operands.getForwardedOperands(),
            dest->getArguments().drop_front(operands.getProducedOperandCount()),
            op);
      }
    }
    auto regionOp = dyn_cast<RegionBranchOpInterface>(op);
    if (!regionOp)
      return;
    SmallVector<RegionSuccessor> successors;
    regionOp.getSuccessorRegions(RegionBranchPoint::parent(), successors);
    for (RegionSuccessor &s : successors)
      connect(regionOp.getEntrySuccessorOperands(s), s.getSuccessorInputs(),
              op);
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        auto term =
            dyn_cast<RegionBranchTerminatorOpInterface>(block.getTerminator());
        if (!term)
          continue;
        successors.clear();
        regionOp.getSuccessorRegions(RegionBranchPoint(term), successors);
        for (RegionSuccessor &s : successors)
          connect(term.getSuccessorOperands(s), s.getSuccessorInputs(), op);
      }
  });
}

namespace {

/// Where a group got its queue, for the notes of an error.
struct Pin {
  QueueAttr queue;
  USMKind kind;
  Location loc;
  std::string what;
};

/// What one group of values knows.
struct Group {
  std::optional<Pin> pin;
  /// The largest kind of the results its unplaced members contribute to.
  std::optional<USMKind> demand;
  /// A usm.to_device target of an unplaced member: used when nothing pins.
  std::optional<Pin> weak;
  bool weakAmbiguous = false;
};

static USMKind maxKind(USMKind a, USMKind b) {
  return static_cast<unsigned>(a) > static_cast<unsigned>(b) ? a : b;
}

static std::string describe(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *parent = arg.getOwner()->getParentOp();
    std::string n = std::to_string(arg.getArgNumber());
    if (auto f = dyn_cast_or_null<func::FuncOp>(parent);
        f && arg.getOwner()->isEntryBlock())
      return "argument #" + n + " of @" + f.getSymName().str();
    return "argument #" + n + " of a block in '" +
           parent->getName().getStringRef().str() + "'";
  }
  auto result = cast<OpResult>(v);
  Operation *op = result.getOwner();
  std::string name = "'" + op->getName().getStringRef().str() + "'";
  if (op->getNumResults() == 1)
    return "this " + name;
  return "result #" + std::to_string(result.getResultNumber()) + " of this " +
         name;
}

static Pin pinOf(Value v) {
  auto t = cast<ArrayType>(v.getType());
  return Pin{t.getQueue(), t.getKind(), v.getLoc(), describe(v)};
}

/// Union-find over the array values of one function.
class Groups {
public:
  unsigned node(Value v) {
    auto [it, inserted] = ids.try_emplace(v, parent.size());
    if (inserted) {
      parent.push_back(parent.size());
      groups.emplace_back();
      values.push_back(v);
      if (cast<ArrayType>(v.getType()).isPlaced())
        groups.back().pin = pinOf(v);
    }
    return it->second;
  }
  unsigned find(unsigned n) {
    while (parent[n] != n)
      n = parent[n] = parent[parent[n]];
    return n;
  }
  Group &of(Value v) { return groups[find(node(v))]; }

  /// Merges the groups of `a` and `b`; on a pin conflict calls `conflict`
  /// with both pins and keeps the groups apart.
  bool unite(Value a, Value b,
             function_ref<void(const Pin &, const Pin &)> conflict) {
    unsigned ra = find(node(a)), rb = find(node(b));
    if (ra == rb)
      return true;
    Group &ga = groups[ra], &gb = groups[rb];
    if (ga.pin && gb.pin && ga.pin->queue != gb.pin->queue) {
      conflict(*ga.pin, *gb.pin);
      return false;
    }
    if (!ga.pin)
      ga.pin = gb.pin;
    if (gb.demand)
      ga.demand = ga.demand ? maxKind(*ga.demand, *gb.demand) : *gb.demand;
    if (gb.weak) {
      if (ga.weak &&
          (ga.weak->queue != gb.weak->queue || ga.weak->kind != gb.weak->kind))
        ga.weakAmbiguous = true;
      else if (!ga.weak)
        ga.weak = gb.weak;
    }
    ga.weakAmbiguous |= gb.weakAmbiguous;
    parent[rb] = ra;
    return true;
  }

  llvm::ArrayRef<Value> allValues() const { return values; }

private:
  DenseMap<Value, unsigned> ids;
  SmallVector<unsigned> parent;
  SmallVector<Group> groups;
  SmallVector<Value> values;
};

class Solver {
public:
  Solver(ModuleOp module, const PlacementOptions &options)
      : module(module), symbols(module), options(options) {}

  LogicalResult run();

private:
  /// Solves one function; rewrites its unplaced types when inferring.
  void solve(func::FuncOp f, bool useDefaults);
  // The phases of solve: constraints from each kind of op, then the
  // placements and the signature.
  void addMigration(ToDeviceOp toDevice, Groups &groups);
  void addCall(func::CallOp call, Groups &groups);
  void addCombiningOp(Operation *op, Groups &groups);
  void addFlowEdges(func::FuncOp f, Groups &groups);
  void addReturns(func::FuncOp f, MutableArrayRef<func::ReturnOp> returns,
                  Groups &groups);
  void placeValues(Groups &groups, bool useDefaults);
  void updateSignature(func::FuncOp f, MutableArrayRef<func::ReturnOp> returns);
  void syncCallResults(func::FuncOp f);
  void specialiseCalls(func::FuncOp f);
  void reportUnresolved(func::FuncOp f);
  void checkCalls(func::FuncOp f);
  void finishSpecialisations();

  /// Reports a conflict once per (op, key).
  void conflict(Operation *op, unsigned key, const Twine &message, const Pin &a,
                const Pin &b);
  std::optional<Pin> resolve(const Group &g, bool useDefaults);

  func::FuncOp origin(func::FuncOp f) {
    auto it = origins.find(f);
    return it == origins.end() ? f : it->second;
  }
  SmallVector<func::FuncOp> functions() {
    SmallVector<func::FuncOp> fs;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal())
        fs.push_back(f);
    return fs;
  }

  ModuleOp module;
  SymbolTable symbols;
  const PlacementOptions &options;
  bool changed = false;
  bool failed = false;
  DenseSet<std::pair<Operation *, unsigned>> reported;
  DenseMap<func::FuncOp, func::FuncOp> origins;
  DenseMap<std::pair<Operation *, Type>, func::FuncOp> specialisations;
  llvm::SetVector<Operation *> specialisedOrigins;
};

} // namespace

void Solver::conflict(Operation *op, unsigned key, const Twine &message,
                      const Pin &a, const Pin &b) {
  // One error per op: later conflicts at it are consequences of the first.
  (void)key;
  if (!reported.insert({op, 0}).second)
    return;
  failed = true;
  InFlightDiagnostic d = op->emitOpError(message);
  d.attachNote(a.loc) << "queue " << formatQueue(a.queue) << " comes from "
                      << a.what;
  d.attachNote(b.loc) << "queue " << formatQueue(b.queue) << " comes from "
                      << b.what;
}

/// "is on" for a placed value, "follows" for an unplaced one.
static StringRef verb(Value v) {
  return cast<ArrayType>(v.getType()).isPlaced() ? "is on" : "follows";
}

static const char *kFix = "; migrate one of them with usm.to_device";

void Solver::solve(func::FuncOp f, bool useDefaults) {
  Groups groups;
  auto add = [&](Value v) {
    if (isArray(v))
      groups.node(v);
  };
  f->walk([&](Operation *op) {
    for (Value r : op->getResults())
      add(r);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Value a : block.getArguments())
          add(a);
  });

  // Ops that combine arrays.
  SmallVector<func::ReturnOp> returns;
  f->walk([&](Operation *op) {
    if (op == f.getOperation())
      return;
    if (auto toDevice = dyn_cast<ToDeviceOp>(op))
      return addMigration(toDevice, groups);
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      returns.push_back(ret);
      return;
    }
    if (auto call = dyn_cast<func::CallOp>(op))
      return addCall(call, groups);
    if (isa<RegionBranchOpInterface, BranchOpInterface,
            RegionBranchTerminatorOpInterface>(op))
      return; // flow edges, below
    addCombiningOp(op, groups);
  });
  addFlowEdges(f, groups);
  addReturns(f, returns, groups);
  placeValues(groups, useDefaults);
  updateSignature(f, returns);
}

/// A migration's unplaced source weakly prefers the migration's target.
void Solver::addMigration(ToDeviceOp toDevice, Groups &groups) {
  Value src = toDevice.getSource();
  if (!cast<ArrayType>(src.getType()).isPlaced()) {
    Group &g = groups.of(src);
    Pin target = pinOf(toDevice.getResult());
    if (g.weak &&
        (g.weak->queue != target.queue || g.weak->kind != target.kind))
      g.weakAmbiguous = true;
    else
      g.weak = target;
  }
}

/// A call: placed parameters and results of the callee pin its operands and
/// results.
void Solver::addCall(func::CallOp call, Groups &groups) {
  Operation *op = call;
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  if (!callee)
    return;
  FunctionType ct = callee.getFunctionType();
  auto pinArg = [&](Value v, Type declared, Location loc,
                    const std::string &what, unsigned key,
                    const std::string &label) {
    auto t = dyn_cast<ArrayType>(declared);
    if (!t || !t.isPlaced() || !isArray(v))
      return;
    Pin p{t.getQueue(), t.getKind(), loc, what};
    Group &g = groups.of(v);
    if (g.pin && g.pin->queue != p.queue) {
      conflict(op, key,
               label + " " + verb(v) + " queue " + formatQueue(g.pin->queue) +
                   " but " + what + " is on queue " + formatQueue(p.queue) +
                   "; migrate it with usm.to_device",
               *g.pin, p);
      return;
    }
    if (!g.pin)
      g.pin = p;
    if (!cast<ArrayType>(v.getType()).isPlaced())
      g.demand = g.demand ? maxKind(*g.demand, p.kind) : p.kind;
  };
  for (auto [i, v] : llvm::enumerate(call.getOperands())) {
    if (i >= ct.getNumInputs())
      break;
    Location loc =
        callee.isExternal() ? callee.getLoc() : callee.getArgument(i).getLoc();
    pinArg(v, ct.getInput(i), loc,
           "parameter #" + std::to_string(i) + " of @" +
               callee.getSymName().str(),
           i, "operand #" + std::to_string(i));
  }
  for (auto [i, v] : llvm::enumerate(call.getResults())) {
    if (i >= ct.getNumResults())
      break;
    pinArg(v, ct.getResult(i), callee.getLoc(),
           "result #" + std::to_string(i) + " of @" + callee.getSymName().str(),
           1000 + i, "result #" + std::to_string(i));
  }
}

void Solver::addCombiningOp(Operation *op, Groups &groups) {
  // Every other op: its array operands and results share one queue.
  SmallVector<std::pair<Value, std::string>> items;
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (isArray(v))
      items.push_back({v, "operand #" + std::to_string(i)});
  bool unplacedOperand = llvm::any_of(items, [](auto &item) {
    return !cast<ArrayType>(item.first.getType()).isPlaced();
  });
  std::optional<USMKind> resultKind;
  for (auto [i, v] : llvm::enumerate(op->getResults())) {
    if (!isArray(v))
      continue;
    items.push_back({v, "result #" + std::to_string(i)});
    auto t = cast<ArrayType>(v.getType());
    if (t.isPlaced() && !resultKind)
      resultKind = t.getKind();
  }
  if (items.size() < 2) {
    if (items.size() == 1 && unplacedOperand && resultKind)
      groups.of(items[0].first).demand = resultKind;
    return;
  }
  for (unsigned j = 1; j < items.size(); ++j) {
    auto &[first, firstLabel] = items[0];
    auto &[v, label] = items[j];
    if (reported.contains({op, 0}))
      break;
    groups.unite(first, v, [&](const Pin &a, const Pin &b) {
      conflict(op, j,
               "execution placement can not be unambiguously inferred "
               "from input arguments: " +
                   firstLabel + " " + verb(first) + " queue " +
                   formatQueue(a.queue) + " but " + label + " " + verb(v) +
                   " queue " + formatQueue(b.queue) + kFix,
               a, b);
    });
  }
  if (unplacedOperand && resultKind) {
    Group &g = groups.of(items[0].first);
    g.demand = g.demand ? maxKind(*g.demand, *resultKind) : *resultKind;
  }
}

void Solver::addFlowEdges(func::FuncOp f, Groups &groups) {
  // Flow edges: block arguments (entries and back edges) first, so that a
  // loop's conflict is reported as one, then region results.
  SmallVector<std::tuple<Value, Value, Operation *>> edges;
  forEachFlowEdge(f, [&](Value from, Value to, Operation *through) {
    edges.push_back({from, to, through});
  });
  llvm::stable_sort(edges, [](const auto &x, const auto &y) {
    return isa<BlockArgument>(std::get<1>(x)) &&
           !isa<BlockArgument>(std::get<1>(y));
  });
  for (auto &[from, to, through] : edges) {
    groups.unite(
        to, from,
        [&, from = from, to = to, through = through](const Pin &a,
                                                     const Pin &b) {
          std::string where;
          if (auto r = dyn_cast<OpResult>(to)) {
            where = "result #" + std::to_string(r.getResultNumber());
            std::string what = through->getName().getStringRef() == "scf.if"
                                   ? "the branches yield " + where
                                   : "the regions yield " + where;
            conflict(
                through, r.getResultNumber(),
                what + " on different queues, " + formatQueue(a.queue) +
                    " and " + formatQueue(b.queue) +
                    "; migrate one of them with usm.to_device before it is "
                    "yielded",
                a, b);
            return;
          }
          auto arg = cast<BlockArgument>(to);
          bool inside =
              through->isAncestor(Value(from).getParentBlock()->getParentOp());
          if (isa<RegionBranchOpInterface>(through) && inside &&
              through->isAncestor(arg.getOwner()->getParentOp())) {
            conflict(through, 100 + arg.getArgNumber(),
                     "loop-carried value (region argument #" +
                         std::to_string(arg.getArgNumber()) +
                         ") enters on queue " + formatQueue(a.queue) +
                         " but is yielded on queue " + formatQueue(b.queue) +
                         "; migrate the yielded value with usm.to_device",
                     a, b);
            return;
          }
          conflict(through, 200 + arg.getArgNumber(),
                   "values on different queues meet at argument #" +
                       std::to_string(arg.getArgNumber()) +
                       " of its successor: " + formatQueue(a.queue) + " and " +
                       formatQueue(b.queue) + kFix,
                   a, b);
        });
  }
}

void Solver::addReturns(func::FuncOp f, MutableArrayRef<func::ReturnOp> returns,
                        Groups &groups) {
  FunctionType ft = f.getFunctionType();
  // Returns: every return gives the function's results; placed results pin.
  for (auto [k, ret] : llvm::enumerate(returns)) {
    for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
      if (!isArray(v) || i >= ft.getNumResults())
        continue;
      if (k > 0)
        groups.unite(returns[0].getOperand(i), v,
                     [&](const Pin &a, const Pin &b) {
                       conflict(ret, i,
                                "result #" + std::to_string(i) + " of @" +
                                    f.getSymName() +
                                    " is returned on different queues, " +
                                    formatQueue(a.queue) + " and " +
                                    formatQueue(b.queue) + kFix,
                                a, b);
                     });
      auto t = dyn_cast<ArrayType>(ft.getResult(i));
      if (!t || !t.isPlaced() || cast<ArrayType>(v.getType()).isPlaced())
        continue;
      Pin p{t.getQueue(), t.getKind(), f.getLoc(),
            "result #" + std::to_string(i) + " of @" + f.getSymName().str()};
      Group &g = groups.of(v);
      if (g.pin && g.pin->queue != p.queue)
        conflict(ret, 500 + i,
                 "operand #" + std::to_string(i) + " follows queue " +
                     formatQueue(g.pin->queue) + " but @" + f.getSymName() +
                     " returns it on queue " + formatQueue(p.queue) +
                     "; migrate it with usm.to_device",
                 *g.pin, p);
      else {
        if (!g.pin)
          g.pin = p;
        g.demand = g.demand ? maxKind(*g.demand, p.kind) : p.kind;
      }
    }
  }
}

/// Gives unplaced values their group's placement.
void Solver::placeValues(Groups &groups, bool useDefaults) {
  for (Value v : groups.allValues()) {
    auto t = cast<ArrayType>(v.getType());
    if (t.isPlaced())
      continue;
    std::optional<Pin> p = resolve(groups.of(v), useDefaults);
    if (!p)
      continue;
    v.setType(t.withPlacement(p->queue, p->kind));
    changed = true;
  }
}

/// The signature follows the entry block and the returns.
void Solver::updateSignature(func::FuncOp f,
                             MutableArrayRef<func::ReturnOp> returns) {
  FunctionType ft = f.getFunctionType();
  SmallVector<Type> inputs(f.getArgumentTypes());
  SmallVector<Type> results(ft.getResults());
  for (auto [i, a] : llvm::enumerate(f.getArguments()))
    inputs[i] = a.getType();
  if (!returns.empty())
    for (auto [i, v] : llvm::enumerate(returns[0].getOperands())) {
      auto t = dyn_cast<ArrayType>(results[i]);
      if (t && !t.isPlaced())
        results[i] = v.getType();
    }
  FunctionType nt = FunctionType::get(f.getContext(), inputs, results);
  if (nt != ft) {
    f.setFunctionType(nt);
    changed = true;
  }
}

std::optional<Pin> Solver::resolve(const Group &g, bool useDefaults) {
  if (g.pin) {
    Pin p = *g.pin;
    if (g.demand)
      p.kind = *g.demand;
    return p;
  }
  if (g.weak && !g.weakAmbiguous)
    return g.weak;
  if (useDefaults && options.defaultQueue)
    return Pin{options.defaultQueue, options.defaultKind,
               UnknownLoc::get(module.getContext()), "the default queue"};
  return std::nullopt;
}

void Solver::syncCallResults(func::FuncOp f) {
  f.walk([&](func::CallOp call) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee)
      return;
    for (auto [v, t] :
         llvm::zip(call.getResults(), callee.getFunctionType().getResults())) {
      auto vt = dyn_cast<ArrayType>(v.getType());
      auto ct = dyn_cast<ArrayType>(t);
      if (vt && ct && !vt.isPlaced() && ct.isPlaced()) {
        v.setType(ct);
        changed = true;
      }
    }
  });
}

/// A readable suffix for a specialisation: its queues, e.g. "opencl_cpu_0".
static std::string suffixFor(ArrayRef<Type> types, ArrayRef<Type> generic) {
  llvm::SetVector<std::pair<Attribute, unsigned>> seen;
  std::string suffix;
  for (auto [t, g] : llvm::zip(types, generic)) {
    auto a = dyn_cast<ArrayType>(t);
    auto ga = dyn_cast<ArrayType>(g);
    if (!a || !ga || ga.isPlaced() || !a.isPlaced())
      continue;
    if (!seen.insert({a.getQueue(), static_cast<unsigned>(a.getKind())}))
      continue;
    std::string part;
    for (char c : a.getQueue().getDevice())
      part += c == ':'   ? std::string("_")
              : c == '*' ? "any"
                         : std::string(1, c);
    if (!a.getQueue().isCanonical())
      part += "_" + a.getQueue().getName().str();
    if (a.getKind() != USMKind::device)
      part += "_" + stringifyUSMKind(a.getKind()).str();
    suffix += "." + part;
  }
  return suffix;
}

/// Specialises a callee for the placed arrays a call passes to its unplaced
/// parameters (a clone per generic function and input placements, shared by
/// every call with them), and places the unplaced results of a
/// specialisation from the call's placed results.
void Solver::specialiseCalls(func::FuncOp f) {
  f.walk([&](func::CallOp call) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee)
      return;
    FunctionType ct = callee.getFunctionType();
    auto want = [](Type &slot, Type actual) {
      auto s = dyn_cast<ArrayType>(slot);
      auto a = dyn_cast<ArrayType>(actual);
      if (s && a && !s.isPlaced() && a.isPlaced()) {
        slot = a;
        return true;
      }
      return false;
    };
    SmallVector<Type> inputs(ct.getInputs()), results(ct.getResults());
    bool newInputs = false, newResults = false;
    for (auto [i, v] : llvm::enumerate(call.getOperands()))
      if (i < inputs.size())
        newInputs |= want(inputs[i], v.getType());
    for (auto [i, v] : llvm::enumerate(call.getResults()))
      if (i < results.size())
        newResults |= want(results[i], v.getType());
    if (!newInputs && !newResults)
      return;
    if (callee.isExternal()) {
      if (reported.insert({call, 0}).second) {
        failed = true;
        call.emitOpError("passes placed arrays to unplaced parameters or "
                         "results of the external function @")
            << callee.getSymName()
            << ", which cannot be specialised; declare it with placed types";
      }
      return;
    }
    func::FuncOp generic = origin(callee);
    bool isClone = generic != callee;
    func::FuncOp target = callee;
    if (newInputs || !isClone) {
      // Results are part of the key only for results asked of a function
      // of the user's, which other calls may use differently.
      FunctionType key =
          FunctionType::get(f.getContext(), inputs,
                            newInputs ? ArrayRef<Type>(ct.getResults())
                                      : ArrayRef<Type>(results));
      func::FuncOp &clone = specialisations[{generic, key}];
      if (!clone) {
        clone = callee.clone();
        clone.setSymName(
            (generic.getSymName() +
             suffixFor(inputs, generic.getFunctionType().getInputs()))
                .str());
        if (clone.getSymName() == generic.getSymName())
          clone.setSymName((generic.getSymName() + ".spec").str());
        clone.setPrivate();
        clone.setFunctionType(key);
        for (auto [a, t] : llvm::zip(clone.getArguments(), inputs))
          a.setType(t);
        symbols.insert(clone, std::next(Block::iterator(callee)));
        origins[clone] = generic;
        specialisedOrigins.insert(generic);
      }
      target = clone;
    }
    // A specialisation's unplaced results follow what its calls ask.
    FunctionType tt = target.getFunctionType();
    SmallVector<Type> tresults(tt.getResults());
    bool refined = false;
    for (auto [i, v] : llvm::enumerate(call.getResults()))
      if (i < tresults.size())
        refined |= want(tresults[i], v.getType());
    if (refined)
      target.setFunctionType(
          FunctionType::get(f.getContext(), tt.getInputs(), tresults));
    if (target != callee)
      call.setCallee(target.getSymName());
    changed |= refined || target != callee;
  });
}

void Solver::reportUnresolved(func::FuncOp f) {
  // One error per unplaced value that nothing places and that is not
  // computed from other unplaced values (the data's sources).
  f->walk([&](Operation *op) {
    auto check = [&](Value v, Location loc) {
      auto t = dyn_cast<ArrayType>(v.getType());
      if (!t || t.isPlaced())
        return;
      if (!reported.insert({op, 950}).second)
        return;
      failed = true;
      emitError(loc)
          << "the placement of this array can not be inferred: it meets no "
             "array on a queue. Please specify `device` or `sycl_queue` "
             "keyword argument (give "
          << describe(v)
          << " a queue in its type, or run usm-infer-placement with "
             "default-queue=...)";
    };
    if (op == f.getOperation()) {
      for (Value a : f.getArguments())
        check(a, a.getLoc());
      return;
    }
    if (isa<func::CallOp>(op) || isa<RegionBranchOpInterface>(op))
      return;
    bool fromUnplaced = llvm::any_of(op->getOperands(), [](Value v) {
      auto t = dyn_cast<ArrayType>(v.getType());
      return t && !t.isPlaced();
    });
    if (fromUnplaced)
      return;
    for (Value r : op->getResults())
      check(r, op->getLoc());
  });
}

void Solver::checkCalls(func::FuncOp f) {
  f.walk([&](func::CallOp call) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee)
      return;
    FunctionType ct = callee.getFunctionType();
    auto check = [&](Value v, Type t, StringRef what, unsigned) {
      if (v.getType() == t || !isArray(v) || !isa<ArrayType>(t))
        return;
      if (!reported.insert({call, 0}).second)
        return;
      failed = true;
      auto a = cast<ArrayType>(v.getType()), b = cast<ArrayType>(t);
      call.emitOpError() << what << " is on queue " << formatQueue(a.getQueue())
                         << " (" << stringifyUSMKind(a.getKind()) << ") but @"
                         << callee.getSymName() << " has it on queue "
                         << formatQueue(b.getQueue()) << " ("
                         << stringifyUSMKind(b.getKind())
                         << "); migrate it with usm.to_device";
    };
    for (auto [i, v] : llvm::enumerate(call.getOperands()))
      if (i < ct.getNumInputs())
        check(v, ct.getInput(i), "operand #" + std::to_string(i), i);
    for (auto [i, v] : llvm::enumerate(call.getResults()))
      if (i < ct.getNumResults())
        check(v, ct.getResult(i), "result #" + std::to_string(i), 100 + i);
  });
}

/// Merges specialisations of one function that ended with the same
/// signature (a clone made for a call's results can end up equal to one made
/// for its arguments) and names each after its placements.
void Solver::finishSpecialisations() {
  llvm::MapVector<std::pair<Operation *, Type>, SmallVector<func::FuncOp>>
      byType;
  for (func::FuncOp f : functions())
    if (origins.count(f))
      byType[{origin(f), f.getFunctionType()}].push_back(f);
  SmallVector<std::pair<func::FuncOp, std::string>> kept;
  for (auto &[key, clones] : byType) {
    func::FuncOp keep = clones.front();
    for (func::FuncOp other : llvm::drop_begin(clones)) {
      (void)SymbolTable::replaceAllSymbolUses(other, keep.getSymNameAttr(),
                                              module);
      origins.erase(other);
      symbols.erase(other);
    }
    auto generic = cast<func::FuncOp>(key.first);
    FunctionType gt = generic.getFunctionType(), kt = keep.getFunctionType();
    SmallVector<Type> mine(kt.getInputs()), theirs(gt.getInputs());
    llvm::append_range(mine, kt.getResults());
    llvm::append_range(theirs, gt.getResults());
    std::string suffix = suffixFor(mine, theirs);
    kept.push_back({keep, (generic.getSymName() +
                           (suffix.empty() ? std::string(".spec") : suffix))
                              .str()});
  }
  // Free the names first: a merged-away clone may have held one.
  for (auto &[f, name] : kept)
    (void)symbols.renameToUnique(f, {});
  for (auto &[f, name] : kept) {
    std::string unique = name;
    for (unsigned i = 1; symbols.lookup(unique); ++i)
      unique = name + "_" + std::to_string(i);
    (void)symbols.rename(f, unique);
  }
}

LogicalResult Solver::run() {
  auto fixpoint = [&](bool useDefaults) {
    // Each round places values or adds a specialisation; both are finite.
    do {
      changed = false;
      for (func::FuncOp f : functions()) {
        syncCallResults(f);
        solve(f, useDefaults);
        specialiseCalls(f);
      }
    } while (changed);
  };
  fixpoint(/*useDefaults=*/false);

  // Originals replaced by their specialisations everywhere.
  for (Operation *op : specialisedOrigins) {
    auto f = cast<func::FuncOp>(op);
    if (!f.isPrivate())
      continue;
    // Unused but by itself (recursion).
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(f, module);
    if (uses && llvm::all_of(*uses, [&](const SymbolTable::SymbolUse &use) {
          return f->isProperAncestor(use.getUser());
        }))
      symbols.erase(f);
  }
  if (options.defaultQueue)
    fixpoint(/*useDefaults=*/true);
  finishSpecialisations();
  for (func::FuncOp f : functions()) {
    if (options.reportUnresolved)
      reportUnresolved(f);
    checkCalls(f);
  }
  return failure(failed);
}

LogicalResult sluice::usm::solvePlacement(ModuleOp module,
                                          const PlacementOptions &options) {
  return Solver(module, options).run();
}
