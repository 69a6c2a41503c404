//===- CudaQueue.cpp - An in-order queue as a CUDA stream -----------------===//
#include "CudaQueue.h"

#include "CudaBlas.h"
#include "CudaDevice.h"
#include "CudaEvent.h"
#include "CudaModule.h"

#include "sluice/Runtime/ErrorState.h"

#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

namespace sluice::rt::cuda {

namespace {
/// $SLUICE_CUDA_TIMESTAMPS overrides each queue's profiling property:
/// "off" or "0" (tasks marked only where needed, profiling queues too),
/// "on" (every task's end marked, on every queue), "exact" (its start too).
/// Unset (-1): every task of a profiling queue is marked, those of other
/// queues only where needed.
int timestampsOverride() {
  const char *env = std::getenv("SLUICE_CUDA_TIMESTAMPS");
  if (!env || !*env)
    return -1;
  if (std::strcmp(env, "0") == 0 || std::strcmp(env, "off") == 0)
    return 0;
  return std::strcmp(env, "exact") == 0 ? 2 : 1;
}
} // namespace

SluiceStatus CudaQueue::create(CudaDevice &device, Ref<Queue> &out) {
  ScopedContext current(device.cudaContext().handle());
  CUstream stream = nullptr;
  if (CUresult r = cu().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING))
    return cuFail(r, "cuStreamCreate");
  // The launch counter, zeroed in stream order (the stream does not
  // synchronise with the legacy default stream of a plain cuMemsetD32).
  CUdeviceptr counter = 0;
  CUresult r = cu().cuMemAlloc(&counter, sizeof(uint32_t));
  if (r == CUDA_SUCCESS) {
    r = cu().cuMemsetD32Async(counter, 0, 1, stream);
    if (r != CUDA_SUCCESS)
      cu().cuMemFree(counter);
  }
  if (r != CUDA_SUCCESS) {
    cu().cuStreamDestroy(stream);
    return cuFail(r, "the launch counter of a new queue");
  }
  out = Ref<Queue>::adopt(new CudaQueue(device, stream, counter));
  return SLUICE_SUCCESS;
}

CudaQueue::CudaQueue(CudaDevice &device, CUstream stream, CUdeviceptr counter)
    : Queue(device), cudaDevice(device), stream(stream), counter(counter),
      timestamps(timestampsOverride()),
      progress(std::make_shared<StreamProgress>(device.cudaContext(), stream)),
      replay(std::make_unique<LaunchReplay>()) {}

CudaQueue::~CudaQueue() {
  ScopedContext current(cudaDevice.cudaContext().handle());
  uint64_t upTo = progress->submitted.load(std::memory_order_acquire);
  if (cu().cuStreamSynchronize(stream) == CUDA_SUCCESS)
    progress->finishedUpTo(upTo);
  replay.reset(); // its graphs, while the context is current
  // Before the stream goes: the blocks kept for it are free now.
  device().reusableBlocks().forget(this);
  cu().cuStreamDestroy(stream);
  cu().cuMemFree(counter);
}

SluiceStatus CudaQueue::launchCounter(void *&out) {
  out = reinterpret_cast<void *>(static_cast<uintptr_t>(counter));
  return SLUICE_SUCCESS;
}

uint64_t CudaQueue::replayedLaunches() {
  std::lock_guard<std::mutex> lock(submitMutex);
  return replay->replayed();
}

bool CudaQueue::markEveryTask() const {
  return timestamps < 0 ? profilingEnabled() : timestamps != 0;
}

SluiceStatus CudaQueue::wait() {
  // Everything submitted so far is done once the stream is: later status
  // queries of those tasks need no driver call. A task that failed leaves
  // its error in the context, which the synchronisation reports.
  uint64_t upTo = progress->submitted.load(std::memory_order_acquire);
  ScopedContext current(cudaDevice.cudaContext().handle());
  if (CUresult r = cu().cuStreamSynchronize(stream))
    return fail(SLUICE_ERROR_TASK_FAILED, "a task on queue " +
                                              device().filterString() +
                                              " failed: " + errorText(r));
  progress->finishedUpTo(upTo);
  return SLUICE_SUCCESS;
}

