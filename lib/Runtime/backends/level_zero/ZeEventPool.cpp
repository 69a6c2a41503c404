//===- ZeEventPool.cpp - Recycled events and completion callbacks ---------===//
#include "ZeEventPool.h"

#include "ZeError.h"
#include "ZeEvent.h"

#include <chrono>

namespace sluice::rt::level_zero {

SluiceStatus ZeEventPool::acquire(ze_event_handle_t &out) {
  std::lock_guard<std::mutex> lock(mutex);
  if (available.empty()) {
    ze_event_pool_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                              ZE_EVENT_POOL_FLAG_HOST_VISIBLE |
                                  ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP,
                              kPoolSize};
    ze_event_pool_handle_t pool = nullptr;
    if (ze_result_t r = zeEventPoolCreate(ctx, &desc, 0, nullptr, &pool))
      return zeFail(r, "zeEventPoolCreate");
    pools.push_back(pool);
    for (uint32_t i = 0; i < kPoolSize; ++i) {
      ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, i,
                                ZE_EVENT_SCOPE_FLAG_HOST,
                                ZE_EVENT_SCOPE_FLAG_HOST};
      ze_event_handle_t event = nullptr;
      if (ze_result_t r = zeEventCreate(pool, &eventDesc, &event)) {
        if (available.empty())
          return zeFail(r, "zeEventCreate");
        break;
      }
      all.push_back(event);
      available.push_back(event);
    }
  }
  out = available.back();
  available.pop_back();
  return SLUICE_SUCCESS;
}

void ZeEventPool::release(ze_event_handle_t event) {
  // An event that cannot be reset is not reused (destroyed at shutdown).
  if (zeEventHostReset(event) != ZE_RESULT_SUCCESS)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  available.push_back(event);
}

void ZeEventPool::destroyAll() {
  std::lock_guard<std::mutex> lock(mutex);
  for (ze_event_handle_t event : all)
    zeEventDestroy(event);
  for (ze_event_pool_handle_t pool : pools)
    zeEventPoolDestroy(pool);
  all.clear();
  available.clear();
  pools.clear();
}

size_t ZeEventPool::poolCount() {
  std::lock_guard<std::mutex> lock(mutex);
  return pools.size();
}

ZeEventWatcher::~ZeEventWatcher() { stop(); }

void ZeEventWatcher::add(Ref<ZeEvent> event, std::function<void(bool)> fn) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!stopping) {
      entries.push_back({std::move(event), std::move(fn)});
      if (!worker.joinable())
        worker = std::thread([this] { run(); });
      cv.notify_all();
      return;
    }
  }
  // Shut down: every command has finished.
  fn(true);
}

void ZeEventWatcher::stop() {
  std::vector<Entry> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
    dropped.swap(entries);
    cv.notify_all();
  }
  if (worker.joinable() && worker.get_id() != std::this_thread::get_id())
    worker.join();
}

void ZeEventWatcher::run() {
  using namespace std::chrono;
  const microseconds shortest(20), longest(1000);
  microseconds backoff = shortest;
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    cv.wait(lock, [&] { return stopping || !entries.empty(); });
    if (stopping)
      return;
    std::vector<Entry> batch;
    batch.swap(entries);
    lock.unlock();
    std::vector<Entry> waiting;
    bool progress = false;
    for (Entry &entry : batch) {
      SluiceEventStatus s = entry.event->status();
      if (s == SLUICE_EVENT_COMPLETE || s == SLUICE_EVENT_ERROR) {
        entry.fn(s == SLUICE_EVENT_COMPLETE);
        progress = true;
      } else {
        waiting.push_back(std::move(entry));
      }
    }
    batch.clear();
    lock.lock();
    for (Entry &entry : waiting)
      entries.push_back(std::move(entry));
    if (stopping)
      return;
    if (progress || entries.empty()) {
      backoff = shortest;
      continue;
    }
    cv.wait_for(lock, backoff);
    backoff = std::min(backoff * 2, longest);
  }
}

} // namespace sluice::rt::level_zero
