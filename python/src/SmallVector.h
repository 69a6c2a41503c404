//===- SmallVector.h - A vector with its first elements inline --*- C++ -*-===//
//
// The short lists of one program call (its argument slots, pointers,
// result sizes) fit a few elements: kept inside the object that holds
// them, they cost no heap allocation. Longer lists move to the heap.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_PYTHON_SMALLVECTOR_H
#define SLUICE_PYTHON_SMALLVECTOR_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sluice::py {

/// The elements live in `local` while there are at most N of them, else
/// all of them in `heap`.
template <typename T, size_t N> class SmallVector {
public:
  size_t size() const { return count; }
  bool empty() const { return count == 0; }
  T *data() { return onHeap ? heap.data() : local.data(); }
  const T *data() const { return onHeap ? heap.data() : local.data(); }
  T *begin() { return data(); }
  T *end() { return data() + count; }
  const T *begin() const { return data(); }
  const T *end() const { return data() + count; }
  T &operator[](size_t i) { return data()[i]; }
  const T &operator[](size_t i) const { return data()[i]; }
  T &back() { return data()[count - 1]; }

  void push_back(T value) {
    if (!onHeap && count == N)
      spill(2 * N);
    if (onHeap)
      heap.push_back(std::move(value));
    else
      local[count] = std::move(value);
    ++count;
  }
  /// n elements; new ones are T().
  void resize(size_t n) {
    if (n > N && !onHeap)
      spill(n);
    if (onHeap)
      heap.resize(n);
    else
      for (size_t i = n; i < count; ++i)
        local[i] = T(); // drop what they hold
    count = static_cast<uint32_t>(n);
  }
  /// n copies of value.
  void assign(size_t n, const T &value) {
    clear();
    resize(n);
    for (size_t i = 0; i < n; ++i)
      data()[i] = value;
  }
  void clear() {
    for (size_t i = 0; i < count && !onHeap; ++i)
      local[i] = T();
    heap.clear();
    heap.shrink_to_fit();
    onHeap = false;
    count = 0;
  }

private:
  void spill(size_t capacity) {
    heap.reserve(capacity);
    for (size_t i = 0; i < count; ++i) {
      heap.push_back(std::move(local[i]));
      local[i] = T();
    }
    onHeap = true;
  }

  std::array<T, N> local{};
  std::vector<T> heap;
  uint32_t count = 0;
  bool onHeap = false;
};

} // namespace sluice::py

#endif // SLUICE_PYTHON_SMALLVECTOR_H