SluiceStatus CudaQueue::waitFor(const EventList &deps) {
  for (const Ref<Event> &dep : deps) {
    if (auto *own = dynamic_cast<CudaEvent *>(dep.get())) {
      if (own->stream() == stream)
        continue; // in order
      SluiceEventStatus s = own->status();
      if (s == SLUICE_EVENT_COMPLETE)
        continue;
      if (s == SLUICE_EVENT_ERROR)
        return dep->wait();
      CUevent after = nullptr;
      if (SluiceStatus st = own->waitableEvent(after))
        return st;
      if (CUresult r = cu().cuStreamWaitEvent(stream, after, 0))
        return cuFail(r, "cuStreamWaitEvent");
      continue;
    }
    // Another backend's task: it was submitted before this one, so it
    // finishes without anything submitted later.
    if (SluiceStatus s = dep->wait())
      return fail(s, "a dependency of a task on " + device().filterString() +
                         " failed: " + lastErrorMessage());
  }
  return SLUICE_SUCCESS;
}

template <typename Work>
SluiceStatus CudaQueue::submit(const char *what, const EventList &deps,
                               Work &&work, Ref<Event> &out) {
  CudaContext &ctx = cudaDevice.cudaContext();
  ScopedContext current(ctx.handle());
  std::lock_guard<std::mutex> lock(submitMutex);
  if (!deps.empty())
    if (SluiceStatus s = waitFor(deps))
      return s;
  Ref<CudaEvent> event;
  uint64_t seq = progress->submitted.load(std::memory_order_relaxed) + 1;
  if (SluiceStatus s = CudaEvent::begin(
          ctx, timestamps == 2, progress->newest(), progress, seq, event))
    return s;
  if constexpr (!std::is_same_v<std::decay_t<Work>, std::nullptr_t>)
    if (CUresult r = work())
      return cuFail(r, what);
  if (markEveryTask())
    if (SluiceStatus s = event->markNow())
      return s;
  progress->submitted.store(seq, std::memory_order_release);
  out = std::move(event);
  return SLUICE_SUCCESS;
}

SluiceStatus CudaQueue::submitCopy(void *dst, const void *src, size_t bytes,
                                   const EventList &deps, Ref<Event> &out) {
  // Unified addressing: the driver tells host and device memory apart.
  // Large copies between device allocations run the runtime's own kernel
  // (CudaDeviceCopy.h), a tail shorter than its elements after it a copy.
  return submit(
      "cuMemcpyAsync", deps,
      [&]() -> CUresult {
        CUdeviceptr d = devicePtr(dst), s = devicePtr(src);
        CudaContext &ctx = cudaDevice.cudaContext();
        unsigned width = ctx.deviceCopy().applies(ctx.handle(), d, s, bytes);
        if (!width)
          return cu().cuMemcpyAsync(d, s, bytes, stream);
        size_t body = bytes - bytes % width;
        if (CUresult r = ctx.deviceCopy().enqueue(d, s, body, width, stream))
          return r;
        return body == bytes ? CUDA_SUCCESS
                             : cu().cuMemcpyAsync(d + body, s + body,
                                                  bytes - body, stream);
      },
      out);
}

CUresult CudaQueue::fillGeneric(char *dst, const void *pattern,
                                size_t patternSize, size_t bytes) {
  // One copy of the pattern from the host (the driver has read pageable
  // memory once the call returns), then copies that double what is written.
  if (CUresult r = cu().cuMemcpyAsync(devicePtr(dst), devicePtr(pattern),
                                      patternSize, stream))
    return r;
  for (size_t done = patternSize; done < bytes; done *= 2)
    if (CUresult r = cu().cuMemcpyAsync(devicePtr(dst + done), devicePtr(dst),
                                        std::min(done, bytes - done), stream))
      return r;
  return CUDA_SUCCESS;
}

SluiceStatus CudaQueue::submitFill(void *dst, const void *pattern,
                                   size_t patternSize, size_t bytes,
                                   const EventList &deps, Ref<Event> &out) {
  // A pattern made of two equal halves is the half repeated.
  auto *p = static_cast<const unsigned char *>(pattern);
  while (patternSize > 1 &&
         std::memcmp(p, p + patternSize / 2, patternSize / 2) == 0)
    patternSize /= 2;
  uintptr_t address = reinterpret_cast<uintptr_t>(dst);
  return submit(
      "filling memory", deps,
      [&]() -> CUresult {
        CUdeviceptr d = devicePtr(dst);
        if (patternSize == 1)
          return cu().cuMemsetD8Async(d, p[0], bytes, stream);
        if (patternSize == 2 && address % 2 == 0) {
          unsigned short v;
          std::memcpy(&v, p, 2);
          return cu().cuMemsetD16Async(d, v, bytes / 2, stream);
        }
        if (patternSize == 4 && address % 4 == 0) {
          unsigned v;
          std::memcpy(&v, p, 4);
          return cu().cuMemsetD32Async(d, v, bytes / 4, stream);
        }
        return fillGeneric(static_cast<char *>(dst), p, patternSize, bytes);
      },
      out);
}

