//===- LazyTape.cpp - Lazy recording of fast-path operations in C++ -------===//
#include "LazyTape.h"
#include "Errors.h"
#include "Lazy.h"
#include "Program.h"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
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
    /// The same shape as Python's tuple (passed to the program as is).
    nb::object shapeObj;
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
/// on the tape; -1: the default, kHostMinElements on the host (where a
/// small eager operation runs at once on the calling thread, for less
/// than recording and submitting it costs) and 0 elsewhere (a launch saved
/// is worth more than the recording).
int64_t minElements = -1;
constexpr int64_t kHostMinElements = int64_t(1) << 16;
/// Small operations (below minElements) are recorded once their template
/// was seen chaining with another small eager operation this often (0:
/// never; SLUICE_LAZY_SMALL_REPEATS, set by Python).
int smallRepeats = 2;
/// Per template id: how often it was seen in a chain of small eager
/// operations (saturating).
std::vector<uint8_t> &chains = *new std::vector<uint8_t>;
/// Structures of small tapes submitted without a compiled program, and
/// how often (compiled when seen again; cleared when it grows large).
std::unordered_map<std::string, uint8_t> &smallSeen =
    *new std::unordered_map<std::string, uint8_t>;
constexpr size_t kMaxSmallSeen = 4096;
/// Per structure of a flush of one wanted result: the operations of its
/// program (their places) whose results a later flush of the same tape
/// computed again because they were not kept; that flush keeps them from
/// then on (a value two flushes of a loop body need is computed once).
std::unordered_map<std::string, std::vector<int32_t>> &keepLearnt =
    *new std::unordered_map<std::string, std::vector<int32_t>>;
constexpr size_t kMaxKeepLearnt = 1024;
/// Whether flushes learn what to keep (lazy_tape_keep; for comparisons).
bool keepLearning = true;
/// Compiled programs kept, by structure.
constexpr size_t kMaxPrograms = 512;

struct TapeRef {
  int32_t op;    ///< -1: the external argument `index`
  int32_t index; ///< the argument, or the op's result
};

/// A result of a recorded operation.
struct TapeResult {
  /// Its lazy buffer (the only owner besides the arrays the user holds:
  /// live while they do; a LazyToken is made only when a program fills
  /// it, or when Python adopts the tape).
  std::shared_ptr<Buffer> buffer;
  uint64_t id = 0; ///< its lazy id
  /// The argument that holds it once submitted (-1: pending).
  int32_t producedArg = -1;
};

struct TapeOp {
  std::shared_ptr<TapeTemplate> tmpl;
  /// Its operands (Tape::refs) and results (Tape::results): one
  /// allocation per tape rather than three per operation.
  uint32_t refStart = 0, refCount = 0, resStart = 0, resCount = 0;
  /// The user's source line that recorded it (lazyCallerLocation).
  uint32_t location = 0;
  /// Computed without being kept by a flush of one wanted result: that
  /// flush (Tape::flushKeys) and the operation's place in its program
  /// (-1: not so).
  int32_t flushedIn = -1, flushedAt = -1;
  /// Below the recording threshold: its one-op program and the shapes it
  /// is called with (unset when it has none), to run it eagerly.
  bool small = false;
  nb::object eager, eagerShapes;
};

struct Tape {
  QueueState *queue = nullptr;
  std::vector<TapeOp> ops;
  std::vector<TapeRef> refs;
  std::vector<TapeResult> results;
  /// Arguments of the program: arrays (once each) and scalars.
  std::vector<nb::object> args;
  std::vector<bool> argIsArray;
  std::unordered_map<PyObject *, int32_t> argIndex;
  /// The tape's lazy buffers by lazy id (from idBase): (op, result), op -1
  /// for ids not on the tape. (Lazy ids are consecutive while the tape
  /// records: nothing else makes lazy results then.)
  uint64_t idBase = 0;
  std::vector<TapeRef> byId;
  /// The structures of the flushes of one wanted result so far.
  std::vector<std::string> flushKeys;

