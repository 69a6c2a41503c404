//===- RefCounted.h - Intrusive reference counting --------------*- C++ -*-===//
//
// Queues, events and modules are shared between C handles and runtime
// internals (deferred frees, dependency lists), so they carry their own
// atomic count. C handles are the raw object pointers.
//
//===----------------------------------------------------------------------===//
#ifndef SLUICE_RUNTIME_REFCOUNTED_H
#define SLUICE_RUNTIME_REFCOUNTED_H

#include <atomic>
#include <utility>

namespace sluice::rt {

class RefCounted {
public:
  RefCounted() = default;
  RefCounted(const RefCounted &) = delete;
  RefCounted &operator=(const RefCounted &) = delete;
  virtual ~RefCounted() = default;

  void retain() { count.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (count.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }

private:
  std::atomic<long> count{1};
};

/// An owning pointer to a RefCounted object.
template <typename T> class Ref {
public:
  Ref() = default;
  Ref(std::nullptr_t) {}
  /// Takes over one reference that the caller owns.
  static Ref adopt(T *p) {
    Ref r;
    r.ptr = p;
    return r;
  }
  /// Adds a reference of its own.
  static Ref share(T *p) {
    if (p)
      p->retain();
    return adopt(p);
  }
  Ref(const Ref &o) : ptr(o.ptr) {
    if (ptr)
      ptr->retain();
  }
  Ref(Ref &&o) noexcept : ptr(std::exchange(o.ptr, nullptr)) {}
  template <typename U> Ref(Ref<U> o) : ptr(o.leak()) {}
  Ref &operator=(Ref o) noexcept {
    std::swap(ptr, o.ptr);
    return *this;
  }
  ~Ref() {
    if (ptr)
      ptr->release();
  }
  T *get() const { return ptr; }
  T *operator->() const { return ptr; }
  T &operator*() const { return *ptr; }
  explicit operator bool() const { return ptr != nullptr; }
  /// Gives up ownership of the reference without releasing it.
  T *leak() { return std::exchange(ptr, nullptr); }

private:
  T *ptr = nullptr;
};

template <typename T, typename... Args> Ref<T> makeRef(Args &&...args) {
  return Ref<T>::adopt(new T(std::forward<Args>(args)...));
}

} // namespace sluice::rt

#endif // SLUICE_RUNTIME_REFCOUNTED_H
