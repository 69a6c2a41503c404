//===- ReusableBlocks.cpp - Stream-ordered reuse of freed memory ----------===//
#include "sluice/Runtime/ReusableBlocks.h"

#include "sluice/Runtime/Device.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace sluice::rt {

namespace {

std::atomic<int> testMode{-1};

bool disabledByEnvironment() {
  static const bool off = [] {
    const char *env = std::getenv("SLUICE_REUSE_IN_ORDER");
    return env && (std::strcmp(env, "0") == 0 || std::strcmp(env, "off") == 0);
  }();
  return off;
}

} // namespace

ReusableBlocks::~ReusableBlocks() { release(/*wait=*/false); }

bool ReusableBlocks::enabledFor(Device &device, SluiceUsmKind kind) {
  int mode = testMode.load(std::memory_order_relaxed);
  if (mode >= 0)
    return mode == 1;
  return kind == SLUICE_USM_DEVICE && !device.hostAccessible(kind) &&
         !disabledByEnvironment();
}

void ReusableBlocks::setModeForTesting(int mode) {
  testMode.store(mode, std::memory_order_relaxed);
}

void ReusableBlocks::offer(Entry entry, Entry &evicted) {
  std::lock_guard<std::mutex> lock(mutex);
  entries.push_back(std::move(entry));
  if (entries.size() > kMaxBlocks) {
    evicted = std::move(entries.front());
    entries.pop_front();
  }
}

bool ReusableBlocks::take(const Queue *queue, SluiceUsmKind kind, size_t bytes,
                          size_t alignment, void *&ptr, Ref<Event> &fence) {
  size_t cls = MemoryPool::sizeClass(bytes);
  size_t align = alignment > 64 ? alignment : 64;
  std::lock_guard<std::mutex> lock(mutex);
  // Newest first: the block most likely still in the caches.
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    Entry &e = *it;
    if (e.kind != kind || e.blockSize < bytes || e.blockSize > cls ||
        e.alignment < align || e.alignment % align)
      continue;
    bool ordered = e.queue == queue;
    if (!ordered && e.fence && !e.fence->isFinished())
      continue;
    ptr = e.ptr;
    // For the same queue the fence is kept unasked (no driver call): other
    // queues check it when they use the memory.
    fence = ordered ? e.fence : nullptr;
    entries.erase(std::next(it).base());
    return true;
  }
  return false;
}

void ReusableBlocks::release(bool wait) {
  std::vector<Entry> done;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto it = entries.begin(); it != entries.end();) {
      if (!it->fence || it->fence->isFinished() || wait) {
        done.push_back(std::move(*it));
        it = entries.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (Entry &e : done) {
    if (e.fence)
      e.fence->wait();
    device.memoryPool().release(e.ptr);
  }
}

void ReusableBlocks::forget(const Queue *queue) {
  std::vector<Entry> done;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto it = entries.begin(); it != entries.end();) {
      if (it->queue == queue) {
        done.push_back(std::move(*it));
        it = entries.erase(it);
      } else {
        ++it;
      }
    }
  }
  // Normally the queue finished its work before this; otherwise a block
  // goes back once its tasks have.
  for (Entry &e : done) {
    if (!e.fence || e.fence->isFinished()) {
      device.memoryPool().release(e.ptr);
      continue;
    }
    Device *d = &device;
    void *ptr = e.ptr;
    e.fence->whenComplete([d, ptr](bool) { d->memoryPool().release(ptr); });
  }
}

} // namespace sluice::rt