  TapeRef *opRefs(const TapeOp &op) { return refs.data() + op.refStart; }
  const TapeRef *opRefs(const TapeOp &op) const {
    return refs.data() + op.refStart;
  }
  TapeResult &result(TapeRef r) {
    return results[ops[r.op].resStart + r.index];
  }
  const TapeResult &result(TapeRef r) const {
    return results[ops[r.op].resStart + r.index];
  }
};
/// Ids a tape spans before it is submitted (a guard: see Tape::byId).
constexpr uint64_t kMaxIdSpan = 1 << 14;

// Never destroyed: Python may be finalized before static destructors run.
Tape &tape = *new Tape;
nb::object &compiler = *new nb::object;
nb::dict &structureIds = *new nb::dict;
std::unordered_map<std::string, nb::object> &programs =
    *new std::unordered_map<std::string, nb::object>;
std::map<std::string, uint64_t> &boundaries =
    *new std::map<std::string, uint64_t>;
struct Stats {
  uint64_t recorded = 0, graphs = 0, operations = 0, reused = 0, noLive = 0;
  /// Small operations recorded because their template repeats; small
  /// graphs run operation by operation (structure not compiled yet).
  uint64_t smallRecorded = 0, smallEager = 0;
} stats;

/// One thread at a time records into or submits the tape: a submission
/// releases the GIL (compiling, running inline work), and another thread
/// must not record into or submit the tape meanwhile. Re-entrant on its
/// thread; waiting releases the GIL (the holder may need it).
std::mutex &tapeMutex = *new std::mutex;
std::atomic<std::thread::id> tapeOwner;
int tapeDepth = 0;
/// Counts the times the tape was taken (submitted or adopted by Python):
/// code that ran Python or a submission in between sees whether the tape
/// it indexes is still the same.
uint64_t tapeGeneration = 0;
/// Submissions of a tape under way (its operations no longer on `tape`).
std::atomic<int> inFlight{0};
struct InFlight {
  InFlight() { ++inFlight; }
  ~InFlight() { --inFlight; }
};

class TapeLock {
public:
  TapeLock() {
    if (tapeOwner.load() == std::this_thread::get_id()) {
      ++tapeDepth;
      return;
    }
    if (!tapeMutex.try_lock()) {
      nb::gil_scoped_release release;
      tapeMutex.lock();
    }
    tapeOwner.store(std::this_thread::get_id());
    tapeDepth = 1;
  }
  ~TapeLock() {
    if (--tapeDepth == 0) {
      tapeOwner.store(std::thread::id());
      tapeMutex.unlock();
    }
  }
  TapeLock(const TapeLock &) = delete;
  TapeLock &operator=(const TapeLock &) = delete;
};

/// The tape's result that `a` is (whole, same shape and dtype), if any.
const TapeRef *producedBy(const ArrayCore &a) {
  uint64_t id = a.buffer->lazyId;
  if (id < tape.idBase || id - tape.idBase >= tape.byId.size())
    return nullptr;
  const TapeRef *ref = &tape.byId[id - tape.idBase];
  if (ref->op < 0 || tape.result(*ref).buffer != a.buffer)
    return nullptr;
  const TapeOp &op = tape.ops[ref->op];
  const TapeTemplate::Result &r = op.tmpl->results[ref->index];
  bool whole = a.offset == 0 && a.cContiguous() && a.dtype == r.dtype &&
               a.shape == r.shape;
  return whole ? ref : nullptr;
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
    res.shapeObj = shapes[r];
    tmpl->results.push_back(std::move(res));
  }
  tmpl->size = nb::cast<int64_t>(t[8]);
  return tmpl;
}
} // namespace

bool tapePending() { return !tape.ops.empty() || inFlight.load() > 0; }

