//===- FastPath.cpp - Eager operations seen before, without Python --------===//
#include "FastPath.h"
#include "Array.h"
#include "LazyTape.h"
#include "Program.h"

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace nb = nanobind;

namespace sluice::py {

namespace {

/// Operations with a C++ operator on ArrayCore, numbered as
/// sluice._dispatch._FAST_OPS numbers them (the others only have fast_call).
enum FastOp : int {
  OpAdd = 0,
  OpSubtract = 1,
  OpMultiply = 2,
  OpDivide = 3,
  NumOperatorOps = 4,
};

/// Operations the table may hold: operators and functions below 128, their
/// "into" forms from kIntoBase, and from 256 the parametrised operations
/// that Python numbers as it meets them (sluice._dispatch.fast_code: an
/// axis reduction is one code per (name, axes, keepdims)).
constexpr int kMaxOps = 4096;
/// Stores into an operand ("into" programs, see tryInto) take codes from
/// here: kIntoBase + 3 * op + the position of the destination.
constexpr int kIntoBase = 128;
/// Entries kept before the table starts afresh.
constexpr size_t kMaxEntries = 8192;

thread_local int tracing = 0;
/// Lazy execution is on (sluice/_lazy.py): operations are recorded by
/// Python, so only the in-place entries (which run at once) are used.
bool lazyMode = false;

/// The bytes of a key: the op, then per operand a tag and its signature.
struct KeyBuffer {
  char bytes[192];
  size_t size = 0;
  bool ok = true;

  void put(const void *p, size_t n) {
    if (size + n > sizeof(bytes)) {
      ok = false;
      return;
    }
    std::memcpy(bytes + size, p, n);
    size += n;
  }
  /// Fixed-size values inline (a key is a dozen of them: a call each was
  /// a tenth of an in-place operation's time).
  template <typename T> void put(T v) {
    if (size + sizeof(T) > sizeof(bytes)) {
      ok = false;
      return;
    }
    std::memcpy(bytes + size, &v, sizeof(T));
    size += sizeof(T);
  }

