//===- Program.cpp - Calling compiled entry points on arrays --------------===//
#include "Program.h"
#include "Errors.h"
#include "Lazy.h"
#include "Sizes.h"
#include "SmallVector.h"

#include "sluice-c/Program.h"
#include "sluice-c/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace nb = nanobind;

namespace sluice::py {

namespace {

nb::handle arrayType;

/// IEEE binary16 bits of `v`, rounded to nearest even.
uint16_t floatToHalf(float v) {
  uint32_t x;
  std::memcpy(&x, &v, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t mant = x & 0x7fffffu;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xffu);
  if (exp == 0xff) // inf or nan
    return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u));
  int32_t e = exp - 127 + 15;
  if (e >= 0x1f)
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10)
      return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1u)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // may carry into the exponent, up to infinity: correct
  return static_cast<uint16_t>(sign | half);
}

/// The float of IEEE binary16 bits.
float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp == 0) {
    // Zero or subnormal: mant * 2^-24, exact in a float.
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

/// Fields of an array in the results struct: allocated, aligned, offset,
/// sizes, strides.
size_t arrayFields(const ValueSpec &v) { return 3 + 2 * v.shape.size(); }

/// Slots of an argument: an array's fields; a view's 1-D base (5 fields),
/// then its offset, sizes and strides; a scalar's one.
size_t argumentSlots(const ValueSpec &v) {
  if (!v.isArray)
    return 1;
  return v.view ? 6 + 2 * v.shape.size() : arrayFields(v);
}

/// Size and alignment of a result in the results struct (the LLVM struct of
/// the results: 8-byte fields for an array, a scalar at its own size).
std::pair<size_t, size_t> resultLayout(const ValueSpec &v) {
  if (v.isArray)
    return {8 * arrayFields(v), 8};
  size_t size = itemSize(v.dtype);
  return {size, size};
}

/// A Python number of a scalar result's bits.
nb::object scalarObject(uint64_t bits, int dtype) {
  auto as = [&](auto v) {
    std::memcpy(&v, &bits, sizeof(v));
    return v;
  };
  switch (dtype) {
  case Bool:
    return nb::bool_((bits & 0xff) != 0);
  case I8:
    return nb::int_(as(int8_t()));
  case I16:
    return nb::int_(as(int16_t()));
  case I32:
    return nb::int_(as(int32_t()));
  case I64:
    return nb::int_(as(int64_t()));
  case U8:
    return nb::int_(as(uint8_t()));
  case U16:
    return nb::int_(as(uint16_t()));
  case U32:
    return nb::int_(as(uint32_t()));
  case U64:
    return nb::int_(as(uint64_t()));
  case F16:
    return nb::float_(halfToFloat(as(uint16_t())));
  case F32:
    return nb::float_(as(float()));
  default:
    return nb::float_(as(double()));
  }
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += shape[i] < 0 ? "?" : std::to_string(shape[i]);
  }
  return s + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

/// A call of a Program: its packed arguments, the buffers it uses and its
/// results. The short lists live inside the task (SmallVector), and run()
/// keeps its own on the stack: a small call makes no allocation for them.
class CallTask : public Task {
public:
  EntryPoint entry;
  SmallVector<uint64_t, 32> slots;
  struct PointerSlot {
    std::shared_ptr<Buffer> buffer;
    int64_t byteOffset = 0;
    uint32_t slot = 0;
    /// The program writes this argument.
    bool written = false;
  };
  SmallVector<PointerSlot, 4> pointers;
  /// Buffers of the array results (data filled in by run(); empty for
  /// scalar results), their types, offsets in the results struct and
  /// shapes. Weak: the arrays own them, and a result nobody holds any
  /// more by the time the call runs is freed at once.
  SmallVector<std::weak_ptr<Buffer>, 2> outputs;
  std::shared_ptr<const std::vector<ValueSpec>> specs;
  std::shared_ptr<const std::vector<size_t>> offsets;
  /// The sizes of the array results, one result after another (result r's
  /// from dimStart(r) on, rank(r) of them).
  SmallVector<int64_t, 8> dims;
  /// Results whose shape the call reports (dynamic sizes the caller did
  /// not give): run() fills in their sizes and the buffer's size.
  SmallVector<uint8_t, 2> shapeFromCall;
  /// The bits of scalar results (filled in by run()).
  SmallVector<uint64_t, 2> scalars;
  size_t resultBytes = 0;
  std::shared_ptr<const std::string> programName;
  /// Source points of the lazily recorded operations it runs.
  std::vector<uint32_t> locations;

  size_t rank(size_t r) const {
    const ValueSpec &spec = (*specs)[r];
    return spec.isArray ? spec.shape.size() : 0;
  }
  size_t dimStart(size_t r) const {
    size_t start = 0;
    for (size_t e = 0; e < r; ++e)
      start += rank(e);
    return start;
  }
  const int64_t *shapeData(size_t r) const { return dims.data() + dimStart(r); }
  std::vector<int64_t> shape(size_t r) const {
    const int64_t *d = shapeData(r);
    return std::vector<int64_t>(d, d + rank(r));
  }

  /// After an asynchronous entry: keeps the completion event of its work
  /// when all of it went to `ordersOn`, else waits for it here.
  int32_t takeLaunched(int32_t status, std::string &message) {
    sluiceProgramSetThreadAsynchronous(-1);
    constexpr uint32_t kMax = 8;
    SluiceEvent events[kMax] = {};
    SluiceQueue queues[kMax] = {};
    uint32_t n = sluiceProgramTakeEvents(events, queues, kMax);
    uint32_t kept = std::min(n, kMax);
    if (status == 0 && n == 1 && queues[0] == ordersOn) {
      launched.push_back(events[0]);
      launchedOn = ordersOn;
      return 0;
    }
    // Work on other queues too (or a failed submission): nothing of the
    // call may run once it returns.
    SluiceStatus waited =
        kept ? sluiceEventsWait(kept, events) : SLUICE_SUCCESS;
    for (uint32_t i = 0; i < kept; ++i)
      sluiceEventRelease(events[i]);
    if (n > kMax)
      for (SluiceQueue q : queues)
        sluiceQueueWait(q);
    if (status == 0 && waited != SLUICE_SUCCESS) {
      const char *msg = sluiceGetLastErrorMessage();
      message = msg && *msg ? msg : "a device task failed";
      return waited;
    }
    return status;
  }

  /// The result struct the entry filled in.
  struct Results {
    SmallVector<uint64_t, 32> storage;
    const std::vector<size_t> *offsets = nullptr;
    /// The fields of array result r: allocated, aligned, offset, sizes,
    /// strides.
    const uint64_t *fields(size_t r) const {
      return reinterpret_cast<const uint64_t *>(
          reinterpret_cast<const char *>(storage.data()) + (*offsets)[r]);
    }
    void *allocated(size_t r) const {
      return reinterpret_cast<void *>(fields(r)[0]);
    }
  };

  SluiceStatus run(std::string &message) override {
    SmallVector<void *, 8> inputs;
    for (const PointerSlot &p : pointers) {
      char *ptr = p.buffer->data + p.byteOffset;
      uint64_t bits = reinterpret_cast<uintptr_t>(ptr);
      slots[p.slot] = bits;
      slots[p.slot + 1] = bits;
      inputs.push_back(ptr);
    }
    Results res;
    res.offsets = offsets.get();
    res.storage.assign(resultBytes / 8 + 1, 0);
    SmallVector<void *, 33> argv;
    argv.resize(slots.size() + 1);
    for (size_t i = 0; i < slots.size(); ++i)
      argv[i] = &slots[i];
    argv[slots.size()] = res.storage.data();
    if (ordersOn)
      sluiceProgramSetThreadAsynchronous(1);
    int32_t status = entry(argv.data());
    if (ordersOn)
      status = takeLaunched(status, message);
    SmallVector<std::shared_ptr<Buffer>, 2> outs;
    outs.resize(outputs.size());
    for (size_t r = 0; r < outputs.size(); ++r)
      outs[r] = outputs[r].lock();
    SmallVector<void *, 2> produced;
    for (size_t r = 0; r < outputs.size(); ++r) {
      if (!(*specs)[r].isArray)
        continue;
      void *alloc = res.allocated(r);
      bool isInput = false;
      for (void *in : inputs)
        isInput |= in == alloc;
      bool seen = false;
      for (void *p : produced)
        seen |= p == alloc;
      if (alloc && !isInput && !seen)
        produced.push_back(alloc);
    }
    if (status != 0) {
      const char *msg = sluiceGetLastErrorMessage();
      message = *programName + " failed" +
                (msg && *msg ? ": " + std::string(msg) : std::string()) +
                lazyLocationText(locations);
      freeAll(produced.data(), produced.size());
      return static_cast<SluiceStatus>(status);
    }
    // Check every result before handing any out.
    if (!checkShapes(res, outs.data(), message)) {
      freeAll(produced.data(), produced.size());
      return SLUICE_ERROR_INVALID_VALUE;
    }
    for (size_t r = 0; r < outputs.size(); ++r)
      takeResult(res, r, outs.data());
    return SLUICE_SUCCESS;
  }

  /// Whether every array result has the shape it should (sets `message`
  /// if not); fills in the shapes the call reports.
  bool checkShapes(const Results &res, std::shared_ptr<Buffer> *outs,
                   std::string &message) {
    for (size_t r = 0; r < outputs.size(); ++r) {
      const ValueSpec &spec = (*specs)[r];
      if (!spec.isArray)
        continue;
      size_t n = rank(r);
      const auto *got = reinterpret_cast<const int64_t *>(res.fields(r) + 3);
      int64_t *want = dims.data() + dimStart(r);
      bool ok = std::equal(got, got + n, want);
      if (shapeFromCall[r]) {
        ok = true;
        for (size_t d = 0; d < n; ++d)
          ok &= got[d] >= 0 && (spec.shape[d] < 0 || got[d] == spec.shape[d]);
      }
      if (!ok) {
        message =
            *programName + ": result " + std::to_string(r) + " has shape " +
            shapeString(std::vector<int64_t>(got, got + n)) + ", expected " +
            shapeString(shapeFromCall[r] ? spec.shape : shape(r));
        return false;
      }
      if (shapeFromCall[r]) {
        std::copy(got, got + n, want);
        int64_t elements = 1;
        for (size_t d = 0; d < n; ++d)
          elements *= got[d];
        if (outs[r])
          outs[r]->bytes = static_cast<size_t>(elements) * itemSize(spec.dtype);
      }
    }
    return true;
  }

  /// Hands result r to its buffer (or frees it when nobody holds it).
  void takeResult(const Results &res, size_t r, std::shared_ptr<Buffer> *outs) {
    const ValueSpec &spec = (*specs)[r];
    if (!spec.isArray) {
      std::memcpy(&scalars[r],
                  reinterpret_cast<const char *>(res.storage.data()) +
                      (*offsets)[r],
                  itemSize(spec.dtype));
      return;
    }
    const uint64_t *field = res.fields(r);
    void *alloc = res.allocated(r);
    if (!outs[r]) {
      // Nobody holds this result: free it, unless another result (held
      // or not) or an argument is the same memory.
      bool shared = false;
      for (const PointerSlot &p : pointers)
        shared |= p.buffer->data + p.byteOffset == alloc;
      for (size_t e = 0; e < outputs.size(); ++e)
        shared |= e != r && (*specs)[e].isArray && res.allocated(e) == alloc &&
                  (outs[e] || e < r);
      if (!shared && alloc)
        freeAll(&alloc, 1);
      return;
    }
    Buffer &out = *outs[r];
    out.data = reinterpret_cast<char *>(field[1]) +
               static_cast<int64_t>(field[2]) *
                   static_cast<int64_t>(itemSize(spec.dtype));
    // A result that is an argument (or an earlier result) returned as
    // is shares that memory rather than owning it.
    std::shared_ptr<Buffer> owner;
    for (const PointerSlot &p : pointers)
      if (!owner && p.buffer->data + p.byteOffset == alloc)
        owner = p.buffer;
    for (size_t e = 0; e < r && !owner; ++e)
      if (outs[e] && (outs[e]->base == alloc ||
                      (outs[e]->owner && outs[e]->data == alloc)))
        owner = outs[e];
    if (owner)
      out.owner = std::move(owner);
    else
      out.base = alloc;
  }

  void dropReferences() override {
    pointers.clear();
    outputs.clear();
  }

  static void freeAll(void *const *ptrs, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      SluiceQueue q = nullptr;
      if (sluicePointerGetInfo(ptrs[i], nullptr, nullptr, &q, nullptr,
                               nullptr) == SLUICE_SUCCESS &&
          q)
        sluiceFree(q, ptrs[i]);
    }
  }
};