namespace {
/// The recording threshold of a queue (elements).
int64_t leastElements(const QueueState *queue) {
  if (minElements >= 0)
    return minElements;
  return queue && queue->backend == SLUICE_BACKEND_HOST ? kHostMinElements : 0;
}

void countChain(uint32_t id) {
  if (id >= chains.size())
    chains.resize(id + 1, 0);
  if (chains[id] < 255)
    ++chains[id];
}

/// Whether small operations of this template are recorded: it was seen
/// chaining with other small operations often enough.
bool repeats(const TapeTemplate &t) {
  return smallRepeats > 0 && t.id < chains.size() &&
         chains[t.id] >= smallRepeats;
}

/// A small operation runs eagerly: counts a chain with each operand made
/// by another small eager operation.
void noteChains(const TapeTemplate &t, PyObject *const *xs, size_t n) {
  if (smallRepeats <= 0)
    return;
  bool chained = false;
  for (size_t i = 0; i < n; ++i) {
    if (!t.isArray[i])
      continue;
    uint32_t from = nb::inst_ptr<ArrayCore>(nb::handle(xs[i]))->buffer->eagerOp;
    if (!from)
      continue;
    chained = true;
    if (from != t.id)
      countChain(from);
  }
  if (chained)
    countChain(t.id);
}
} // namespace

void tapeEagerRan(const TapeTemplate &t, nb::handle result) {
  ArrayCore *core = nullptr;
  if (smallRepeats > 0 && nb::try_cast<ArrayCore *>(result, core) && core)
    core->buffer->eagerOp = t.id;
}

TapeOutcome tapeRecord(const std::shared_ptr<TapeTemplate> &tmpl,
                       PyObject *const *xs, size_t n, nb::object &result,
                       const nb::object &eager, const nb::object &eagerShapes) {
  const TapeTemplate &t = *tmpl;
  if (lazyGraphsPending() || n != t.isArray.size())
    return TapeOutcome::UsePython;
  TapeLock lock;
  if (lazyGraphsPending()) // (another thread's, while this one waited)
    return TapeOutcome::UsePython;
  if (tape.queue && tape.queue != t.queue)
    tapeFlush("an operation on another queue was recorded");
  if (!tape.ops.empty() && lazyNextId() - tape.idBase > kMaxIdSpan)
    tapeFlush("the graph reached SLUICE_LAZY_MAX_OPS operations");
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
    onTape = false;
    break;
  }
  for (size_t i = 0; i < n; ++i)
    if (t.isArray[i]) {
      const ArrayCore &a = *nb::inst_ptr<ArrayCore>(nb::handle(xs[i]));
      if (a.buffer->lazyId && !producedBy(a))
        return TapeOutcome::UsePython; // not the tape's
    }
  bool small = t.size < leastElements(t.queue);
  if (small) {
    // (Recorded or not: an operand a small eager operation made counts
    // for that operation.)
    noteChains(t, xs, n);
    // Recorded only when its template repeats in chains (a loop body) and
    // it can run eagerly at the submission (a structure not compiled yet).
    if (!onTape && (!eager.is_valid() || !repeats(t)))
      return TapeOutcome::Eager;
    if (!onTape)
      ++stats.smallRecorded;
  }
  if (tape.ops.empty()) {
    tape.queue = t.queue;
    // (A fresh tape: room for a loop body without regrowing.)
    size_t room = std::min<size_t>(maxOps, 64);
    tape.ops.reserve(room);
    tape.refs.reserve(room * 2);
    tape.results.reserve(room);
    tape.byId.reserve(room);
    tape.idBase = lazyNextId();
  }
  TapeOp op;
  op.refStart = static_cast<uint32_t>(tape.refs.size());
  op.refCount = static_cast<uint32_t>(n);
  for (size_t i = 0; i < n; ++i) {
    if (!t.isArray[i]) {
      tape.refs.push_back({-1, static_cast<int32_t>(tape.args.size())});
      tape.args.push_back(nb::borrow(xs[i]));
      tape.argIsArray.push_back(false);
      continue;
    }
    const ArrayCore &a = *nb::inst_ptr<ArrayCore>(nb::handle(xs[i]));
    if (a.buffer->lazyId) {
      tape.refs.push_back(*producedBy(a));
      continue;
    }
    auto [it, fresh] = tape.argIndex.try_emplace(
        xs[i], static_cast<int32_t>(tape.args.size()));
    if (fresh) {
      tape.args.push_back(nb::borrow(xs[i]));
      tape.argIsArray.push_back(true);
      lazyMarkRead(*a.buffer, 1);
    }
    tape.refs.push_back({-1, it->second});
  }
  int32_t j = static_cast<int32_t>(tape.ops.size());
  op.resStart = static_cast<uint32_t>(tape.results.size());
  op.resCount = static_cast<uint32_t>(t.results.size());
  for (size_t r = 0; r < t.results.size(); ++r) {
    const TapeTemplate::Result &res = t.results[r];
    TapeResult out;
    nb::object array =
        newLazyArray(t.queue, res.kind, res.dtype, res.shape, out.buffer);
    if (r == 0)
      result = std::move(array);
    out.id = out.buffer->lazyId;
    if (out.id < tape.idBase) // (cannot happen: ids only grow)
      throw Error(ErrorKind::Runtime, "lazy tape: lazy ids out of order");
    size_t at = out.id - tape.idBase;
    if (at >= tape.byId.size())
      tape.byId.resize(at + 1, TapeRef{-1, -1});
    tape.byId[at] = {j, static_cast<int32_t>(r)};
    tape.results.push_back(std::move(out));
  }
  op.tmpl = tmpl;
  op.location = lazyCallerLocation();
  if (small && eager.is_valid()) {
    op.small = true;
    op.eager = eager;
    op.eagerShapes = eagerShapes;
  }
  tape.ops.push_back(std::move(op));
  ++stats.recorded;
  if (tape.ops.size() >= maxOps)
    tapeFlush("the graph reached SLUICE_LAZY_MAX_OPS operations");
  return TapeOutcome::Recorded;
}