  /// Eight bytes at a time (a byte-wise hash of a 60-byte key was a
  /// chain of 60 dependent multiplies on every eager operation).
  uint64_t hash() const {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ size;
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      uint64_t w;
      std::memcpy(&w, bytes + i, 8);
      h = (h ^ w) * 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }
    uint64_t tail = 0;
    std::memcpy(&tail, bytes + i, size - i);
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
  }
};

enum Tag : char { TagArray = 'A', TagFloat = 'F', TagInt = 'I', TagBool = 'B' };

/// Appends x's signature; false if x has none (the op takes the slow path).
bool encode(KeyBuffer &key, PyObject *x) {
  PyTypeObject *t = Py_TYPE(x);
  if (t == &PyFloat_Type) {
    key.put(TagFloat);
  } else if (t == &PyBool_Type) {
    key.put(TagBool);
  } else if (t == &PyLong_Type) {
    key.put(TagInt);
  } else if (reinterpret_cast<PyObject *>(t) == arrayTypeHandle().ptr()) {
    const ArrayCore &a = *nb::inst_ptr<ArrayCore>(nb::handle(x));
    key.put(TagArray);
    key.put(a.dtype);
    key.put(static_cast<uint8_t>(a.buffer->kind));
    key.put(a.buffer->queue);
    key.put(static_cast<uint8_t>(a.shape.size()));
    key.put(a.shape.data(), a.shape.size() * sizeof(int64_t));
    // Views and contiguous arrays take different programs.
    key.put(static_cast<uint8_t>(a.cContiguous()));
  } else {
    return false;
  }
  return key.ok;
}

struct Bound {
  size_t operand;
  int64_t lo, hi;
};

struct Entry {
  std::string key;
  nb::object program; // a Program (unset: only recorded so far)
  nb::object shapes;  // the result shapes to pass
  /// What sluice/_lazy.py records the operation with (unset: not yet).
  nb::object lazy;
  /// The same, parsed for the tape (LazyTape.h); null: not taped.
  std::shared_ptr<TapeTemplate> tape;
  std::vector<Bound> bounds;
  /// Lazy mode met an entry that only has a program (registered while
  /// lazy execution was off): 1 while Python resolves the operation once
  /// more (the hits miss, so that Python records it or gives its
  /// template), 2 once anything registered for the key since.
  uint8_t lazyAsk = 0;
};

std::unordered_map<uint64_t, std::vector<Entry>> &table() {
  static auto *t = new std::unordered_map<uint64_t, std::vector<Entry>>;
  return *t;
}
size_t entries = 0;

// Never destroyed: Python may be finalized before static destructors run.
nb::object *fallbacks = new nb::object[NumOperatorOps];

bool makeKey(KeyBuffer &key, int op, PyObject *const *xs, size_t n) {
  key.put(static_cast<uint16_t>(op));
  key.put(static_cast<uint8_t>(n));
  for (size_t i = 0; i < n; ++i)
    if (!encode(key, xs[i]))
      return false;
  return true;
}

/// What a call through an entry uses, held by the caller: the call may run
/// Python or release the GIL, and another thread (or Python code on this
/// one) may then register entries, which moves or frees the table's.
struct Hit {
  nb::object program, shapes, lazy;
  std::shared_ptr<TapeTemplate> tape;
};

/// Lazy execution is on and the entry has no template (its program was
/// registered while lazy execution was off): whether the hit misses, so
/// that the slow path resolves the operation once more in lazy mode and
/// records it or registers its template. Once per entry: what the slow
/// path registers then ends it (an entry that still has no template
/// afterwards cannot be recorded, and runs its program).
bool askForTemplate(Entry &e) {
  if (!lazyMode || e.lazy.is_valid() || e.lazyAsk == 2)
    return false;
  e.lazyAsk = 1;
  return true;
}

/// The entry of op on operands of these signatures (false: none).
bool lookup(int op, PyObject *const *xs, size_t n, Hit &hit,
            bool mayAsk = false) {
  if (tracing || entries == 0)
    return false;
  KeyBuffer key;
  if (!makeKey(key, op, xs, n))
    return false;
  auto it = table().find(key.hash());
  if (it == table().end())
    return false;
  for (Entry &e : it->second) {
    if (e.key.size() != key.size ||
        std::memcmp(e.key.data(), key.bytes, key.size) != 0)
      continue;
    for (const Bound &b : e.bounds) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(xs[b.operand], &overflow);
      if (overflow || v < b.lo || v > b.hi)
        return false; // the slow path raises OverflowError
    }
    if (mayAsk && askForTemplate(e))
      return false;
    hit.program = e.program;
    hit.shapes = e.shapes;
    hit.lazy = e.lazy;
    hit.tape = e.tape;
    return true;
  }
  return false;
}

/// Calls the entry's program on the first `n` operands.
nb::list callEntry(const Hit &e, PyObject *const *xs, size_t n) {
  if (!e.program.is_valid())
    throw nb::value_error("fast path: an entry without a program was called");
  Program *program = nb::inst_ptr<Program>(e.program);
  nb::object args = nb::steal(PyTuple_New(static_cast<Py_ssize_t>(n)));
  for (size_t i = 0; i < n; ++i) {
    Py_INCREF(xs[i]);
    PyTuple_SET_ITEM(args.ptr(), static_cast<Py_ssize_t>(i), xs[i]);
  }
  return program->call(args, e.shapes);
}

/// The result of a call seen before, or a null object.
nb::object &lazyRecorder = *new nb::object;

nb::object tryCall(int op, PyObject *const *xs, size_t n) {
  Hit hit;
  if (!lookup(op, xs, n, hit, /*mayAsk=*/true))
    return nb::object();
  const Hit *e = &hit;
  if (lazyMode && e->tape) {
    // Recorded, not run, by the tape (no Python), unless Python records.
    nb::object r;
    TapeOutcome outcome = tapeRecord(e->tape, xs, n, r, e->program, e->shapes);
    if (outcome == TapeOutcome::Recorded)
      return r;
    if (outcome == TapeOutcome::Eager && e->program.is_valid()) {
      nb::object result = callEntry(*e, xs, n)[0];
      tapeEagerRan(*e->tape, result); // (small: chains are counted)
      return result;
    }
  }
  if (lazyMode && e->lazy.is_valid() && lazyRecorder.is_valid()) {
    // Recorded, not run: Python maps the operands into the pending graph
    // with what it resolved the first time (no type resolution again).
    nb::object args = nb::steal(PyTuple_New(static_cast<Py_ssize_t>(n)));
    for (size_t i = 0; i < n; ++i) {
      Py_INCREF(xs[i]);
      PyTuple_SET_ITEM(args.ptr(), static_cast<Py_ssize_t>(i), xs[i]);
    }
    nb::object r = lazyRecorder(e->lazy, args);
    if (!r.is_none())
      return r;
    // Not worth recording (a small result): run it now if we can.
  }
  if (!e->program.is_valid())
    return nb::object();
  nb::list results = callEntry(*e, xs, n);
  return results[0];
}