void setArrayType(nb::handle type) { arrayType = type; }
nb::handle arrayTypeHandle() { return arrayType; }

nb::object wrapArray(ArrayCore &&core) {
  nb::object obj = nb::inst_alloc(arrayType);
  new (nb::inst_ptr<ArrayCore>(obj)) ArrayCore(std::move(core));
  nb::inst_mark_ready(obj);
  return obj;
}

void storeScalar(nb::handle value, int dtype, uint64_t &slot) {
  slot = 0;
  PyObject *o = value.ptr();
  bool isFloat = PyFloat_Check(o);
  if (!isFloat && !PyLong_Check(o))
    throw Error(ErrorKind::Type, "expected a Python number for a scalar "
                                 "argument");
  switch (dtype) {
  case F64: {
    double v = PyFloat_AsDouble(o);
    std::memcpy(&slot, &v, 8);
    break;
  }
  case F32: {
    float v = static_cast<float>(PyFloat_AsDouble(o));
    std::memcpy(&slot, &v, 4);
    break;
  }
  case F16: {
    uint16_t v = floatToHalf(static_cast<float>(PyFloat_AsDouble(o)));
    std::memcpy(&slot, &v, 2);
    break;
  }
  case Bool:
    slot = PyObject_IsTrue(o) ? 1 : 0;
    break;
  default: {
    if (isFloat)
      throw Error(ErrorKind::Type, "expected an integer for an integer "
                                   "scalar argument");
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    uint64_t bits = static_cast<uint64_t>(v);
    if (overflow > 0)
      bits = PyLong_AsUnsignedLongLongMask(o);
    size_t size = itemSize(dtype);
    std::memcpy(&slot, &bits, size); // little-endian: the low bytes
    break;
  }
  }
  if (PyErr_Occurred())
    throw nb::python_error();
}