namespace {

/// `r` through the results submitted already (arguments now).
TapeRef resolve(const Tape &t, TapeRef r) {
  if (r.op >= 0)
    if (int32_t a = t.result(r).producedArg; a >= 0)
      return {-1, a};
  return r;
}

/// Fails the results `outs` (of operations from `from` on) with `e`.
void failResults(Tape &t, const std::vector<TapeRef> &outs,
                 const std::exception &e, int32_t from = 0) {
  // The results' readers get the failure, as for any failed operation,
  // with the source line of the operation that made each.
  const auto *error = dynamic_cast<const Error *>(&e);
  SluiceStatus status =
      error && error->kind == ErrorKind::OutOfMemory
          ? (error->status ? error->status : SLUICE_ERROR_OUT_OF_DEVICE_MEMORY)
          : SLUICE_ERROR_BACKEND;
  for (const TapeRef &o : outs)
    if (o.op >= from)
      lazyBufferFail(*t.result(o).buffer,
                     e.what() + lazyLocationText({t.ops[o.op].location}),
                     status);
}

/// A flush of one wanted result (`outs`, its cone `need`, the program's
/// structure `key`, outs included): learns which operations computed
/// again here an earlier flush should have kept (results still
/// referenced and pending, read here by operations that are new in this
/// flush), and adds to `outs` (and `key`) what this structure learnt to
/// keep. Returns the flush's index in t.flushKeys.
int32_t learnKeeping(Tape &t, const std::vector<char> &need,
                     const std::vector<int32_t> &newIndex, std::string &key,
                     std::vector<TapeRef> &outs) {
  auto keepable = [&](size_t j) {
    const TapeOp &op = t.ops[j];
    if (op.resCount != 1)
      return false;
    const TapeResult &res = t.results[op.resStart];
    return res.producedArg < 0 && res.buffer.use_count() > 1;
  };
  size_t n = t.ops.size();
  for (size_t j = 0; j < n; ++j) {
    if (!need[j] || t.ops[j].flushedIn >= 0)
      continue; // (only what this flush computes for the first time)
    const TapeOp &op = t.ops[j];
    for (uint32_t i = 0; i < op.refCount; ++i) {
      TapeRef r = resolve(t, t.opRefs(op)[i]);
      if (r.op < 0)
        continue;
      const TapeOp &from = t.ops[r.op];
      if (from.flushedIn < 0 || !keepable(r.op))
        continue;
      if (keepLearnt.size() >= kMaxKeepLearnt)
        keepLearnt.clear();
      std::vector<int32_t> &keep = keepLearnt[t.flushKeys[from.flushedIn]];
      if (std::find(keep.begin(), keep.end(), from.flushedAt) == keep.end())
        keep.push_back(from.flushedAt);
    }
  }
  int32_t index = static_cast<int32_t>(t.flushKeys.size());
  t.flushKeys.push_back(key);
  auto it = keepLearnt.find(key);
  if (it == keepLearnt.end())
    return index;
  for (int32_t at : it->second)
    for (size_t j = 0; j < n; ++j) {
      if (newIndex[j] != at)
        continue;
      bool already = false;
      for (const TapeRef &o : outs)
        already |= o.op == static_cast<int32_t>(j);
      if (!already && keepable(j)) {
        outs.push_back({static_cast<int32_t>(j), 0});
        putU32(key, static_cast<uint32_t>(at));
        putU32(key, 0);
      }
      break;
    }
  return index;
}

/// After a flush of one wanted result (`flushIndex` >= 0): marks the
/// operations it computed without keeping them.
void noteFlushed(Tape &t, const std::vector<char> &need,
                 const std::vector<int32_t> &newIndex,
                 const std::vector<TapeRef> &outs, int32_t flushIndex) {
  if (flushIndex < 0)
    return;
  for (size_t j = 0; j < t.ops.size(); ++j) {
    if (!need[j] || t.ops[j].flushedIn >= 0)
      continue;
    bool kept = false;
    for (const TapeRef &o : outs)
      kept |= o.op == static_cast<int32_t>(j);
    if (!kept) {
      t.ops[j].flushedIn = flushIndex;
      t.ops[j].flushedAt = newIndex[j];
    }
  }
}

/// Runs the operations `need` marks one by one with their one-op programs
/// (as eager execution would have), filling the buffers of `outs`.
void runEagerly(Tape &t, const std::vector<char> &need,
                const std::vector<TapeRef> &outs) {
  size_t n = t.ops.size();
  std::vector<std::vector<nb::object>> values(n);
  int32_t j = 0;
  try {
    for (; static_cast<size_t>(j) < n; ++j) {
      if (!need[j])
        continue;
      const TapeOp &op = t.ops[j];
      nb::object args =
          nb::steal(PyTuple_New(static_cast<Py_ssize_t>(op.refCount)));
      for (size_t i = 0; i < op.refCount; ++i) {
        TapeRef r = resolve(t, t.opRefs(op)[i]);
        nb::object v = r.op < 0 ? t.args[r.index] : values[r.op][r.index];
        PyTuple_SET_ITEM(args.ptr(), static_cast<Py_ssize_t>(i),
                         v.release().ptr());
      }
      nb::object targets = nb::none();
      for (const TapeRef &o : outs) {
        if (o.op != j)
          continue;
        if (targets.is_none()) {
          nb::list l;
          for (size_t r = 0; r < op.resCount; ++r)
            l.append(nb::none());
          targets = l;
        }
        const TapeResult &res = t.result(o);
        targets[o.index] = lazyBufferToken(res.buffer, res.id);
      }
      nb::list res = nb::inst_ptr<Program>(op.eager)->call(
          args, op.eagerShapes, targets, {op.location});
      for (nb::handle h : res)
        values[j].push_back(nb::borrow(h));
    }
  } catch (const std::exception &e) {
    failResults(t, outs, e, j);
  }
}

/// Runs what results `outs` need as one program (compiled once per
/// structure) that fills their buffers; a small graph whose structure is
/// new runs operation by operation instead.
void runCone(Tape &t, std::vector<TapeRef> &outs, bool learn = false) {
  size_t n = t.ops.size();
  std::vector<char> need(n, 0);
  for (const TapeRef &o : outs)
    need[o.op] = 1;
  for (size_t j = n; j-- > 0;)
    if (need[j])
      for (uint32_t i = 0; i < t.ops[j].refCount; ++i)
        if (TapeRef r = resolve(t, t.opRefs(t.ops[j])[i]); r.op >= 0)
          need[r.op] = 1;
  // The structure: operations, how their operands connect (arguments
  // numbered as first used), the results returned.
  std::vector<int32_t> newIndex(n, -1), argIndex(t.args.size(), -1);
  std::vector<int32_t> usedArgs;
  // Per operation in the program: its operands (from refStart[k]).
  std::vector<TapeRef> refs;
  std::vector<uint32_t> refStart;
  refs.reserve(n * 3);
  refStart.reserve(n + 1);
  usedArgs.reserve(t.args.size());
  std::vector<uint32_t> locations;
  locations.reserve(n);
  std::string key;
  key.reserve(16 + n * 16 + outs.size() * 8);
  uintptr_t q = reinterpret_cast<uintptr_t>(t.queue);
  key.append(reinterpret_cast<const char *>(&q), sizeof(q));
  for (size_t j = 0; j < n; ++j) {
    if (!need[j])
      continue;
    newIndex[j] = static_cast<int32_t>(refStart.size());
    refStart.push_back(static_cast<uint32_t>(refs.size()));
    locations.push_back(t.ops[j].location);
    putU32(key, t.ops[j].tmpl->id);
    for (uint32_t i = 0; i < t.ops[j].refCount; ++i) {
      TapeRef r = resolve(t, t.opRefs(t.ops[j])[i]);
      if (r.op < 0) {
        int32_t &a = argIndex[r.index];
        if (a < 0) {
          a = static_cast<int32_t>(usedArgs.size());
          usedArgs.push_back(r.index);
        }
        r.index = a;
      } else {
        r.op = newIndex[r.op];
      }
      refs.push_back(r);
      putU32(key, static_cast<uint32_t>(r.op));
      putU32(key, static_cast<uint32_t>(r.index));
    }
  }
  putU32(key, 0xffffffffu);
  size_t count = refStart.size(); // operations in the program
  refStart.push_back(static_cast<uint32_t>(refs.size()));
  for (const TapeRef &o : outs) {
    putU32(key, static_cast<uint32_t>(newIndex[o.op]));
    putU32(key, static_cast<uint32_t>(o.index));
  }
  int32_t flushIndex = -1;
  if (learn && keepLearning)
    flushIndex = learnKeeping(t, need, newIndex, key, outs);
  nb::list targets, shapes;
  for (const TapeRef &o : outs) {
    const TapeOp &op = t.ops[o.op];
    const TapeResult &res = t.result(o);
    targets.append(lazyBufferToken(res.buffer, res.id));
    shapes.append(op.tmpl->results[o.index].shapeObj);
  }
  bool allSmall = true;
  for (size_t j = 0; j < n && allSmall; ++j)
    if (need[j] && !t.ops[j].small)
      allSmall = false;
  try {
    nb::object program;
    auto it = programs.find(key);
    if (it != programs.end()) {
      program = it->second;
      ++stats.reused;
    } else if (allSmall && (count == 1 || !smallSeen.count(key))) {
      // Small operations whose structure has no program yet: eagerly, as
      // they would have run (nothing to fuse in one operation); the same
      // structure submitted again is compiled.
      if (count > 1) {
        if (smallSeen.size() >= kMaxSmallSeen)
          smallSeen.clear();
        smallSeen.emplace(std::move(key), 1);
      }
      ++stats.smallEager;
      ++stats.graphs;
      stats.operations += count;
      runEagerly(t, need, outs);
      noteFlushed(t, need, newIndex, outs, flushIndex);
      return;
    } else {
      smallSeen.erase(key);
      if (!compiler.is_valid())
        throw Error(ErrorKind::Runtime, "lazy execution: no tape compiler");
      nb::list ops, results;
      for (size_t j = 0, k = 0; j < n; ++j) {
        if (!need[j])
          continue;
        nb::list operands;
        for (uint32_t i = refStart[k]; i < refStart[k + 1]; ++i)
          if (const TapeRef &r = refs[i]; r.op < 0)
            operands.append(r.index);
          else
            operands.append(nb::make_tuple(r.op, r.index));
        ops.append(nb::make_tuple(t.ops[j].tmpl->py, nb::tuple(operands)));
        ++k;
      }
      for (const TapeRef &o : outs)
        results.append(nb::make_tuple(newIndex[o.op], o.index));
      // (Python counts the programs it compiles or finds in its cache.)
      program = compiler(ops, results);
      if (programs.size() >= kMaxPrograms)
        programs.clear();
      programs.emplace(std::move(key), program);
    }
    nb::list args;
    for (int32_t i : usedArgs)
      args.append(t.args[i]);
    ++stats.graphs;
    stats.operations += count;
    nb::inst_ptr<Program>(program)->call(args, shapes, targets,
                                         std::move(locations));
    noteFlushed(t, need, newIndex, outs, flushIndex);
  } catch (const std::exception &e) {
    failResults(t, outs, e);
  }
}

/// The results of the tape still pending and referenced.
std::vector<TapeRef> liveResults(const Tape &t) {
  std::vector<TapeRef> live;
  for (size_t j = 0; j < t.ops.size(); ++j)
    for (uint32_t r = 0; r < t.ops[j].resCount; ++r)
      if (const TapeResult &res = t.results[t.ops[j].resStart + r];
          res.producedArg < 0 && res.buffer.use_count() > 1)
        live.push_back({static_cast<int32_t>(j), static_cast<int32_t>(r)});
  return live;
}

} // namespace

