#include "switchyard/backends/optimized/threads.h"

#include <pthreadpool.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "switchyard/ivalue/error.h"

namespace sy {
namespace {

struct PoolDeleter {
  void operator()(pthreadpool* pool) const { pthreadpool_destroy(pool); }
};
using Pool = std::shared_ptr<pthreadpool>;

int coreCount() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// The thread count and its pool, replaced as a whole by set_num_threads; an operator holds its own
// reference to the pool it started on, so replacing the pool never pulls it from under a caller.
struct ThreadState {
  std::mutex mutex;
  int threads = 0;  // 0 until first use: then the core count
  Pool pool;        // null until an operator needs it with more than one thread
};

ThreadState& state() {
  static ThreadState* const s = new ThreadState();  // never destroyed: kernels may run at exit
  return *s;
}

// The thread count, and the pool for it when it is above one.
std::pair<int, Pool> currentPool() {
  ThreadState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.threads == 0) s.threads = coreCount();
  if (s.threads > 1 && !s.pool) {
    pthreadpool* pool = pthreadpool_create(static_cast<size_t>(s.threads));
    SY_CHECK(pool != nullptr, "sy::optimized: could not create a thread pool of ", s.threads, " threads");
    s.pool = Pool(pool, PoolDeleter());
  }
  return {s.threads, s.pool};
}

}  // namespace

void set_num_threads(int n) {
  SY_CHECK(n >= 1, "sy::set_num_threads: expected a positive number of threads but got ", n);
  ThreadState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.threads == n) return;
  s.threads = n;
  s.pool.reset();  // made again, with n threads, when an operator next needs it
}

int get_num_threads() {
  ThreadState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.threads == 0 ? coreCount() : s.threads;
}

namespace optimized {

void parallelFor(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  if (n < 2 * grain) {
    fn(0, n);
    return;
  }
  const auto [threads, pool] = currentPool();
  const int64_t chunks = std::min<int64_t>(threads, n / grain);
  if (chunks <= 1 || !pool) {
    fn(0, n);
    return;
  }
  // Chunks of whole grains, as equal as that allows; the last takes the remainder.
  const int64_t chunk = (n / grain + chunks - 1) / chunks * grain;
  struct Context {
    const std::function<void(int64_t, int64_t)>* fn;
    int64_t n, chunk;
  } context{&fn, n, chunk};
  const pthreadpool_task_1d_t task = [](void* raw, size_t index) {
    const auto* c = static_cast<const Context*>(raw);
    const int64_t begin = static_cast<int64_t>(index) * c->chunk;
    (*c->fn)(begin, std::min(c->n, begin + c->chunk));
  };
  const size_t count = static_cast<size_t>((n + chunk - 1) / chunk);
  pthreadpool_parallelize_1d(pool.get(), task, &context, count, 0);
}

}  // namespace optimized
}  // namespace sy