bool Program::smallHostWork(const Task &task) const {
  auto &call = static_cast<const CallTask &>(task);
  size_t bytes = 0;
  for (const ValueSpec &a : args)
    if (a.isArray && a.queue->backend != SLUICE_BACKEND_HOST)
      return false;
  for (size_t r = 0; r < results.size(); ++r) {
    const ValueSpec &spec = results[r];
    if (!spec.isArray)
      continue;
    if (spec.queue->backend != SLUICE_BACKEND_HOST)
      return false;
    size_t n = 1;
    const int64_t *dims = call.shapeData(r);
    for (size_t d = 0; d < call.rank(r); ++d)
      n *= static_cast<size_t>(std::max<int64_t>(dims[d], 0));
    bytes += n * itemSize(spec.dtype);
  }
  for (const CallTask::PointerSlot &p : call.pointers)
    bytes += p.buffer->bytes;
  return bytes <= inlineBytes();
}

Program::Program(uintptr_t entryAddress, std::vector<ValueSpec> argSpecs,
                 std::vector<ValueSpec> resultSpecs, std::string name)
    : entry(reinterpret_cast<EntryPoint>(entryAddress)),
      args(std::move(argSpecs)), results(std::move(resultSpecs)),
      programName(std::move(name)) {
  sharedResults = std::make_shared<const std::vector<ValueSpec>>(results);
  sharedName = std::make_shared<const std::string>(programName);
  if (!entry)
    throw Error(ErrorKind::Value, "a program needs an entry point");
  for (const ValueSpec &a : args) {
    argSlot.push_back(numSlots);
    numSlots += argumentSlots(a);
    if (a.isArray && !runOn)
      runOn = a.queue;
  }
  std::vector<size_t> offsets;
  for (const ValueSpec &r : results) {
    if (r.isArray && !r.queue)
      throw Error(ErrorKind::Value, "array results need a queue");
    if (r.isArray && !reportTo)
      reportTo = r.queue;
    waits |= !r.isArray;
    auto [size, align] = resultLayout(r);
    resultBytes = (resultBytes + align - 1) / align * align;
    offsets.push_back(resultBytes);
    resultBytes += size;
  }
  resultOffsets = std::make_shared<const std::vector<size_t>>(offsets);
  if (!runOn)
    runOn = reportTo;
  if (!reportTo)
    reportTo = runOn;
  oneQueue = runOn != nullptr;
  for (const ValueSpec &v : args)
    oneQueue &= !v.isArray || v.queue == runOn;
  for (const ValueSpec &v : results)
    oneQueue &= !v.isArray || v.queue == runOn;
}

