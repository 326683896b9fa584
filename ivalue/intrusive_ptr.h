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
  template <class T>
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

template <class T>
class intrusive_ptr {
 public:
  intrusive_ptr() noexcept = default;
  intrusive_ptr(std::nullptr_t) noexcept {}

  // Adopts a pointer that already carries one reference for us (fresh from `new`).
  static intrusive_ptr adopt(T* p) noexcept {
    intrusive_ptr r;
    r.ptr_ = p;
    return r;
  }
  // Shares a pointer someone else owns: takes a new reference.
  static intrusive_ptr reclaim_copy(T* p) noexcept {
    if (p) p->retain();
    return adopt(p);
  }

  intrusive_ptr(const intrusive_ptr& other) noexcept : ptr_(other.ptr_) {
    if (ptr_) ptr_->retain();
  }
  intrusive_ptr(intrusive_ptr&& other) noexcept : ptr_(other.ptr_) { other.ptr_ = nullptr; }
  template <class U>
  intrusive_ptr(intrusive_ptr<U>&& other) noexcept : ptr_(other.release()) {}
  template <class U>
  intrusive_ptr(const intrusive_ptr<U>& other) noexcept : ptr_(other.get()) {
    if (ptr_) ptr_->retain();
  }

  intrusive_ptr& operator=(const intrusive_ptr& other) noexcept {
    intrusive_ptr(other).swap(*this);
    return *this;
  }
  intrusive_ptr& operator=(intrusive_ptr&& other) noexcept {
    intrusive_ptr(std::move(other)).swap(*this);
    return *this;
  }
  ~intrusive_ptr() {
    if (ptr_) ptr_->release();
  }

  T* get() const noexcept { return ptr_; }
  T* operator->() const noexcept { return ptr_; }
  T& operator*() const noexcept { return *ptr_; }
  explicit operator bool() const noexcept { return ptr_ != nullptr; }

  // Gives up ownership without touching the count.
  T* release() noexcept {
    T* p = ptr_;
    ptr_ = nullptr;
    return p;
  }
  void reset() noexcept { intrusive_ptr().swap(*this); }
  void swap(intrusive_ptr& other) noexcept { std::swap(ptr_, other.ptr_); }
  uint32_t use_count() const noexcept { return ptr_ ? ptr_->use_count() : 0; }

  friend bool operator==(const intrusive_ptr& a, const intrusive_ptr& b) { return a.ptr_ == b.ptr_; }
  friend bool operator!=(const intrusive_ptr& a, const intrusive_ptr& b) { return a.ptr_ != b.ptr_; }

 private:
  T* ptr_ = nullptr;
};

template <class T, class... Args>
intrusive_ptr<T> make_intrusive(Args&&... args) {
  return intrusive_ptr<T>::adopt(new T(std::forward<Args>(args)...));
}

}  // namespace sy