bool isArray(PyObject *x) {
  return reinterpret_cast<PyObject *>(Py_TYPE(x)) == arrayTypeHandle().ptr();
}

/// `out[...] = op(x1, x2)` through a program that stores into out, seen
/// before (Python registers it under op's code in the "into" range, which
/// also says which operand, if any, is out itself). Only for a contiguous,
/// writable out that other operands overlap only as the very same view.
bool tryInto(int op, PyObject *x1, PyObject *x2, PyObject *out) {
  if (tracing || entries == 0 || !isArray(out))
    return false;
  const ArrayCore &o = *nb::inst_ptr<ArrayCore>(nb::handle(out));
  if (o.buffer->readOnly || !o.cContiguous())
    return false;
  int position = x1 == out ? 0 : x2 == out ? 1 : 2;
  for (PyObject *x : {x1, x2}) {
    if (x == out || !isArray(x))
      continue;
    const ArrayCore &a = *nb::inst_ptr<ArrayCore>(nb::handle(x));
    if (a.buffer == o.buffer &&
        (a.offset != o.offset || a.shape != o.shape || a.strides != o.strides))
      return false;
  }
  PyObject *xs[3] = {x1, x2, out};
  Hit e;
  if (!lookup(kIntoBase + 3 * op + position, xs, 3, e) || !e.program.is_valid())
    return false;
  callEntry(e, xs, position == 2 ? 3 : 2);
  return true;
}

/// The lock of in-place operators (`a += b`): the Python path computes
/// the result, then copies it into `a`, two submissions that must be
/// adjacent in queue order (an update from another thread reads either
/// before both or after both, and none is lost). Re-entrant; taken and
/// given back with the GIL held, waited for without it.
struct InplaceLock {
  unsigned long owner = 0;
  int depth = 0;
  std::mutex mutex;
  std::condition_variable freed;
  std::atomic<bool> busy{false};

  bool tryAcquire() {
    unsigned long me = PyThread_get_thread_ident();
    if (depth == 0) {
      owner = me;
      depth = 1;
      busy.store(true);
      return true;
    }
    if (owner != me)
      return false;
    ++depth;
    return true;
  }
  void acquire() {
    while (!tryAcquire()) {
      nb::gil_scoped_release release;
      std::unique_lock<std::mutex> lock(mutex);
      freed.wait(lock, [&] { return !busy.load(); });
    }
  }
  void release() {
    if (depth == 0 || owner != PyThread_get_thread_ident())
      throw nb::value_error("in-place lock released by a thread that does "
                            "not hold it");
    if (--depth > 0)
      return;
    owner = 0;
    {
      std::lock_guard<std::mutex> lock(mutex);
      busy.store(false);
    }
    freed.notify_all();
  }
};

InplaceLock &inplaceLock = *new InplaceLock;

/// The Python functions of in-place operators, called when the fast path
/// does not take the operation: fn(self, other) -> self.
nb::object *inplaceFallbacks = new nb::object[kIntoBase / 3];

/// `self op= other`: one "into" program seen before, under the in-place
/// lock; else the Python path (which waits for the lock if another thread
/// holds it).
nb::object inplaceOperator(int op, nb::handle self, nb::handle other) {
  if (inplaceLock.tryAcquire()) {
    bool done;
    try {
      done = tryInto(op, self.ptr(), other.ptr(), self.ptr());
    } catch (...) {
      inplaceLock.release();
      throw;
    }
    inplaceLock.release();
    if (done)
      return nb::borrow(self);
  }
  nb::object &fallback = inplaceFallbacks[op];
  if (!fallback.is_valid())
    return nb::borrow(Py_NotImplemented);
  return fallback(self, other);
}

