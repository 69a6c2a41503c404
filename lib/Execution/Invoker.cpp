//===- Invoker.cpp - Calling a compiled program with host arrays ----------===//
//
// The packed argument list of an entry point holds one pointer per slot of
// the function's LLVM signature: an array argument of rank R takes 3 + 2R
// slots (allocated pointer, aligned pointer, offset, sizes, strides), a
// scalar one. A last pointer names storage for the results, laid out as the
// LLVM struct of the results (natural alignment).
//
//===----------------------------------------------------------------------===//

#include "sluice/Execution/Invoker.h"

#include "sluice-c/Program.h"
#include "sluice-c/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <set>

using namespace sluice;
using namespace sluice::exec;

namespace {

std::string runtimeError(const std::string &what) {
  const char *msg = sluiceGetLastErrorMessage();
  return what + (msg && *msg ? ": " + std::string(msg) : std::string());
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += 'x';
    s += shape[i] < 0 ? "?" : std::to_string(shape[i]);
  }
  return s.empty() ? "a scalar (0-d)" : s;
}

/// Size and alignment of a result in the results struct.
std::pair<size_t, size_t> resultLayout(const ValueInfo &v) {
  if (v.isArray)
    return {8 * v.numSlots(), 8};
  size_t s = io::dtypeSize(v.dtype);
  return {s, s};
}

/// Writes a 0-d host array's value into an 8-byte slot as `dtype`.
io::Status storeScalar(const io::HostArray &h, io::DType dtype, uint64_t &slot,
                       size_t index) {
  if (h.numElements() != 1 || h.rank() != 0)
    return io::Error{"input " + std::to_string(index) +
                     ": the argument is a scalar; give a 0-d value such as " +
                     std::string(io::dtypeName(dtype)) + "=1"};
  slot = 0;
  if (h.dtype == dtype) {
    std::memcpy(&slot, h.data.data(), io::dtypeSize(dtype));
    return io::Status::success();
  }
  double v = io::elementAsDouble(h, 0);
  switch (dtype) {
  case io::DType::F32: {
    float f = static_cast<float>(v);
    std::memcpy(&slot, &f, 4);
    break;
  }
  case io::DType::F64:
    std::memcpy(&slot, &v, 8);
    break;
  case io::DType::F16: {
    uint16_t bits = io::doubleToHalf(v);
    std::memcpy(&slot, &bits, 2);
    break;
  }
  case io::DType::Bool:
    slot = v != 0;
    break;
  default:
    if (io::isFloat(h.dtype))
      return io::Error{"input " + std::to_string(index) + ": expected " +
                       io::dtypeName(dtype) + ", got a floating-point value"};
    slot = static_cast<uint64_t>(static_cast<int64_t>(v));
    break;
  }
  return io::Status::success();
}

/// Copies device data to host memory, waiting for it.
io::Status copyToHost(void *dst, const void *src, size_t bytes) {
  if (!bytes)
    return io::Status::success();
  SluiceQueue queue = nullptr;
  SluiceUsmKind kind = SLUICE_USM_UNKNOWN;
  if (sluicePointerGetInfo(src, &kind, nullptr, &queue, nullptr, nullptr) !=
          SLUICE_SUCCESS ||
      !queue) {
    std::memcpy(dst, src, bytes);
    return io::Status::success();
  }
  SluiceEvent event = nullptr;
  if (sluiceMemcpy(queue, dst, src, bytes, 0, nullptr, &event) !=
          SLUICE_SUCCESS ||
      sluiceEventWait(event) != SLUICE_SUCCESS) {
    if (event)
      sluiceEventRelease(event);
    return io::Error{runtimeError("cannot read a result back")};
  }
  sluiceEventRelease(event);
  return io::Status::success();
}

void freePointer(void *ptr) {
  SluiceQueue queue = nullptr;
  if (sluicePointerGetInfo(ptr, nullptr, nullptr, &queue, nullptr, nullptr) ==
          SLUICE_SUCCESS &&
      queue)
    sluiceFree(queue, ptr);
}

/// Buffers the call allocated (not among the inputs), each once.
std::vector<void *> producedBuffers(const EntrySignature &sig,
                                    const std::vector<uint8_t> &results,
                                    const std::set<void *> &inputs) {
  std::vector<void *> out;
  size_t offset = 0;
  for (const ValueInfo &r : sig.results) {
    auto [size, align] = resultLayout(r);
    offset = (offset + align - 1) / align * align;
    if (r.isArray) {
      void *alloc;
      std::memcpy(&alloc, results.data() + offset, sizeof(void *));
      if (alloc && !inputs.count(alloc) &&
          std::find(out.begin(), out.end(), alloc) == out.end())
        out.push_back(alloc);
    }
    offset += size;
  }
  return out;
}