PyObject *const *Program::checkCall(nb::handle argsObj,
                                    nb::handle targetsObj) const {
  PyObject *seq = argsObj.ptr();
  if (!PyTuple_Check(seq) && !PyList_Check(seq))
    throw Error(ErrorKind::Type, "program arguments must be a tuple or list");
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (static_cast<size_t>(n) != args.size())
    throw Error(ErrorKind::Type,
                programName + " takes " + std::to_string(args.size()) +
                    " arguments, " + std::to_string(n) + " were given");
  if (!runOn)
    throw Error(ErrorKind::Value,
                programName + " has neither array arguments nor results");
  PyObject **items = PySequence_Fast_ITEMS(seq);
  // Recorded operations first: a lazy argument gets its producer, and a
  // written one is read by the recorded operations before this call.
  for (size_t i = 0; i < args.size(); ++i) {
    ArrayCore *core = nullptr;
    if (args[i].isArray &&
        nb::try_cast<ArrayCore *>(nb::handle(items[i]), core) && core)
      lazyBeforeUse(*core->buffer, writes(i));
  }
  bool haveTargets = targetsObj.is_valid() && !targetsObj.is_none();
  if (haveTargets && nb::len(targetsObj) != results.size())
    throw Error(ErrorKind::Value, programName + ": one target per result");
  for (size_t r = 0; haveTargets && r < results.size(); ++r)
    if (!targetsObj[r].is_none() &&
        !lazyTargetFits(targetsObj[r], results[r].queue, results[r].kind))
      throw Error(ErrorKind::Value,
                  programName + ": result " + std::to_string(r) +
                      " cannot fill its lazy target (another placement, or "
                      "submitted already)");
  return items;
}