void registerEntry(int op, nb::tuple operands, nb::object program,
                   nb::object shapes, nb::list bounds) {
  if (op < 0 || op >= kMaxOps || program.is_none())
    throw nb::value_error("fast_register: bad operation or program");
  std::vector<PyObject *> xs;
  for (nb::handle h : operands)
    xs.push_back(h.ptr());
  KeyBuffer key;
  if (!makeKey(key, op, xs.data(), xs.size()))
    return; // an operand without a signature: nothing to remember
  Entry e;
  e.key.assign(key.bytes, key.size);
  // (Registered in lazy mode: the slow path gave its template already if
  // it has one.)
  e.lazyAsk = lazyMode ? 2 : 0;
  bool recorded = !program.is_none() && !nb::isinstance<Program>(program);
  if (recorded) {
    e.tape = makeTapeTemplate(program);
    e.lazy = std::move(program); // a template of sluice/_lazy.py
  } else
    e.program = std::move(program);
  e.shapes = std::move(shapes);
  for (nb::handle b : bounds) {
    nb::tuple t = nb::cast<nb::tuple>(b);
    e.bounds.push_back({nb::cast<size_t>(t[0]), nb::cast<int64_t>(t[1]),
                        nb::cast<int64_t>(t[2])});
  }
  if (entries >= kMaxEntries) {
    table().clear();
    entries = 0;
  }
  auto &bucket = table()[key.hash()];
  for (Entry &old : bucket)
    if (old.key == e.key) {
      old.lazyAsk = 2; // (resolved again, or registered afresh)
      if (recorded) {
        old.lazy = std::move(e.lazy);
        old.tape = std::move(e.tape);
      } else {
        nb::object lazy = std::move(old.lazy);
        std::shared_ptr<TapeTemplate> tape = std::move(old.tape);
        old = std::move(e);
        old.lazy = std::move(lazy);
        old.tape = std::move(tape);
      }
      return;
    }
  bucket.push_back(std::move(e));
  ++entries;
}

/// `self op other` (or `other op self` when reflected).
nb::object binaryOperator(int op, nb::handle self, nb::handle other,
                          bool reflected) {
  PyObject *xs[2] = {self.ptr(), other.ptr()};
  if (reflected)
    std::swap(xs[0], xs[1]);
  nb::object r = tryCall(op, xs, 2);
  if (r.is_valid())
    return r;
  nb::object &fallback = fallbacks[op];
  if (!fallback.is_valid())
    return nb::borrow(Py_NotImplemented);
  return fallback(nb::handle(xs[0]), nb::handle(xs[1]));
}

nb::object &getFallback = *new nb::object;
nb::object &setFallback = *new nb::object;

/// The view `self[key]` for basic keys (integers, slices, None, one
/// Ellipsis); false when the key is anything else or out of range (the
/// Python path then raises NumPy's error or handles it).
bool basicView(const ArrayCore &self, PyObject *key, ArrayCore &view) {
  PyObject *single[1] = {key};
  PyObject *const *items = single;
  Py_ssize_t n = 1;
  if (PyTuple_Check(key)) {
    items = &PyTuple_GET_ITEM(key, 0);
    n = PyTuple_GET_SIZE(key);
  }
  size_t used = 0;
  int ellipses = 0;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *k = items[i];
    PyTypeObject *t = Py_TYPE(k);
    if (k == Py_Ellipsis)
      ++ellipses;
    else if (t == &PyLong_Type || t == &PySlice_Type)
      ++used;
    else if (k != Py_None)
      return false;
  }
  size_t rank = self.shape.size();
  if (ellipses > 1 || used > rank)
    return false;
  view.buffer = self.buffer;
  view.dtype = self.dtype;
  view.offset = self.offset;
  view.shape.clear();
  view.strides.clear();
  size_t axis = 0;
  auto takeRest = [&](size_t count) {
    for (size_t j = 0; j < count; ++j, ++axis) {
      view.shape.push_back(self.shape[axis]);
      view.strides.push_back(self.strides[axis]);
    }
  };
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *k = items[i];
    if (k == Py_None) {
      view.shape.push_back(1);
      view.strides.push_back(0);
    } else if (k == Py_Ellipsis) {
      // Every axis the rest of the key does not index.
      size_t later = 0;
      for (Py_ssize_t j = i + 1; j < n; ++j)
        later += items[j] != Py_None && items[j] != Py_Ellipsis;
      takeRest(rank - axis - later);
    } else if (Py_TYPE(k) == &PySlice_Type) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(k, &start, &stop, &step) < 0) {
        PyErr_Clear();
        return false;
      }
      Py_ssize_t len = PySlice_AdjustIndices(
          static_cast<Py_ssize_t>(self.shape[axis]), &start, &stop, step);
      view.offset += static_cast<int64_t>(start) * self.strides[axis];
      view.shape.push_back(len);
      view.strides.push_back(self.strides[axis] * step);
      ++axis;
    } else {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(k, &overflow);
      int64_t size = self.shape[axis];
      if (overflow || v < -size || v >= size)
        return false;
      if (v < 0)
        v += size;
      view.offset += v * self.strides[axis];
      ++axis;
    }
  }
  takeRest(rank - axis);
  return true;
}