void tapeFlush(const char *reason, uint64_t wanted) {
  if (!tapePending())
    return;
  // (Waits for another thread's submission: its results may be needed.)
  TapeLock lock;
  if (tape.ops.empty())
    return;
  InFlight flight;
  ++boundaries[reason];
  std::vector<TapeRef> live = liveResults(tape);
  if (wanted && live.size() > 1) {
    // One result is needed and others are referenced too: run what it
    // needs; the rest stays recorded (computed when needed, or never if
    // it dies first), reading the result as an argument.
    for (const TapeRef &w : live) {
      TapeOp &op = tape.ops[w.op];
      if (tape.result(w).id != wanted)
        continue;
      if (op.resCount != 1)
        break; // (one result of several: all of them run)
      uint64_t generation = tapeGeneration;
      // (What an earlier run of the same structure learnt to keep for a
      // later flush is computed and kept too.)
      std::vector<TapeRef> outs{w};
      runCone(tape, outs, /*learn=*/true);
      if (generation != tapeGeneration)
        return; // (a nested submission took the tape: nothing left here)
      for (const TapeRef &o : outs) {
        TapeOp &ran = tape.ops[o.op];
        const TapeTemplate::Result &res = ran.tmpl->results[o.index];
        nb::object done =
            lazyBufferArray(tape.result(o).buffer, res.dtype, res.shape);
        tape.result(o).producedArg = static_cast<int32_t>(tape.args.size());
        tape.args.push_back(done);
        tape.argIsArray.push_back(true);
        lazyMarkRead(*nb::inst_ptr<ArrayCore>(done)->buffer, 1);
      }
      return;
    }
  }
  Tape t = std::move(tape);
  tape = Tape();
  ++tapeGeneration;
  struct Unmark {
    Tape &t;
    ~Unmark() {
      for (size_t i = 0; i < t.args.size(); ++i)
        if (t.argIsArray[i])
          lazyMarkRead(*nb::inst_ptr<ArrayCore>(t.args[i])->buffer, -1);
    }
  } unmark{t};
  if (live.empty()) {
    ++stats.noLive;
    return;
  }
  runCone(t, live);
}