void Program::packArguments(CallTask &task, PyObject *const *items,
                            std::vector<ArrayCore> &compacted) const {
  for (size_t i = 0; i < args.size(); ++i) {
    const ValueSpec &spec = args[i];
    nb::handle item(items[i]);
    uint64_t *slot = &task.slots[argSlot[i]];
    if (!spec.isArray) {
      storeScalar(item, spec.dtype, *slot);
      continue;
    }
    ArrayCore *core = nullptr;
    if (!nb::try_cast<ArrayCore *>(item, core) || !core)
      throw Error(ErrorKind::Type, programName + ": argument " +
                                       std::to_string(i) +
                                       " must be a sluice.Array");
    bool shapeOk = core->shape.size() == spec.shape.size();
    for (size_t d = 0; shapeOk && d < spec.shape.size(); ++d)
      shapeOk = spec.shape[d] < 0 || spec.shape[d] == core->shape[d];
    if (core->dtype != spec.dtype || !shapeOk)
      throw Error(ErrorKind::Type, programName + ": argument " +
                                       std::to_string(i) +
                                       " has the wrong dtype or shape " +
                                       shapeString(core->shape) + " for " +
                                       shapeString(spec.shape));
    if (core->buffer->queue != spec.queue || core->buffer->kind != spec.kind)
      throw Error(ErrorKind::Value,
                  programName + ": argument " + std::to_string(i) +
                      " is not on the queue and USM kind it was compiled "
                      "for");
    if (spec.view) {
      if (writes(i))
        throw Error(ErrorKind::Value, programName + ": argument " +
                                          std::to_string(i) +
                                          " is written, so it cannot be a "
                                          "view argument");
      packView(task, *core, argSlot[i]);
      continue;
    }
    const ArrayCore *in = core;
    if (!core->cContiguous()) {
      if (compacted.empty())
        compacted.reserve(args.size());
      compacted.push_back(
          contiguousCopy(*core, spec.queue, spec.kind, /*force=*/true));
      in = &compacted.back();
    }
    // An empty view's offset may point past its allocation: pass the
    // allocation itself (nothing is read).
    int64_t size = in->size();
    int64_t byteOffset =
        size ? in->offset * static_cast<int64_t>(in->itemsize()) : 0;
    bool written = writes(i);
    if (written && in != core)
      throw Error(ErrorKind::Value,
                  programName + ": argument " + std::to_string(i) +
                      " is written, so it must be C-contiguous");
    task.pointers.push_back(
        {in->buffer, byteOffset, static_cast<uint32_t>(argSlot[i]), written});
    size_t rank = in->shape.size();
    slot[2] = 0;
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      slot[3 + d] = static_cast<uint64_t>(in->shape[d]);
      slot[3 + rank + d] = static_cast<uint64_t>(stride);
      stride *= std::max<int64_t>(in->shape[d], 1);
    }
  }
}