nb::object getItem(nb::handle self, nb::handle key) {
  ArrayCore view;
  if (basicView(*nb::inst_ptr<ArrayCore>(self), key.ptr(), view))
    return wrapArray(std::move(view));
  return getFallback(self, key);
}

/// Whether integer `v` (read as unsigned when `isUnsigned`) fits T, and
/// then its bytes in `out`.
template <typename T>
bool storeIfFits(long long v, bool isUnsigned, char *out) {
  using Limits = std::numeric_limits<T>;
  bool fits;
  if (isUnsigned)
    fits = static_cast<unsigned long long>(v) <=
           static_cast<unsigned long long>(Limits::max());
  else if (Limits::is_signed)
    fits = v >= static_cast<long long>(Limits::min()) &&
           v <= static_cast<long long>(Limits::max());
  else
    fits = v >= 0 && static_cast<unsigned long long>(v) <=
                         static_cast<unsigned long long>(Limits::max());
  if (!fits)
    return false;
  T t = static_cast<T>(v);
  std::memcpy(out, &t, sizeof(T));
  return true;
}

/// Whether integer `v` fits integer dtype `dtype`, and then its bytes in
/// `out`.
bool storeInteger(long long v, bool isUnsigned, uint8_t dtype, char *out) {
  switch (dtype) {
  case I8:
    return storeIfFits<int8_t>(v, isUnsigned, out);
  case I16:
    return storeIfFits<int16_t>(v, isUnsigned, out);
  case I32:
    return storeIfFits<int32_t>(v, isUnsigned, out);
  case I64:
    return storeIfFits<int64_t>(v, isUnsigned, out);
  case U8:
    return storeIfFits<uint8_t>(v, isUnsigned, out);
  case U16:
    return storeIfFits<uint16_t>(v, isUnsigned, out);
  case U32:
    return storeIfFits<uint32_t>(v, isUnsigned, out);
  case U64:
    return storeIfFits<uint64_t>(v, isUnsigned, out);
  default:
    return false;
  }
}