namespace {
/// The tape's operations for Python's recorder to adopt (it then owns
/// them as a pending graph): (ops, args) with ops (template, refs, tokens,
/// source point),
/// or None when the tape is empty.
nb::object takeTape() {
  if (tape.ops.empty())
    return nb::none();
  TapeLock lock;
  Tape t = std::move(tape);
  tape = Tape();
  ++tapeGeneration;
  struct Unmark { // (Python counts its own reads)
    Tape &t;
    ~Unmark() {
      for (size_t i = 0; i < t.args.size(); ++i)
        if (t.argIsArray[i])
          lazyMarkRead(*nb::inst_ptr<ArrayCore>(t.args[i])->buffer, -1);
    }
  } unmark{t};
  if (liveResults(t).empty())
    return nb::none(); // (nothing left to adopt)
  // Ops whose result was submitted already are left out (it is an
  // argument now), and so are the arguments only they read.
  nb::list ops, args;
  std::vector<int32_t> newIndex(t.ops.size(), -1);
  std::vector<int32_t> argIndex(t.args.size(), -1);
  int32_t count = 0, numArgs = 0;
  for (size_t j = 0; j < t.ops.size(); ++j) {
    const TapeOp &op = t.ops[j];
    if (t.results[op.resStart].producedArg >= 0)
      continue;
    newIndex[j] = count++;
    nb::list refs, tokens;
    for (uint32_t i = 0; i < op.refCount; ++i) {
      TapeRef r = resolve(t, t.opRefs(op)[i]);
      if (r.op >= 0) {
        refs.append(nb::make_tuple(newIndex[r.op], r.index));
        continue;
      }
      int32_t &a = argIndex[r.index];
      if (a < 0) {
        a = numArgs++;
        args.append(t.args[r.index]);
      }
      refs.append(a);
    }
    for (uint32_t r = 0; r < op.resCount; ++r) {
      const TapeResult &res = t.results[op.resStart + r];
      tokens.append(lazyBufferToken(res.buffer, res.id));
    }
    ops.append(nb::make_tuple(op.tmpl->py, refs, tokens, op.location));
  }
  return nb::make_tuple(ops, args);
}
} // namespace