void Program::packView(CallTask &task, const ArrayCore &a, size_t at) const {
  // The base: the elements the view reaches, from the lowest to the
  // highest (negative strides reach below the first element).
  size_t rank = a.shape.size();
  int64_t lo = 0, hi = 0;
  bool empty = a.size() == 0;
  for (size_t d = 0; d < rank && !empty; ++d) {
    int64_t reach = (a.shape[d] - 1) * a.strides[d];
    (reach < 0 ? lo : hi) += reach;
  }
  uint64_t *slot = &task.slots[at];
  int64_t byteOffset =
      empty ? 0 : (a.offset + lo) * static_cast<int64_t>(a.itemsize());
  task.pointers.push_back(
      {a.buffer, byteOffset, static_cast<uint32_t>(at), /*written=*/false});
  slot[2] = 0;
  slot[3] = static_cast<uint64_t>(empty ? 0 : hi - lo + 1);
  slot[4] = 1;
  slot[5] = static_cast<uint64_t>(-lo);
  for (size_t d = 0; d < rank; ++d) {
    slot[6 + d] = static_cast<uint64_t>(a.shape[d]);
    slot[6 + rank + d] = static_cast<uint64_t>(empty ? 0 : a.strides[d]);
  }
}

bool Program::resultShapes(CallTask &task, nb::handle shapesObj) const {
  task.shapeFromCall.assign(results.size(), 0);
  task.scalars.assign(results.size(), 0);
  task.dims.clear();
  PyObject *shapes = shapesObj.ptr();
  bool haveShapes = shapes != Py_None;
  // A list or tuple (as the fast path and sluice/_dispatch.py pass) is read
  // in place; another sequence through a list of its items.
  nb::object items;
  if (haveShapes && !PyList_Check(shapes) && !PyTuple_Check(shapes)) {
    items = nb::steal(PySequence_Fast(shapes, "result shapes"));
    if (!items.is_valid())
      throw nb::python_error();
    shapes = items.ptr();
  }
  if (haveShapes &&
      static_cast<size_t>(PySequence_Fast_GET_SIZE(shapes)) != results.size())
    throw Error(ErrorKind::Value, programName + ": one shape per result");
  bool wait = waits;
  for (size_t r = 0; r < results.size(); ++r) {
    const ValueSpec &spec = results[r];
    if (!spec.isArray)
      continue;
    size_t rank = spec.shape.size();
    size_t start = task.dims.size();
    for (int64_t d : spec.shape)
      task.dims.push_back(d);
    int64_t *shape = task.dims.data() + start;
    PyObject *given =
        haveShapes ? PySequence_Fast_GET_ITEM(shapes, r) : Py_None;
    if (given != Py_None) {
      nb::object sizes = nb::borrow(given);
      if (!PyList_Check(given) && !PyTuple_Check(given)) {
        sizes = nb::steal(PySequence_Fast(given, "a result shape"));
        if (!sizes.is_valid())
          throw nb::python_error();
      }
      if (static_cast<size_t>(PySequence_Fast_GET_SIZE(sizes.ptr())) != rank)
        throw Error(ErrorKind::Value, programName + ": result " +
                                          std::to_string(r) + " has rank " +
                                          std::to_string(rank));
      for (size_t d = 0; d < rank; ++d) {
        int64_t v = nb::cast<int64_t>(
            nb::handle(PySequence_Fast_GET_ITEM(sizes.ptr(), d)));
        if (v < 0 || (shape[d] >= 0 && shape[d] != v))
          throw Error(ErrorKind::Value, programName + ": bad size for result " +
                                            std::to_string(r));
        shape[d] = v;
      }
    }
    checkArrayBytes(shape, rank, itemSize(spec.dtype)); // before any launch
    for (size_t d = 0; d < rank; ++d)
      if (shape[d] < 0)
        task.shapeFromCall[r] = 1;
    wait |= task.shapeFromCall[r] != 0;
  }
  return wait;
}

