// intrusive_ptr<T>: a shared pointer whose count lives inside the object.
//
// Tensors, storages and the heap payloads of IValue (strings, lists, tuples, objects) derive from
// `IntrusiveTarget`. One pointer wide, so a Tensor is one word and an IValue can hold it in its
// payload; moving never touches the count.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace sy {

class IntrusiveTarget {
 public:
  IntrusiveTarget() = default;
  IntrusiveTarget(const IntrusiveTarget&) = delete;
  IntrusiveTarget& operator=(const IntrusiveTarget&) = delete;
  virtual ~IntrusiveTarget() = default;

  uint32_t use_count() const { return refcount_.load(std::memory_order_relaxed); }

 private:
  template <class T, class NullType>
  friend class intrusive_ptr;
  friend struct IntrusiveAccess;

  void retain() const { refcount_.fetch_add(1, std::memory_order_relaxed); }
  void release() const {
    if (refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  // Starts at 1: `make_intrusive` adopts the first reference without an increment.
  mutable std::atomic<uint32_t> refcount_{1};
};

// Raw retain/release for the few places (IValue's payload) that manage a pointer by hand.
struct IntrusiveAccess {
  static void retain(const IntrusiveTarget* p) { if (p) p->retain(); }
  static void release(const IntrusiveTarget* p) { if (p) p->release(); }
};

// The "no object" value of an intrusive_ptr: nullptr by default. A type may name a sentinel
// object instead (Tensor uses UndefinedTensorImpl), so that reading through an empty pointer is
// valid and the hot path needs no null check; the sentinel's count is never touched.
template <class T>
struct NullptrTarget {
  static constexpr T* singleton() noexcept { return nullptr; }
};

template <class T, class NullType = NullptrTarget<T>>
class intrusive_ptr {
 public:
  intrusive_ptr() noexcept : ptr_(NullType::singleton()) {}
  intrusive_ptr(std::nullptr_t) noexcept : intrusive_ptr() {}

  // Adopts a pointer that already carries one reference for us (fresh from `new`).
  static intrusive_ptr adopt(T* p) noexcept {
    intrusive_ptr r;
    if (p) r.ptr_ = p;
    return r;
  }
  // Shares a pointer someone else owns: takes a new reference.
  static intrusive_ptr reclaim_copy(T* p) noexcept {
    intrusive_ptr r = adopt(p);
    r.retain();
    return r;
  }

  intrusive_ptr(const intrusive_ptr& other) noexcept : ptr_(other.ptr_) { retain(); }
  intrusive_ptr(intrusive_ptr&& other) noexcept : ptr_(other.ptr_) { other.ptr_ = NullType::singleton(); }
  template <class U, class OtherNull>
  intrusive_ptr(intrusive_ptr<U, OtherNull>&& other) noexcept : intrusive_ptr(adopt(other.release())) {}
  template <class U, class OtherNull>
  intrusive_ptr(const intrusive_ptr<U, OtherNull>& other) noexcept : intrusive_ptr(reclaim_copy(other.defined_get())) {}

  intrusive_ptr& operator=(const intrusive_ptr& other) noexcept {
    intrusive_ptr(other).swap(*this);
    return *this;
  }
  intrusive_ptr& operator=(intrusive_ptr&& other) noexcept {
    intrusive_ptr(std::move(other)).swap(*this);
    return *this;
  }
  ~intrusive_ptr() {
    if (ptr_ != NullType::singleton()) ptr_->release();
  }

  // The raw pointer; the sentinel (not nullptr) when empty and NullType names one.
  T* get() const noexcept { return ptr_; }
  // The raw pointer, or nullptr when empty.
  T* defined_get() const noexcept { return ptr_ == NullType::singleton() ? nullptr : ptr_; }
  T* operator->() const noexcept { return ptr_; }
  T& operator*() const noexcept { return *ptr_; }
  explicit operator bool() const noexcept { return ptr_ != NullType::singleton(); }

  // Gives up ownership without touching the count; nullptr when empty.
  T* release() noexcept {
    T* p = defined_get();
    ptr_ = NullType::singleton();
    return p;
  }
  void reset() noexcept { intrusive_ptr().swap(*this); }
  void swap(intrusive_ptr& other) noexcept { std::swap(ptr_, other.ptr_); }
  uint32_t use_count() const noexcept { return *this ? ptr_->use_count() : 0; }

  friend bool operator==(const intrusive_ptr& a, const intrusive_ptr& b) { return a.ptr_ == b.ptr_; }
  friend bool operator!=(const intrusive_ptr& a, const intrusive_ptr& b) { return a.ptr_ != b.ptr_; }

 private:
  void retain() const noexcept {
    if (ptr_ != NullType::singleton()) ptr_->retain();
  }

  T* ptr_;
};

template <class T, class... Args>
intrusive_ptr<T> make_intrusive(Args&&... args) {
  return intrusive_ptr<T>::adopt(new T(std::forward<Args>(args)...));
}

}  // namespace sy
