// The counting operator new and delete behind allocation_counter.h.
#include "allocation_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<bool> g_counting_allocations{false};
std::atomic<long> g_allocations{0};

void* countedMalloc(std::size_t size) noexcept {
  if (g_counting_allocations.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
}  // namespace

// Every replaceable form of new and delete that does not take an alignment is replaced, so each
// allocation and its release go through the same pair (malloc/free): a library function that uses
// the nothrow or array form (std::stable_sort's buffer) must not be freed by a replaced delete it
// was not allocated by (AddressSanitizer reports that as alloc-dealloc-mismatch).
void* operator new(std::size_t size) {
  if (void* p = countedMalloc(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = countedMalloc(size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return countedMalloc(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return countedMalloc(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace sy::testing {

long allocationsDuring(absl::FunctionRef<void()> fn) {
  g_allocations.store(0);
  g_counting_allocations.store(true);
  fn();
  g_counting_allocations.store(false);
  return g_allocations.load();
}

}  // namespace sy::testing