void Program::resultBuffers(CallTask &task, const std::shared_ptr<Task> &self,
                            nb::handle targetsObj,
                            ResultBuffers &outBuffers) const {
  bool haveTargets = targetsObj.is_valid() && !targetsObj.is_none();
  outBuffers.resize(results.size());
  task.outputs.resize(results.size());
  for (size_t r = 0; r < results.size(); ++r) {
    const ValueSpec &spec = results[r];
    if (!spec.isArray)
      continue;
    std::shared_ptr<Buffer> buffer;
    if (haveTargets && !targetsObj[r].is_none()) {
      buffer = lazyTarget(targetsObj[r]); // checked by checkCall
    } else {
      buffer = std::make_shared<Buffer>();
    }
    buffer->queue = spec.queue;
    buffer->kind = spec.kind;
    buffer->last = self;
    buffer->writer = self;
    task.outputs[r] = buffer;
    outBuffers[r] = std::move(buffer);
  }
}

nb::list Program::resultArrays(const CallTask &task,
                               const ResultBuffers &outBuffers) const {
  nb::list out;
  for (size_t r = 0; r < results.size(); ++r) {
    const ValueSpec &spec = results[r];
    if (!spec.isArray) {
      out.append(scalarObject(task.scalars[r], spec.dtype));
      continue;
    }
    ArrayCore core;
    core.buffer = outBuffers[r];
    core.dtype = spec.dtype;
    core.shape = task.shape(r);
    core.strides = contiguousStrides(core.shape);
    if (!task.shapeFromCall[r])
      core.buffer->bytes = core.size() * core.itemsize();
    out.append(wrapArray(std::move(core)));
  }
  return out;
}

nb::list Program::call(nb::handle argsObj, nb::handle shapesObj,
                       nb::handle targetsObj, std::vector<uint32_t> locations) {
  drainDeferred();
  PyObject *const *items = checkCall(argsObj, targetsObj);
  auto task = std::make_shared<CallTask>();
  task->entry = entry;
  task->locations = std::move(locations);
  task->slots.assign(numSlots, 0);
  task->programName = sharedName;
  task->specs = sharedResults;
  task->offsets = resultOffsets;
  task->resultBytes = resultBytes;
  // Arguments that are not contiguous are copied first (kept here until
  // the task holds their buffers).
  std::vector<ArrayCore> compacted;
  packArguments(*task, items, compacted);
  // Result shapes: static ones from the types, dynamic ones from `shapes`,
  // else from the call itself (which is then waited for).
  bool wait = resultShapes(*task, shapesObj);
  task->queue = reportTo;
  task->small = smallHostWork(*task);
  if (!wait && oneQueue && !synchronousMode() &&
      launchesAsynchronously(runOn->backend))
    task->ordersOn = runOn->queue;
  task->launchInline = task->ordersOn && launchesInline(runOn->backend);
  std::shared_ptr<Task> self = task;
  for (const CallTask::PointerSlot &p : task->pointers)
    useBuffer(*task, self, *p.buffer, /*write=*/p.written);
  // The result buffers: the arrays own them (the task only points at them).
  ResultBuffers outBuffers;
  resultBuffers(*task, self, targetsObj, outBuffers);
  // The result arrays; with `wait`, once the call has run (their shapes
  // and the scalars are known then).
  if (!wait) {
    nb::list out = resultArrays(*task, outBuffers);
    submitTask(runOn->dispatcher, std::move(self));
    // Run at once on this thread (small host work) and succeeded: nothing
    // needs to follow the task or inherit its failure, so the results stop
    // pointing at it and it goes now, not with the last result (a loop
    // keeping many results would keep as many finished tasks).
    // (A launched task is not asked: its device work has just begun, and
    // on CUDA the question is a driver call.)
    if (!task->launchedPending() && task->finished() && !task->failed())
      for (const std::shared_ptr<Buffer> &b : outBuffers) {
        if (!b)
          continue;
        if (b->last == task)
          b->last.reset();
        if (b->writer == task)
          b->writer.reset();
      }
    return out;
  }
  submitTask(runOn->dispatcher, self);
  waitWithoutGil(*task);
  if (task->failed())
    throw taskError(task->status, task->message);
  return resultArrays(*task, outBuffers);
}

} // namespace sluice::py
