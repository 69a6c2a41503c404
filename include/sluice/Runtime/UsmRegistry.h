//===- UsmRegistry.h - The table of live USM allocations --------*- C++ -*-===//
#ifndef SLUICE_RUNTIME_USMREGISTRY_H
#define SLUICE_RUNTIME_USMREGISTRY_H

#include "sluice/Runtime/Event.h"
#include "sluice/Runtime/PointerMap.h"
#include "sluice/Runtime/Queue.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sluice::rt {

/// One live allocation. `uses` holds the unfinished tasks that received a
/// pointer into it; the allocation is released only after they finish.
struct Allocation {
  void *base = nullptr;
  size_t size = 0;
  SluiceUsmKind kind = SLUICE_USM_UNKNOWN;
  Device *device = nullptr;
  Ref<Queue> queue;
  /// Memory another library allocated (sluiceUsmImport): how many imports
  /// hold it; 0 for Sluice's own allocations. Guarded by the registry.
  int imports = 0;
  std::mutex usesMutex;
  EventList uses;

  /// For memory handed out again before the tasks that used it last
  /// finished (ReusableBlocks): the newest of them, on `queue`'s in-order
  /// queue; tasks of other queues follow it.
  Ref<Event> reuseFence;

  void noteUse(const Ref<Event> &event);
  EventList pendingUses();
  /// Adds the reuse fence to `deps` of a task on `on` (another queue than
  /// the allocation's) while it is unfinished.
  void addReuseFence(const Queue &on, EventList &deps);
};

/// Maps addresses (interior ones too) to their allocation. Thread-safe.
class UsmRegistry {
public:
  void add(std::shared_ptr<Allocation> allocation);
  /// The allocation containing `ptr`, or null.
  std::shared_ptr<Allocation> find(const void *ptr) const;
  /// Removes the allocation whose base is `ptr`; null if there is none.
  std::shared_ptr<Allocation> remove(const void *ptr);

  /// Registers foreign memory: joins an import of the same queue that
  /// contains [base, base + size) (one more import), or adds a new one.
  /// Fails, saying why in `why`, when the range meets another allocation.
  bool addImport(std::shared_ptr<Allocation> allocation, std::string &why);
  /// Ends one import of the memory containing `ptr`: the allocation, and
  /// whether that was its last import (it is then removed). Null and a
  /// reason when `ptr` is not imported memory.
  std::shared_ptr<Allocation> releaseImport(const void *ptr, bool &last,
                                            std::string &why);

private:
  void insertLocked(std::shared_ptr<Allocation> allocation);
  /// An allocation meeting [begin, end), or null (mutex held).
  std::shared_ptr<Allocation> firstOverlapLocked(uintptr_t begin,
                                                 uintptr_t end) const;

  /// The tree's nodes, kept for the next insertion once removed: every
  /// array result adds and removes one, and a heap allocation each time
  /// cost more than the tree walk (a loop keeping thousands of results
  /// takes malloc's slow paths).
  struct NodeCache {
    std::vector<void *> nodes;
    size_t nodeSize = 0;
    NodeCache() = default;
    NodeCache(const NodeCache &) = delete;
    NodeCache &operator=(const NodeCache &) = delete;
    ~NodeCache() {
      for (void *p : nodes)
        ::operator delete(p);
    }
  };
  template <typename T> struct NodeAllocator {
    using value_type = T;
    NodeCache *cache;
    explicit NodeAllocator(NodeCache *cache) : cache(cache) {}
    template <typename U>
    NodeAllocator(const NodeAllocator<U> &other) : cache(other.cache) {}
    T *allocate(size_t n) {
      if (n == 1 && sizeof(T) == cache->nodeSize && !cache->nodes.empty()) {
        void *p = cache->nodes.back();
        cache->nodes.pop_back();
        return static_cast<T *>(p);
      }
      return static_cast<T *>(::operator new(n * sizeof(T)));
    }
    void deallocate(T *p, size_t n) {
      constexpr size_t kMaxKept = 4096;
      if (n == 1 && (cache->nodeSize == 0 || cache->nodeSize == sizeof(T)) &&
          cache->nodes.size() < kMaxKept) {
        cache->nodeSize = sizeof(T);
        cache->nodes.push_back(p);
        return;
      }
      ::operator delete(p);
    }
    template <typename U> bool operator==(const NodeAllocator<U> &o) const {
      return cache == o.cache;
    }
    template <typename U> bool operator!=(const NodeAllocator<U> &o) const {
      return cache != o.cache;
    }
  };
  using ByBase = std::map<
      uintptr_t, std::shared_ptr<Allocation>, std::less<uintptr_t>,
      NodeAllocator<std::pair<const uintptr_t, std::shared_ptr<Allocation>>>>;

  mutable std::mutex mutex;
  NodeCache nodeCache; // before byBase: outlives it
  ByBase byBase{ByBase::allocator_type(&nodeCache)};
  /// The same allocations by their exact base: most pointers looked up
  /// are one (a kernel argument, a pointer freed), found without walking
  /// the tree.
  PointerMap<std::shared_ptr<Allocation>> exactBase;
  /// Every allocation ever added lies in [lowest, highest) (written under
  /// the mutex, read without it).
  std::atomic<uintptr_t> lowest{UINTPTR_MAX}, highest{0};
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_USMREGISTRY_H
