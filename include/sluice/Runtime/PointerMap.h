//===- PointerMap.h - A flat hash map keyed by pointers ---------*- C++ -*-===//
//
// The tables of live blocks (MemoryPool) and of allocations by their base
// (UsmRegistry) are looked up, filled and emptied once per array result.
// A node-based map costs a heap allocation per insertion and a cache miss
// per node visited, which a loop keeping thousands of small results pays on
// every operation. This one keeps its entries in one array (open
// addressing, linear probing, deletion by shifting the following entries
// back), so insertion and removal allocate only when the table grows.
// Not thread-safe: its owner's mutex guards it.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_RUNTIME_POINTERMAP_H
#define SLUICE_RUNTIME_POINTERMAP_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sluice::rt {

template <typename V> class PointerMap {
public:
  /// The value of `key`, or null.
  const V *find(const void *key) const {
    if (count == 0)
      return nullptr;
    for (size_t i = home(key);; i = (i + 1) & mask()) {
      const Slot &s = slots[i];
      if (!s.key)
        return nullptr;
      if (s.key == key)
        return &s.value;
    }
  }

  /// Sets the value of `key` (not null).
  void insert(const void *key, V value) {
    if ((count + 1) * 4 > slots.size() * 3)
      grow();
    for (size_t i = home(key);; i = (i + 1) & mask()) {
      Slot &s = slots[i];
      if (!s.key) {
        s.key = key;
        s.value = std::move(value);
        ++count;
        return;
      }
      if (s.key == key) {
        s.value = std::move(value);
        return;
      }
    }
  }

  /// Removes `key` and gives its value in `out`; false if absent.
  bool erase(const void *key, V &out) {
    if (count == 0)
      return false;
    size_t i = home(key);
    for (;; i = (i + 1) & mask()) {
      if (!slots[i].key)
        return false;
      if (slots[i].key == key)
        break;
    }
    out = std::move(slots[i].value);
    // Shift back the entries after the hole that may sit there (their home
    // is not between the hole and them), so that no probe stops early.
    for (size_t j = (i + 1) & mask();; j = (j + 1) & mask()) {
      Slot &s = slots[j];
      if (!s.key)
        break;
      size_t h = home(s.key);
      bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (stays)
        continue;
      slots[i] = std::move(s);
      i = j;
    }
    slots[i] = Slot();
    --count;
    return true;
  }

  size_t size() const { return count; }

  template <typename F> void forEach(F &&fn) {
    for (Slot &s : slots)
      if (s.key)
        fn(s.key, s.value);
  }

  void clear() {
    slots.clear();
    count = 0;
  }

private:
  struct Slot {
    const void *key = nullptr;
    V value{};
  };

  size_t mask() const { return slots.size() - 1; }
  size_t home(const void *key) const {
    // Blocks are at least 16-byte aligned: mix the bits above those.
    uint64_t x = reinterpret_cast<uintptr_t>(key) >> 4;
    x *= 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(x >> 32) & mask();
  }

  void grow() {
    std::vector<Slot> old = std::move(slots);
    slots.assign(old.empty() ? 64 : old.size() * 2, Slot());
    count = 0;
    for (Slot &s : old)
      if (s.key)
        insert(s.key, std::move(s.value));
  }

  std::vector<Slot> slots;
  size_t count = 0;
};

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_POINTERMAP_H
