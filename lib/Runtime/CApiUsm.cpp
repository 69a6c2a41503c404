//===- CApiUsm.cpp - C API: USM allocations, copies and fills -------------===//
#include "CApi.h"

#include "UsmAccess.h"
#include "sluice/Runtime/UsmKind.h"

#include <cstring>
#include <memory>

using namespace sluice::rt;

namespace {

uint32_t capabilityBit(SluiceUsmKind kind) {
  switch (kind) {
  case SLUICE_USM_DEVICE:
    return SLUICE_USM_CAP_DEVICE;
  case SLUICE_USM_SHARED:
    return SLUICE_USM_CAP_SHARED;
  case SLUICE_USM_HOST:
    return SLUICE_USM_CAP_HOST;
  default:
    return 0;
  }
}

bool isPowerOfTwo(size_t x) { return x && !(x & (x - 1)); }

/// Checks that [ptr, ptr+bytes) stays inside its allocation (if any).
SluiceStatus checkRange(const std::shared_ptr<Allocation> &a, const void *ptr,
                        size_t bytes, const char *what) {
  if (!a)
    return SLUICE_SUCCESS;
  size_t offset =
      static_cast<const char *>(ptr) - static_cast<const char *>(a->base);
  if (bytes > a->size - offset)
    return fail(SLUICE_ERROR_INVALID_VALUE,
                std::string(what) + " range of " + std::to_string(bytes) +
                    " bytes at offset " + std::to_string(offset) +
                    " runs past the end of its " + std::to_string(a->size) +
                    "-byte allocation");
  return SLUICE_SUCCESS;
}

/// Copies through a host buffer where the queue cannot reach one side:
/// the allocation's own queue moves the data to or from the host.
SluiceStatus stagedCopy(Queue &queue, void *dst, const void *src, size_t bytes,
                        const std::shared_ptr<Allocation> &srcA, bool srcOk,
                        const std::shared_ptr<Allocation> &dstA, bool dstOk,
                        EventList deps, Ref<Event> &out) {
  // Stay in order with the queue's earlier tasks.
  if (Ref<Event> last = queue.lastEvent())
    deps.push_back(last);
  std::unique_ptr<unsigned char[]> staging(new unsigned char[bytes]);
  const void *from = src;
  Ref<Event> step;
  if (!srcOk) {
    if (SluiceStatus s =
            srcA->queue->copy(staging.get(), src, bytes, deps, step))
      return s;
    deps = {step};
    from = staging.get();
  }
  if (!dstOk) {
    if (from != staging.get()) {
      if (SluiceStatus s = queue.copy(staging.get(), from, bytes, deps, step))
        return s;
      deps = {step};
    }
    if (SluiceStatus s =
            dstA->queue->copy(dst, staging.get(), bytes, deps, step))
      return s;
    if (SluiceStatus s = queue.barrier({step}, out))
      return s;
  } else if (SluiceStatus s = queue.copy(dst, from, bytes, deps, out)) {
    return s;
  }
  unsigned char *buffer = staging.release();
  Platform::get().deferred().schedule({out}, [buffer] { delete[] buffer; });
  return SLUICE_SUCCESS;
}

/// Stream-ordered reuse: memory whose unfinished users all ran on its own
/// in-order queue `q` is kept for q's next allocations (ReusableBlocks),
/// fenced by q's newest task. False when it does not qualify.
bool keepForQueue(Queue &q, Allocation &a, const EventList &pendingUses) {
  for (const Ref<Event> &use : pendingUses)
    if (!use->onQueue(q))
      return false;
  ReusableBlocks::Entry entry, evicted;
  if (!a.device->memoryPool().blockOf(a.base, entry.blockSize, entry.alignment))
    return false;
  entry.queue = &q;
  entry.kind = a.kind;
  entry.ptr = a.base;
  entry.fence = q.lastEvent();
  a.device->reusableBlocks().offer(std::move(entry), evicted);
  if (evicted.ptr) {
    Device *device = a.device;
    void *ptr = evicted.ptr;
    EventList waits;
    if (evicted.fence)
      waits.push_back(evicted.fence);
    Platform::get().deferred().schedule(
        std::move(waits), [device, ptr] { device->memoryPool().release(ptr); });
  }
  return true;
}

} // namespace