/// The argument slots of one call (a scalar's value, or a memref
/// descriptor: pointers, offset, sizes, strides) and the device buffers made
/// for its array inputs, freed with it.
struct StagedInputs {
  std::vector<uint64_t> slots;
  std::set<void *> buffers;

  StagedInputs() = default;
  StagedInputs(const StagedInputs &) = delete;
  StagedInputs &operator=(const StagedInputs &) = delete;
  ~StagedInputs() {
    for (void *p : buffers)
      freePointer(p);
  }
};

/// Copies array input `i` to a new buffer on its queue (not waited for)
/// and appends its descriptor.
io::Status stageArray(const EntrySignature &sig, size_t i,
                      const io::HostArray &h, StagedInputs &staged,
                      std::vector<SluiceQueue> &queues) {
  const ValueInfo &a = sig.args[i];
  bool shapeOk = h.rank() == a.rank();
  for (int64_t d = 0; shapeOk && d < a.rank(); ++d)
    shapeOk = a.shape[d] < 0 || a.shape[d] == h.shape[d];
  if (h.dtype != a.dtype || !shapeOk)
    return io::Error{"input " + std::to_string(i) + ": @" + sig.name +
                     " expects " + shapeText(a.shape) + " of " +
                     io::dtypeName(a.dtype) + ", got " + shapeText(h.shape) +
                     " of " + io::dtypeName(h.dtype)};
  sluiceProgramBegin();
  auto queue = static_cast<SluiceQueue>(
      sluiceProgramQueue(a.device.c_str(), a.queueName.c_str()));
  sluiceProgramEnd();
  if (!queue)
    return io::Error{runtimeError("input " + std::to_string(i) +
                                  ": no queue for " + a.device)};
  void *ptr = nullptr;
  size_t bytes = h.byteSize();
  if (sluiceMalloc(queue, static_cast<SluiceUsmKind>(a.kind),
                   std::max<size_t>(bytes, 1), 64, &ptr) != SLUICE_SUCCESS)
    return io::Error{runtimeError("input " + std::to_string(i) +
                                  ": cannot allocate " + std::to_string(bytes) +
                                  " bytes")};
  staged.buffers.insert(ptr);
  if (bytes && sluiceMemcpy(queue, ptr, h.data.data(), bytes, 0, nullptr,
                            nullptr) != SLUICE_SUCCESS)
    return io::Error{runtimeError("input " + std::to_string(i) +
                                  ": cannot copy to the device")};
  queues.push_back(queue);
  uint64_t p = reinterpret_cast<uintptr_t>(ptr);
  std::vector<uint64_t> &slots = staged.slots;
  slots.push_back(p);
  slots.push_back(p);
  slots.push_back(0);
  int64_t stride = 1;
  std::vector<uint64_t> strides(h.rank());
  for (int64_t d = h.rank() - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= h.shape[d];
  }
  for (int64_t d = 0; d < h.rank(); ++d)
    slots.push_back(h.shape[d]);
  for (int64_t d = 0; d < h.rank(); ++d)
    slots.push_back(strides[d]);
  return io::Status::success();
}

/// Stores the scalars and copies the arrays of `inputs`, waiting for the
/// copies.
io::Status stageInputs(const EntrySignature &sig,
                       const std::vector<io::HostArray> &inputs,
                       StagedInputs &staged) {
  std::vector<SluiceQueue> queues;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (sig.args[i].isArray) {
      if (io::Status s = stageArray(sig, i, inputs[i], staged, queues); !s)
        return s;
      continue;
    }
    staged.slots.emplace_back();
    if (io::Status s =
            storeScalar(inputs[i], sig.args[i].dtype, staged.slots.back(), i);
        !s)
      return s;
  }
  for (SluiceQueue q : queues)
    if (sluiceQueueWait(q) != SLUICE_SUCCESS)
      return io::Error{runtimeError("copying the inputs failed")};
  return io::Status::success();
}

