//===- LazyTape.cpp - Lazy recording of fast-path operations in C++ -------===//
#include "LazyTape.h"
#include "Errors.h"
#include "Lazy.h"
#include "Program.h"

#include <nanobind/stl/string.h>

#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace nb = nanobind;

namespace sluice::py {

struct TapeTemplate {
  /// sluice/_lazy.py's template: (key, emit, in_dtypes, shapes, types,
  /// qid, kind, sigs, size).
  nb::object py;
  /// The operation's structure (equal for equal eager op keys).
  uint32_t id = 0;
  QueueState *queue = nullptr;
  /// Per operand: an array (else a scalar).
  std::vector<bool> isArray;
  struct Result {
    SluiceUsmKind kind;
    int dtype;
    std::vector<int64_t> shape;
  };
  std::vector<Result> results;
  /// Elements of the largest result.
  int64_t size = 0;
};

namespace {

/// Operations a tape holds before it is submitted (as
/// SLUICE_LAZY_MAX_OPS does for Python's graphs; set by Python).
size_t maxOps = 128;
/// Results smaller than this (elements) run eagerly unless an operand is
/// on the tape.
int64_t minElements = 0;
/// Compiled programs kept, by structure.
constexpr size_t kMaxPrograms = 512;

struct TapeRef {
  int32_t op;    ///< -1: the external argument `index`
  int32_t index; ///< the argument, or the op's result
};

struct TapeOp {
  std::shared_ptr<TapeTemplate> tmpl;
  std::vector<TapeRef> refs;
  /// Per result: its LazyToken (the only owner of the buffer besides the
  /// arrays the user holds).
  std::vector<nb::object> tokens;
};

struct Tape {
  QueueState *queue = nullptr;
  std::vector<TapeOp> ops;
  /// Arguments of the program: arrays (once each) and scalars.
  std::vector<nb::object> args;
  std::vector<bool> argIsArray;
  std::unordered_map<PyObject *, int32_t> argIndex;
  /// The tape's lazy buffers: (op, result).
  std::unordered_map<const Buffer *, TapeRef> produced;
};

// Never destroyed: Python may be finalized before static destructors run.
Tape &tape = *new Tape;
nb::object &compiler = *new nb::object;
nb::object &adopter = *new nb::object;
nb::dict &structureIds = *new nb::dict;
std::unordered_map<std::string, nb::object> &programs =
    *new std::unordered_map<std::string, nb::object>;
std::map<std::string, uint64_t> &boundaries =
    *new std::map<std::string, uint64_t>;
struct Stats {
  uint64_t recorded = 0, graphs = 0, operations = 0, reused = 0, noLive = 0;
} stats;

/// The tape's result that `a` is (whole, same shape and dtype), if any.
const TapeRef *producedBy(const ArrayCore &a) {
  auto it = tape.produced.find(a.buffer.get());
  if (it == tape.produced.end())
    return nullptr;
  const TapeOp &op = tape.ops[it->second.op];
  const TapeTemplate::Result &r = op.tmpl->results[it->second.index];
  bool whole = a.offset == 0 && a.cContiguous() && a.dtype == r.dtype &&
               a.shape == r.shape;
  return whole ? &it->second : nullptr;
}

void putU32(std::string &key, uint32_t v) {
  key.append(reinterpret_cast<const char *>(&v), sizeof(v));
}

std::shared_ptr<TapeTemplate> parseTemplate(nb::handle py);

} // namespace

std::shared_ptr<TapeTemplate> makeTapeTemplate(nb::handle py) {
  try {
    return parseTemplate(py);
  } catch (const std::exception &) {
    return nullptr; // not taped: Python records it
  }
}

namespace {
std::shared_ptr<TapeTemplate> parseTemplate(nb::handle py) {
  nb::tuple t;
  if (!nb::try_cast<nb::tuple>(py, t) || t.size() != 9)
    return nullptr;
  auto tmpl = std::make_shared<TapeTemplate>();
  tmpl->py = nb::borrow(py);
  nb::object key = t[0];
  nb::object id = structureIds.get(key, nb::none());
  if (id.is_none()) {
    id = nb::int_(structureIds.size() + 1);
    structureIds[key] = id;
  }
  tmpl->id = nb::cast<uint32_t>(id);
  tmpl->queue = reinterpret_cast<QueueState *>(nb::cast<uintptr_t>(t[5]));
  for (nb::handle s : nb::cast<nb::tuple>(t[7]))
    tmpl->isArray.push_back(nb::cast<std::string>(s[0]) != "S");
  nb::list shapes = nb::cast<nb::list>(t[3]);
  nb::tuple types = nb::cast<nb::tuple>(t[4]);
  if (shapes.size() != types.size() || types.size() == 0)
    return nullptr;
  for (size_t r = 0; r < types.size(); ++r) {
    TapeTemplate::Result res;
    res.kind = static_cast<SluiceUsmKind>(nb::cast<int>(types[r][0]));
    res.dtype = nb::cast<int>(types[r][1]);
    for (nb::handle d : shapes[r])
      res.shape.push_back(nb::cast<int64_t>(d));
    tmpl->results.push_back(std::move(res));
  }
  tmpl->size = nb::cast<int64_t>(t[8]);
  return tmpl;
}
} // namespace

bool tapePending() { return !tape.ops.empty(); }

TapeOutcome tapeRecord(const std::shared_ptr<TapeTemplate> &tmpl,
                       PyObject *const *xs, size_t n, nb::object &result) {
  const TapeTemplate &t = *tmpl;
  if (lazyGraphsPending() || n != t.isArray.size())
    return TapeOutcome::UsePython;
  if (tape.queue && tape.queue != t.queue)
    tapeFlush("an operation on another queue was recorded");
  // Operands that are pending but not whole results of the tape (a view of
  // part of one, a reshape): their memory must exist first.
  bool onTape = false;
  for (size_t i = 0; i < n; ++i) {
    if (!t.isArray[i])
      continue;
    const ArrayCore &a = *nb::inst_ptr<ArrayCore>(nb::handle(xs[i]));
    if (!a.buffer->lazyId)
      continue;
    if (producedBy(a)) {
      onTape = true;
      continue;
    }
    tapeFlush("a view of a pending result was used");
    if (a.buffer->lazyId)
      return TapeOutcome::UsePython; // not the tape's
    onTape = false;
    break;
  }
  if (!onTape && t.size < minElements)
    return TapeOutcome::Eager;
  if (tape.ops.empty())
    tape.queue = t.queue;
  TapeOp op;
  op.refs.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (!t.isArray[i]) {
      op.refs.push_back({-1, static_cast<int32_t>(tape.args.size())});
      tape.args.push_back(nb::borrow(xs[i]));
      tape.argIsArray.push_back(false);
      continue;
    }
    const ArrayCore &a = *nb::inst_ptr<ArrayCore>(nb::handle(xs[i]));
    if (a.buffer->lazyId) {
      op.refs.push_back(*producedBy(a));
      continue;
    }
    auto [it, fresh] = tape.argIndex.try_emplace(
        xs[i], static_cast<int32_t>(tape.args.size()));
    if (fresh) {
      tape.args.push_back(nb::borrow(xs[i]));
      tape.argIsArray.push_back(true);
      lazyMarkRead(*a.buffer, 1);
    }
    op.refs.push_back({-1, it->second});
  }
  int32_t j = static_cast<int32_t>(tape.ops.size());
  for (size_t r = 0; r < t.results.size(); ++r) {
    const TapeTemplate::Result &res = t.results[r];
    auto [array, token] =
        newLazyResult(t.queue, res.kind, res.dtype, res.shape);
    if (r == 0)
      result = array;
    tape.produced[nb::inst_ptr<ArrayCore>(array)->buffer.get()] = {
        j, static_cast<int32_t>(r)};
    op.tokens.push_back(std::move(token));
  }
  op.tmpl = tmpl;
  tape.ops.push_back(std::move(op));
  ++stats.recorded;
  if (tape.ops.size() >= maxOps)
    tapeFlush("the graph reached SLUICE_LAZY_MAX_OPS operations");
  return TapeOutcome::Recorded;
}