SluiceStatus CudaQueue::submitLaunch(Kernel &kernel, const uint64_t grid[3],
                                     const uint64_t local[3], KernelArgs args,
                                     const EventList &deps, Ref<Event> &out) {
  auto &k = static_cast<CudaKernel &>(kernel);
  static const uint64_t gridLimit[3] = {0x7fffffffu, 65535, 65535};
  static const uint64_t blockLimit[3] = {1024, 1024, 64};
  for (int d = 0; d < 3; ++d) {
    if (grid[d] > gridLimit[d])
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "CUDA: a grid of " + std::to_string(grid[d]) +
                      " workgroups in dimension " + std::to_string(d) +
                      " exceeds the limit of " + std::to_string(gridLimit[d]));
    if (local[d] > blockLimit[d])
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "CUDA: a workgroup of " + std::to_string(local[d]) +
                      " work-items in dimension " + std::to_string(d) +
                      " exceeds the limit of " + std::to_string(blockLimit[d]));
  }
  uint64_t threads = local[0] * local[1] * local[2];
  if (k.maxThreadsPerBlock > 0 && threads > uint64_t(k.maxThreadsPerBlock))
    return fail(SLUICE_ERROR_INVALID_VALUE,
                "CUDA: kernel '" + kernel.name() + "' runs at most " +
                    std::to_string(k.maxThreadsPerBlock) +
                    " work-items per workgroup (its register use), " +
                    std::to_string(threads) + " were requested");
  if (k.paramsKnown) {
    if (args.size() != k.paramSizes.size())
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "CUDA: kernel '" + kernel.name() + "' takes " +
                      std::to_string(k.paramSizes.size()) +
                      " arguments, the launch passes " +
                      std::to_string(args.size()));
    for (size_t i = 0; i < args.size(); ++i)
      if (args.valueSize(i) != k.paramSizes[i])
        return fail(SLUICE_ERROR_INVALID_VALUE,
                    "CUDA: argument " + std::to_string(i) + " of kernel '" +
                        kernel.name() + "' is " +
                        std::to_string(k.paramSizes[i]) +
                        " bytes, the launch passes " +
                        std::to_string(args.valueSize(i)));
  }
  // The parameter addresses on the stack for the usual argument counts.
  void *inlineParams[KernelArgs::kInlineArgs];
  std::vector<void *> heapParams;
  void **params = inlineParams;
  if (args.size() > KernelArgs::kInlineArgs) {
    heapParams.resize(args.size());
    params = heapParams.data();
  }
  args.pointers(params);
  const unsigned g[3] = {unsigned(grid[0]), unsigned(grid[1]),
                         unsigned(grid[2])};
  const unsigned b[3] = {unsigned(local[0]), unsigned(local[1]),
                         unsigned(local[2])};
  return submit(
      "cuLaunchKernel", deps,
      [&] {
        return replay->launch(k.id(), k.handle(), g, b, args, params, stream);
      },
      out);
}

SluiceStatus CudaQueue::submitBarrier(const EventList &deps, Ref<Event> &out) {
  return submit("a barrier", deps, nullptr, out);
}

SluiceStatus CudaQueue::submitMatmul(const MatmulDesc &desc,
                                     const EventList &deps, Ref<Event> &out) {
  {
    static std::mutex creation;
    std::lock_guard<std::mutex> lock(creation);
    if (!blas) {
      ScopedContext current(cudaDevice.cudaContext().handle());
      if (SluiceStatus s = createBlasHandle(stream, blas))
        return s;
    }
  }
  std::string why;
  SluiceStatus s = submit(
      "cuBLAS", deps,
      [&] {
        return enqueueMatmul(*blas, desc, why) ? CUresult(999) : CUDA_SUCCESS;
      },
      out);
  if (s && !why.empty())
    return fail(SLUICE_ERROR_BACKEND, why);
  return s;
}

} // namespace sluice::rt::cuda