/// Calls `entry` 1 + `benchmarkRuns` times (the results of all but the last
/// call freed); `medianSeconds` gets the median time of the extra calls.
io::Status callEntry(const EntrySignature &sig, const EntryFunction &entry,
                     std::vector<void *> &argv,
                     const std::vector<uint8_t> &results,
                     const StagedInputs &staged, int benchmarkRuns,
                     double &medianSeconds) {
  int runs = 1 + std::max(0, benchmarkRuns);
  std::vector<double> times;
  for (int run = 0; run < runs; ++run) {
    auto t0 = std::chrono::steady_clock::now();
    int32_t status = entry(argv.data());
    auto t1 = std::chrono::steady_clock::now();
    if (run > 0)
      times.push_back(std::chrono::duration<double>(t1 - t0).count());
    if (status != 0 || run + 1 < runs)
      for (void *p : producedBuffers(sig, results, staged.buffers))
        freePointer(p);
    if (status != 0)
      return io::Error{runtimeError("@" + sig.name + " failed")};
  }
  if (!times.empty()) {
    std::sort(times.begin(), times.end());
    medianSeconds = times[times.size() / 2];
  }
  return io::Status::success();
}

/// Reads result `r` from its field of the results struct into a host
/// array (an array result is copied from wherever it lies).
io::Status readResult(const ValueInfo &r, const uint8_t *field, size_t index,
                      io::HostArray &h) {
  h.dtype = r.dtype;
  if (!r.isArray) {
    h.data.assign(field, field + io::dtypeSize(r.dtype));
    return io::Status::success();
  }
  uint64_t words[3];
  std::memcpy(words, field, sizeof(words));
  for (int64_t d = 0; d < r.rank(); ++d) {
    int64_t dim;
    std::memcpy(&dim, field + 8 * (3 + d), 8);
    h.shape.push_back(dim);
  }
  // A result too large for host memory (or whose size overflows) is an
  // error, not a short copy.
  if (io::Result<int64_t> count = io::checkShape(h.shape, h.dtype); !count) {
    h.shape.assign(h.shape.size(), 0);
    return io::Error{"result " + std::to_string(index) + ": " + count.error()};
  }
  try {
    h.data.resize(h.byteSize());
  } catch (const std::bad_alloc &) {
    size_t bytes = h.byteSize();
    h.shape.assign(h.shape.size(), 0);
    return io::Error{"result " + std::to_string(index) + " (" +
                     std::to_string(bytes) +
                     " bytes) does not fit in host memory"};
  }
  const uint8_t *src = reinterpret_cast<const uint8_t *>(words[1]) +
                       words[2] * io::dtypeSize(r.dtype);
  return copyToHost(h.data.data(), src, h.data.size());
}

} // namespace

io::Result<InvokeResult>
sluice::exec::invoke(const EntrySignature &sig, const EntryFunction &entry,
                     const std::vector<io::HostArray> &inputs,
                     const InvokeOptions &options) {
  if (inputs.size() != sig.args.size())
    return io::Error{"@" + sig.name + " takes " +
                     std::to_string(sig.args.size()) + " arguments, " +
                     std::to_string(inputs.size()) + " inputs were given"};
  StagedInputs staged;
  if (io::Status s = stageInputs(sig, inputs, staged); !s)
    return io::Error{s.error()};

  size_t resultBytes = 0;
  for (const ValueInfo &r : sig.results) {
    auto [size, align] = resultLayout(r);
    resultBytes = (resultBytes + align - 1) / align * align + size;
  }
  std::vector<uint8_t> results(resultBytes + 8);
  std::vector<void *> argv;
  for (uint64_t &slot : staged.slots)
    argv.push_back(&slot);
  if (!sig.results.empty())
    argv.push_back(results.data());

  InvokeResult out;
  if (io::Status s = callEntry(sig, entry, argv, results, staged,
                               options.benchmarkRuns, out.medianSeconds);
      !s)
    return io::Error{s.error()};

  // Every result is read (and every buffer freed) even after one fails;
  // the first failure is the error.
  size_t offset = 0;
  io::Status failure;
  for (const ValueInfo &r : sig.results) {
    auto [size, align] = resultLayout(r);
    offset = (offset + align - 1) / align * align;
    io::HostArray h;
    io::Status s =
        readResult(r, results.data() + offset, out.outputs.size(), h);
    if (!s && failure)
      failure = s;
    offset += size;
    out.outputs.push_back(std::move(h));
  }
  for (void *p : producedBuffers(sig, results, staged.buffers))
    freePointer(p);
  if (!failure)
    return io::Error{failure.error()};
  return out;
}