/// The bytes of Python scalar `x` (a bool, int or float, not a subclass)
/// as an element of `dtype`, where the conversion is exact NumPy
/// behaviour without warnings or errors; false otherwise (the Python path
/// then converts, warns or raises as NumPy does).
bool scalarElement(PyObject *x, uint8_t dtype, char *out) {
  PyTypeObject *t = Py_TYPE(x);
  double d;
  auto storeReal = [&](double v) {
    switch (dtype) {
    case F32: {
      float f = static_cast<float>(v);
      if (std::isfinite(v) && !std::isfinite(f))
        return false; // NumPy warns of the overflow
      std::memcpy(out, &f, 4);
      return true;
    }
    case F64:
      std::memcpy(out, &v, 8);
      return true;
    case C64: {
      float f[2] = {static_cast<float>(v), 0.0f};
      if (std::isfinite(v) && !std::isfinite(f[0]))
        return false;
      std::memcpy(out, f, 8);
      return true;
    }
    case C128: {
      double c[2] = {v, 0.0};
      std::memcpy(out, c, 16);
      return true;
    }
    default:
      return false; // float16 and the rest: the Python path
    }
  };
  if (t == &PyBool_Type) {
    bool b = x == Py_True;
    if (dtype == Bool) {
      *out = b;
      return true;
    }
    if (dtype == F16) {
      uint16_t h = b ? 0x3c00 : 0;
      std::memcpy(out, &h, 2);
      return true;
    }
    return storeInteger(b, false, dtype, out) || storeReal(b ? 1.0 : 0.0);
  }
  if (t == &PyLong_Type) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
    bool isUnsigned = false;
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(x);
      if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
      }
      v = static_cast<long long>(u);
      isUnsigned = true;
    } else if (overflow < 0) {
      return false;
    } else if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    if (dtype == Bool) {
      *out = v != 0;
      return true;
    }
    if (dtype >= I8 && dtype <= U64)
      return storeInteger(v, isUnsigned, dtype, out);
    d = isUnsigned ? static_cast<double>(static_cast<unsigned long long>(v))
                   : static_cast<double>(v);
    // Integers beyond 2**53 round on the way: NumPy rounds the same way
    // for float64, but float32 would round twice: the Python path.
    if (dtype != F64 && dtype != C128 && std::fabs(d) > 9007199254740992.0)
      return false;
    return storeReal(d);
  }
  if (t == &PyFloat_Type) {
    d = PyFloat_AS_DOUBLE(x);
    if (dtype == Bool) {
      *out = d != 0.0; // NaN is true, as in NumPy
      return true;
    }
    if (dtype >= I8 && dtype <= U64) {
      // Truncated toward zero, within the type's range (NumPy raises or
      // warns otherwise: the Python path).
      if (!std::isfinite(d))
        return false;
      double tr = std::trunc(d);
      if (tr < -9223372036854775808.0 || tr >= 9223372036854775808.0)
        return false;
      return storeInteger(static_cast<long long>(tr), false, dtype, out);
    }
    return storeReal(d);
  }
  return false;
}

/// `self[key] = value` for basic keys and an array value of the same
/// dtype and queue (broadcast to the view), or a Python bool, int or float
/// that the destination's dtype holds exactly as NumPy converts it; else
/// the Python path.
void setItem(nb::handle self, nb::handle key, nb::handle value) {
  ArrayCore &dst = *nb::inst_ptr<ArrayCore>(self);
  ArrayCore view;
  PyTypeObject *vt = Py_TYPE(value.ptr());
  if ((vt == &PyFloat_Type || vt == &PyLong_Type || vt == &PyBool_Type) &&
      !dst.buffer->readOnly) {
    alignas(16) char element[16];
    if (scalarElement(value.ptr(), dst.dtype, element) &&
        basicView(dst, key.ptr(), view)) {
      submitFill(view, element);
      return;
    }
  }
  if (vt == reinterpret_cast<PyTypeObject *>(arrayTypeHandle().ptr()) &&
      !dst.buffer->readOnly && basicView(dst, key.ptr(), view)) {
    const ArrayCore &src = *nb::inst_ptr<ArrayCore>(value);
    if (src.dtype == dst.dtype && src.buffer->queue == dst.buffer->queue &&
        src.shape == view.shape) {
      submitCopy(view, src);
      return;
    }
    if (src.dtype == dst.dtype && src.buffer->queue == dst.buffer->queue &&
        src.shape.size() <= view.shape.size()) {
      // Broadcast src to the view's shape (zero strides), as NumPy does.
      ArrayCore from = src;
      size_t pad = view.shape.size() - src.shape.size();
      from.shape.assign(view.shape.begin(), view.shape.end());
      from.strides.assign(view.shape.size(), 0);
      bool ok = true;
      for (size_t d = 0; d < src.shape.size(); ++d) {
        int64_t want = view.shape[pad + d], have = src.shape[d];
        if (have == want)
          from.strides[pad + d] = src.strides[d];
        else if (have != 1)
          ok = false;
      }
      if (ok) {
        submitCopy(view, from);
        return;
      }
    }
  }
  setFallback(self, key, value);
}

} // namespace