extern "C" {

SluiceStatus sluiceMalloc(SluiceQueue queue, SluiceUsmKind kind, size_t bytes,
                          size_t alignment, void **ptr) {
  SLUICE_CHECK_ARG(queue);
  SLUICE_CHECK_ARG(ptr);
  return guarded([&] {
    *ptr = nullptr;
    Queue *q = unwrap(queue);
    Device &device = q->device();
    if (!capabilityBit(kind))
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceMalloc: unknown USM kind " + std::to_string(kind));
    if (bytes == 0)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceMalloc: size must be greater than 0");
    if (alignment && !isPowerOfTwo(alignment))
      return fail(SLUICE_ERROR_INVALID_VALUE, "sluiceMalloc: alignment " +
                                                  std::to_string(alignment) +
                                                  " is not a power of two");
    if (!(device.properties().usmCapabilities & capabilityBit(kind)))
      return fail(SLUICE_ERROR_UNSUPPORTED,
                  std::string("device ") + device.filterString() +
                      " does not support " + usmKindName(kind) +
                      " USM allocations");
    auto allocation = std::make_shared<Allocation>();
    void *p = nullptr;
    // A block this queue freed while its tasks still used it comes first:
    // the queue runs this allocation's tasks after those.
    if (!ReusableBlocks::enabledFor(device, kind) ||
        !device.reusableBlocks().take(q, kind, bytes, alignment, p,
                                      allocation->reuseFence)) {
      // Memory freed while tasks still used it goes back once they
      // finished; hand what is free by now to the pool before allocating
      // afresh.
      Platform::get().deferred().reapFinished();
      SluiceStatus status =
          device.memoryPool().allocate(kind, bytes, alignment, p);
      if (status == SLUICE_ERROR_OUT_OF_DEVICE_MEMORY ||
          status == SLUICE_ERROR_OUT_OF_HOST_MEMORY) {
        // The kept blocks too, once their tasks finished.
        device.reusableBlocks().release(/*wait=*/true);
        status = device.memoryPool().allocate(kind, bytes, alignment, p);
      }
      if (status)
        return status;
    }
    allocation->base = p;
    allocation->size = bytes;
    allocation->kind = kind;
    allocation->device = &device;
    allocation->queue = Ref<Queue>::share(q);
    Platform::get().usm().add(allocation);
    *ptr = p;
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceFree(SluiceQueue queue, void *ptr) {
  if (!ptr)
    return SLUICE_SUCCESS;
  return guarded([&] {
    Platform &platform = Platform::get();
    std::shared_ptr<Allocation> a = platform.usm().find(ptr);
    if (!a || a->base != ptr)
      return fail(SLUICE_ERROR_INVALID_POINTER,
                  a ? "sluiceFree: pointer is inside an allocation, not its "
                      "base"
                    : "sluiceFree: pointer was not allocated by Sluice (or "
                      "was already freed)");
    if (a->imports > 0)
      return fail(SLUICE_ERROR_INVALID_POINTER,
                  "sluiceFree: the memory was imported (sluiceUsmImport), "
                  "not allocated by Sluice: end the import with "
                  "sluiceUsmRelease");
    Queue *q = queue ? unwrap(queue) : a->queue.get();
    if (&q->device().context() != &a->device->context())
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceFree: the queue's context (" +
                      q->device().filterString() +
                      ") did not allocate this pointer (" +
                      a->device->filterString() + ")");
    if (!platform.usm().remove(ptr))
      return fail(SLUICE_ERROR_INVALID_POINTER,
                  "sluiceFree: pointer was freed concurrently");
    EventList waits = a->pendingUses();
    if (q == a->queue.get() && ReusableBlocks::enabledFor(*a->device, a->kind))
      if (keepForQueue(*q, *a, waits))
        return SLUICE_SUCCESS;
    // The queues' newest work, unless it has finished (the usual case of
    // host work run at once: the memory then goes back without a list).
    Queue *owners[2] = {q, a->queue.get()};
    for (size_t i = 0; i < (owners[0] == owners[1] ? 1u : 2u); ++i)
      if (Ref<Event> last = owners[i]->lastEvent(); last && !last->isFinished())
        waits.push_back(std::move(last));
    if (waits.empty()) { // nothing to wait for: back to the pool now
      a->device->memoryPool().release(a->base);
      return SLUICE_SUCCESS;
    }
    platform.deferred().schedule(
        std::move(waits), [a] { a->device->memoryPool().release(a->base); });
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceUsmImport(SluiceQueue queue, SluiceUsmKind kind, void *ptr,
                             size_t bytes) {
  SLUICE_CHECK_ARG(queue);
  SLUICE_CHECK_ARG(ptr);
  return guarded([&] {
    if (kind != SLUICE_USM_UNKNOWN && !capabilityBit(kind))
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceUsmImport: unknown USM kind " + std::to_string(kind));
    if (bytes == 0)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceUsmImport: size must be greater than 0");
    Queue *q = unwrap(queue);
    Device &device = q->device();
    void *base = nullptr;
    size_t size = 0;
    if (SluiceStatus s = device.describeForeign(ptr, bytes, kind, base, size))
      return s;
    auto allocation = std::make_shared<Allocation>();
    allocation->base = base;
    allocation->size = size;
    allocation->kind = kind;
    allocation->device = &device;
    allocation->queue = Ref<Queue>::share(q);
    std::string why;
    if (!Platform::get().usm().addImport(std::move(allocation), why))
      return fail(SLUICE_ERROR_INVALID_POINTER, "sluiceUsmImport: " + why);
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceUsmRelease(void *ptr, SluiceEvent *event) {
  SLUICE_CHECK_ARG(ptr);
  return guarded([&] {
    if (event)
      *event = nullptr;
    bool last = false;
    std::string why;
    std::shared_ptr<Allocation> a =
        Platform::get().usm().releaseImport(ptr, last, why);
    if (!a)
      return fail(SLUICE_ERROR_INVALID_POINTER, "sluiceUsmRelease: " + why);
    if (!event)
      return SLUICE_SUCCESS;
    // Everything that used the memory so far, and the queue's work.
    EventList waits = a->pendingUses();
    if (Ref<Event> lastTask = a->queue->lastEvent())
      waits.push_back(lastTask);
    Ref<Event> done;
    if (SluiceStatus s = a->queue->barrier(std::move(waits), done))
      return s;
    returnEvent(done, event);
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluicePointerGetInfo(const void *ptr, SluiceUsmKind *kind,
                                  SluiceDevice *device, SluiceQueue *queue,
                                  void **base, size_t *size) {
  return guarded([&] {
    std::shared_ptr<Allocation> a = Platform::get().usm().find(ptr);
    if (kind)
      *kind = a ? a->kind : SLUICE_USM_UNKNOWN;
    if (device)
      *device = a ? wrap(a->device) : nullptr;
    if (queue)
      *queue = a ? wrap(a->queue.get()) : nullptr;
    if (base)
      *base = a ? a->base : nullptr;
    if (size)
      *size = a ? a->size : 0;
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceMemcpy(SluiceQueue queue, void *dst, const void *src,
                          size_t bytes, uint32_t num_deps,
                          const SluiceEvent *deps, SluiceEvent *event) {
  SLUICE_CHECK_ARG(queue);
  return guarded([&] {
    Queue &q = *unwrap(queue);
    EventList depList;
    if (SluiceStatus s = toEventList(num_deps, deps, depList))
      return s;
    Ref<Event> out;
    if (bytes == 0) {
      if (SluiceStatus s = q.barrier(depList, out))
        return s;
      returnEvent(out, event);
      return SLUICE_SUCCESS;
    }
    if (!dst || !src)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "sluiceMemcpy: source or destination is NULL");
    UsmRegistry &usm = Platform::get().usm();
    std::shared_ptr<Allocation> srcA = usm.find(src), dstA = usm.find(dst);
    if (SluiceStatus s = checkRange(srcA, src, bytes, "source"))
      return s;
    if (SluiceStatus s = checkRange(dstA, dst, bytes, "destination"))
      return s;
    for (auto *a : {srcA.get(), dstA.get()})
      if (a)
        a->addReuseFence(q, depList);
    bool srcOk = copyReaches(q, srcA.get()), dstOk = copyReaches(q, dstA.get());
    if (srcOk && dstOk) {
      if (SluiceStatus s = q.copy(dst, src, bytes, depList, out))
        return s;
    } else if (SluiceStatus s = stagedCopy(q, dst, src, bytes, srcA, srcOk,
                                           dstA, dstOk, depList, out)) {
      return s;
    }
    for (auto *a : {srcA.get(), dstA.get()})
      if (a)
        a->noteUse(out);
    returnEvent(out, event);
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceFill(SluiceQueue queue, void *dst, const void *pattern,
                        size_t pattern_size, size_t bytes, uint32_t num_deps,
                        const SluiceEvent *deps, SluiceEvent *event) {
  SLUICE_CHECK_ARG(queue);
  SLUICE_CHECK_ARG(pattern);
  return guarded([&] {
    Queue &q = *unwrap(queue);
    if (!isPowerOfTwo(pattern_size) || pattern_size > 128)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "fill pattern size " + std::to_string(pattern_size) +
                      " is not a power of two up to 128");
    if (bytes % pattern_size)
      return fail(SLUICE_ERROR_INVALID_VALUE,
                  "fill size " + std::to_string(bytes) +
                      " is not a multiple of the pattern size " +
                      std::to_string(pattern_size));
    EventList depList;
    if (SluiceStatus s = toEventList(num_deps, deps, depList))
      return s;
    Ref<Event> out;
    if (bytes == 0) {
      if (SluiceStatus s = q.barrier(depList, out))
        return s;
      returnEvent(out, event);
      return SLUICE_SUCCESS;
    }
    if (!dst)
      return fail(SLUICE_ERROR_INVALID_VALUE, "fill destination is NULL");
    std::shared_ptr<Allocation> a = Platform::get().usm().find(dst);
    if (SluiceStatus s = checkRange(a, dst, bytes, "fill"))
      return s;
    if (!kernelReaches(q, a.get()))
      return fail(SLUICE_ERROR_INVALID_POINTER,
                  "fill destination is not memory the queue on " +
                      q.device().filterString() +
                      " can write (fill on the allocation's own queue)");
    if (a)
      a->addReuseFence(q, depList);
    if (SluiceStatus s =
            q.fill(dst, pattern, pattern_size, bytes, depList, out))
      return s;
    if (a)
      a->noteUse(out);
    returnEvent(out, event);
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceMemset(SluiceQueue queue, void *dst, int value, size_t bytes,
                          uint32_t num_deps, const SluiceEvent *deps,
                          SluiceEvent *event) {
  unsigned char byte = static_cast<unsigned char>(value);
  return sluiceFill(queue, dst, &byte, 1, bytes, num_deps, deps, event);
}

SluiceStatus sluiceDeviceGetMemoryPoolInfo(SluiceDevice device,
                                           SluiceMemoryPoolInfo *info) {
  SLUICE_CHECK_ARG(device);
  SLUICE_CHECK_ARG(info);
  return guarded([&] {
    // Memory whose tasks have finished is back in the pool by now.
    Platform::get().deferred().reapFinished();
    unwrap(device)->reusableBlocks().release(/*wait=*/false);
    *info = unwrap(device)->memoryPool().info();
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceDeviceSetMemoryPoolLimit(SluiceDevice device,
                                            uint64_t bytes) {
  SLUICE_CHECK_ARG(device);
  return guarded([&] {
    unwrap(device)->memoryPool().setLimit(bytes);
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceDeviceSetMemoryPoolHoldLimit(SluiceDevice device,
                                                uint64_t bytes) {
  SLUICE_CHECK_ARG(device);
  return guarded([&] {
    unwrap(device)->memoryPool().setHoldLimit(bytes);
    return SLUICE_SUCCESS;
  });
}

SluiceStatus sluiceDeviceTrimMemoryPool(SluiceDevice device) {
  SLUICE_CHECK_ARG(device);
  return guarded([&] {
    Platform::get().deferred().reapFinished();
    unwrap(device)->reusableBlocks().release(/*wait=*/false);
    unwrap(device)->memoryPool().trim();
    return SLUICE_SUCCESS;
  });
}

} // extern "C"