void tapeFlush(const char *reason, uint64_t wanted) {
  if (tape.ops.empty())
    return;
  if (wanted && adopter.is_valid()) {
    // One result is needed and others are referenced too: Python's
    // recorder runs what it needs and keeps the rest pending (computed
    // when needed, or never).
    size_t live = 0;
    bool found = false;
    for (const TapeOp &op : tape.ops)
      for (const nb::object &tok : op.tokens)
        if (lazyTokenLive(tok)) {
          ++live;
          found |= lazyTokenId(tok) == wanted;
        }
    if (live > 1 || !found) {
      adopter();
      return;
    }
  }
  Tape t = std::move(tape);
  tape = Tape();
  ++boundaries[reason];
  struct Unmark {
    Tape &t;
    ~Unmark() {
      for (size_t i = 0; i < t.args.size(); ++i)
        if (t.argIsArray[i])
          lazyMarkRead(*nb::inst_ptr<ArrayCore>(t.args[i])->buffer, -1);
    }
  } unmark{t};
  std::vector<TapeRef> live;
  for (size_t j = 0; j < t.ops.size(); ++j)
    for (size_t r = 0; r < t.ops[j].tokens.size(); ++r)
      if (lazyTokenLive(t.ops[j].tokens[r]))
        live.push_back({static_cast<int32_t>(j), static_cast<int32_t>(r)});
  if (live.empty()) {
    ++stats.noLive;
    return;
  }
  // The structure: operations, how their operands connect, live results.
  std::string key;
  key.reserve(16 + t.ops.size() * 16 + live.size() * 8);
  uintptr_t q = reinterpret_cast<uintptr_t>(t.queue);
  key.append(reinterpret_cast<const char *>(&q), sizeof(q));
  for (const TapeOp &op : t.ops) {
    putU32(key, op.tmpl->id);
    for (const TapeRef &r : op.refs) {
      putU32(key, static_cast<uint32_t>(r.op));
      putU32(key, static_cast<uint32_t>(r.index));
    }
  }
  putU32(key, 0xffffffffu);
  for (const TapeRef &r : live) {
    putU32(key, static_cast<uint32_t>(r.op));
    putU32(key, static_cast<uint32_t>(r.index));
  }
  nb::list targets, shapes;
  for (const TapeRef &r : live) {
    const TapeOp &op = t.ops[r.op];
    targets.append(op.tokens[r.index]);
    nb::list shape;
    for (int64_t d : op.tmpl->results[r.index].shape)
      shape.append(d);
    shapes.append(shape);
  }
  try {
    nb::object program;
    auto it = programs.find(key);
    if (it != programs.end()) {
      program = it->second;
      ++stats.reused;
    } else {
      if (!compiler.is_valid())
        throw Error(ErrorKind::Runtime, "lazy execution: no tape compiler");
      nb::list ops, outs;
      for (const TapeOp &op : t.ops) {
        nb::list refs;
        for (const TapeRef &r : op.refs)
          if (r.op < 0)
            refs.append(r.index);
          else
            refs.append(nb::make_tuple(r.op, r.index));
        ops.append(nb::make_tuple(op.tmpl->py, nb::tuple(refs)));
      }
      for (const TapeRef &r : live)
        outs.append(nb::make_tuple(r.op, r.index));
      // (Python counts the programs it compiles or finds in its cache.)
      program = compiler(ops, outs);
      if (programs.size() >= kMaxPrograms)
        programs.clear();
      programs.emplace(std::move(key), program);
    }
    nb::list args;
    for (nb::object &a : t.args)
      args.append(a);
    ++stats.graphs;
    stats.operations += t.ops.size();
    nb::inst_ptr<Program>(program)->call(args, shapes, targets);
  } catch (const std::exception &e) {
    // The results' readers get the failure, as for any failed operation.
    std::string message = e.what();
    for (nb::handle token : targets)
      lazyTokenFail(token, message);
  }
}