void bindFastPath(nb::module_ &m, nb::class_<ArrayCore> &c) {
  m.def("fast_register", &registerEntry, nb::arg("op"), nb::arg("operands"),
        nb::arg("program"), nb::arg("shapes"), nb::arg("bounds"),
        "Remembers that op on operands of these signatures runs program "
        "with these result shapes (integer scalar operands within bounds: "
        "(index, lo, hi)).");
  m.def(
      "fast_call",
      [](int op, nb::args xs) -> nb::object {
        std::vector<PyObject *> v;
        for (nb::handle h : xs)
          v.push_back(h.ptr());
        nb::object r = tryCall(op, v.data(), v.size());
        return r.is_valid() ? r : nb::none();
      },
      "The result of op on operands seen before, else None.");
  m.def(
      "fast_into",
      [](int op, nb::handle x1, nb::handle x2, nb::handle out) {
        if (op < 0 || kIntoBase + 3 * op + 2 >= kMaxOps)
          throw nb::value_error("fast_into: bad operation");
        return tryInto(op, x1.ptr(), x2.ptr(), out.ptr());
      },
      "Runs out[...] = op(x1, x2) if a program for these signatures was "
      "registered (under code 128 + 3 * op + the position of out among x1, "
      "x2, else 2); False otherwise.");
  m.def("fast_clear", [] {
    table().clear();
    entries = 0;
  });
  m.def("fast_size", [] { return entries; });
  m.def(
      "fast_set_lazy_recorder",
      [](nb::object fn) { lazyRecorder = std::move(fn); },
      "The function fast-path hits call in lazy mode: fn(template, "
      "operands) -> the result array, or None to take the slow path.");
  m.def(
      "fast_lazy", [](bool on) { lazyMode = on; },
      "Whether eager operations are recorded (the fast path then only runs "
      "in-place operations).");
  m.def(
      "set_fast_fallback",
      [](int op, nb::object fn) {
        if (op < 0 || op >= NumOperatorOps)
          throw nb::value_error("set_fast_fallback: not an operator");
        fallbacks[op] = std::move(fn);
      },
      "The Python function an operator calls when the fast path misses.");
  m.def(
      "trace_depth",
      [](int delta) {
        tracing += delta;
        return tracing;
      },
      "Adds delta to this thread's count of active traces.");

  m.def(
      "set_index_fallbacks",
      [](nb::object get, nb::object set) {
        getFallback = std::move(get);
        setFallback = std::move(set);
      },
      "The Python functions indexing calls for keys the C++ path does not "
      "take.");
  m.def(
      "set_inplace_fallback",
      [](int op, nb::object fn) {
        if (op < 0 || op >= kIntoBase / 3)
          throw nb::value_error("set_inplace_fallback: bad operation");
        inplaceFallbacks[op] = std::move(fn);
      },
      "The Python function an in-place operator calls when the fast path "
      "does not take it: fn(self, other) -> self.");
  m.def(
      "inplace_lock_acquire", [] { inplaceLock.acquire(); },
      "Takes the in-place operators' lock (re-entrant; waits without the "
      "GIL).");
  m.def(
      "inplace_lock_release", [] { inplaceLock.release(); },
      "Gives the in-place operators' lock back.");
  struct InplaceSpec {
    const char *name;
    int op;
  };
  // Numbered as sluice._dispatch._FAST_OPS (add, subtract, multiply,
  // divide, floor_divide, remainder). `**=` stays in Python: integer
  // powers check the exponent's sign first.
  static const InplaceSpec inplace[] = {
      {"__iadd__", 0},     {"__isub__", 1},      {"__imul__", 2},
      {"__itruediv__", 3}, {"__ifloordiv__", 4}, {"__imod__", 5},
  };
  for (const InplaceSpec &spec : inplace) {
    int op = spec.op;
    c.def(spec.name, [op](nb::handle self, nb::handle other) {
      return inplaceOperator(op, self, other);
    });
  }
  // `x[None]`: the key may be None (nanobind refuses None by default).
  c.def("__getitem__", &getItem, nb::arg("key").none());
  c.def("__setitem__", &setItem, nb::arg("key").none(), nb::arg("value"));

  struct OperatorSpec {
    const char *name, *reflected;
    int op;
  };
  static const OperatorSpec ops[] = {
      {"__add__", "__radd__", OpAdd},
      {"__sub__", "__rsub__", OpSubtract},
      {"__mul__", "__rmul__", OpMultiply},
      {"__truediv__", "__rtruediv__", OpDivide},
  };
  for (const OperatorSpec &spec : ops) {
    int op = spec.op;
    c.def(spec.name, [op](nb::handle self, nb::handle other) {
      return binaryOperator(op, self, other, false);
    });
    c.def(spec.reflected, [op](nb::handle self, nb::handle other) {
      return binaryOperator(op, self, other, true);
    });
  }
}

} // namespace sluice::py