void bindLazyTape(nb::module_ &m) {
  m.def("lazy_tape_take", &takeTape,
        "The recorded operations, for Python's recorder to adopt: (ops, "
        "args), ops (template, refs, tokens, source point); None if there "
        "are none.");
  m.def(
      "lazy_tape_flush",
      [](const std::string &reason) { tapeFlush(reason.c_str()); },
      "Submits the operations the fast path recorded.");
  m.def("lazy_tape_pending", &tapePending,
        "Whether the fast path recorded operations not yet submitted.");
  m.def(
      "lazy_tape_set_compiler", [](nb::object fn) { compiler = std::move(fn); },
      "fn(ops, outs) -> Program: compiles a tape (ops: (template, refs), "
      "refs: argument indices or (op, result); outs: (op, result)).");
  m.def(
      "lazy_tape_limits",
      [](int64_t minimum, size_t maximum, int repeats) {
        minElements = minimum;
        maxOps = std::max<size_t>(maximum, 1);
        smallRepeats = std::max(repeats, 0);
        // (What was learnt about small operations starts again.)
        chains.clear();
        smallSeen.clear();
      },
      nb::arg("minimum"), nb::arg("maximum"), nb::arg("repeats") = 2,
      "Records results of at least `minimum` elements (or with an operand "
      "on the tape; -1: 65536 on the host, all elsewhere), and smaller ones "
      "whose operation was seen in `repeats` chains of small eager "
      "operations (0: never); submits at `maximum` operations. Forgets "
      "which small operations repeat.");
  m.def(
      "lazy_tape_forget",
      [] {
        tapeFlush("what lazy execution learnt was forgotten");
        chains.clear();
        smallSeen.clear();
        programs.clear();
        keepLearnt.clear();
      },
      "Submits the tape, then forgets what was learnt: which small "
      "operations repeat, which small structures were seen, which values "
      "flushes keep, and the programs compiled for tapes.");
  m.def(
      "lazy_tape_keep",
      [](bool on) {
        bool previous = keepLearning;
        keepLearning = on;
        keepLearnt.clear();
        return previous;
      },
      "Whether a flush of one wanted result learns to keep values a later "
      "flush of the same tape computes again (on by default); returns the "
      "previous setting.");
  m.def(
      "lazy_tape_stats",
      [] {
        nb::dict d, b;
        d["recorded"] = stats.recorded;
        d["graphs submitted"] = stats.graphs;
        d["operations submitted"] = stats.operations;
        d["programs reused"] = stats.reused;
        d["graphs without a live result"] = stats.noLive;
        d["small operations recorded"] = stats.smallRecorded;
        d["small graphs run eagerly"] = stats.smallEager;
        size_t pendingOps = 0;
        for (const TapeOp &op : tape.ops)
          pendingOps += tape.results[op.resStart].producedArg < 0;
        d["pending_operations"] = pendingOps;
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