namespace {
/// The tape's operations for Python's recorder to adopt (it then owns
/// them as a pending graph): (ops, args) with ops (template, refs, tokens),
/// or None when the tape is empty.
nb::object takeTape() {
  if (tape.ops.empty())
    return nb::none();
  Tape t = std::move(tape);
  tape = Tape();
  nb::list ops, args;
  for (const TapeOp &op : t.ops) {
    nb::list refs, tokens;
    for (const TapeRef &r : op.refs)
      if (r.op < 0)
        refs.append(r.index);
      else
        refs.append(nb::make_tuple(r.op, r.index));
    for (const nb::object &tok : op.tokens)
      tokens.append(tok);
    ops.append(nb::make_tuple(op.tmpl->py, refs, tokens));
  }
  for (size_t i = 0; i < t.args.size(); ++i) {
    args.append(t.args[i]);
    if (t.argIsArray[i]) // Python counts its own reads
      lazyMarkRead(*nb::inst_ptr<ArrayCore>(t.args[i])->buffer, -1);
  }
  return nb::make_tuple(ops, args);
}
} // namespace

void bindLazyTape(nb::module_ &m) {
  m.def("lazy_tape_take", &takeTape,
        "The recorded operations, for Python's recorder to adopt: (ops, "
        "args), ops (template, refs, tokens); None if there are none.");
  m.def(
      "lazy_tape_flush",
      [](const std::string &reason) { tapeFlush(reason.c_str()); },
      "Submits the operations the fast path recorded.");
  m.def("lazy_tape_pending", &tapePending,
        "Whether the fast path recorded operations not yet submitted.");
  m.def(
      "lazy_tape_set_adopter", [](nb::object fn) { adopter = std::move(fn); },
      "fn(): makes the tape a pending graph of Python's recorder "
      "(lazy_tape_take).");
  m.def(
      "lazy_tape_set_compiler", [](nb::object fn) { compiler = std::move(fn); },
      "fn(ops, outs) -> Program: compiles a tape (ops: (template, refs), "
      "refs: argument indices or (op, result); outs: (op, result)).");
  m.def(
      "lazy_tape_limits",
      [](int64_t minimum, size_t maximum) {
        minElements = minimum;
        maxOps = std::max<size_t>(maximum, 1);
      },
      "Records results of at least `minimum` elements (or with an operand "
      "on the tape); submits at `maximum` operations.");
  m.def(
      "lazy_tape_stats",
      [] {
        nb::dict d, b;
        d["recorded"] = stats.recorded;
        d["graphs submitted"] = stats.graphs;
        d["operations submitted"] = stats.operations;
        d["programs reused"] = stats.reused;
        d["graphs without a live result"] = stats.noLive;
        d["pending_operations"] = tape.ops.size();
        d["cached_programs"] = programs.size();
        for (auto &[k, v] : boundaries)
          b[k.c_str()] = v;
        d["boundaries"] = b;
        return d;
      },
      "What the fast path's recording did.");
  m.def(
      "lazy_tape_reset_stats",
      [] {
        stats = Stats();
        boundaries.clear();
      },
      "Clears lazy_tape_stats' counts.");
}

} // namespace sluice::py
