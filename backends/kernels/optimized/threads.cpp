#include "switchyard/backends/kernels/optimized/threads.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "switchyard/core/error.h"

namespace sy {
namespace {

// Chunks a parallelFor offers per thread, so a thread that starts late still finds some.
constexpr int64_t kChunksPerThread = 4;

// How long a worker polls for the next job, and the caller for the workers' last chunk, before
// sleeping: waking a sleeping thread takes tens of microseconds, as long as a chunk, and a model's
// next parallel section usually starts sooner than this.
constexpr auto kPollTime = std::chrono::microseconds(50);

// Calls done() until it is true or kPollTime has passed; whether it became true.
template <typename Done>
bool pollFor(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + kPollTime;
  for (int i = 0;; ++i) {
    if (done()) return true;
    if (i % 64 == 63 && std::chrono::steady_clock::now() > deadline) return false;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
}

int coreCount() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// One parallelFor's chunks: whoever claims chunk i (the caller or a worker) runs it; the caller
// waits until every chunk has run. See Note [The caller never waits for a thread that has not
// started]. A Job is one of its pool's slots, reused: see Note [A parallel section borrows one of
// the pool's job slots].
struct Job {
  absl::FunctionRef<void(int64_t, int64_t)>* fn = nullptr;
  int64_t n = 0, chunk = 0, count = 0;
  std::atomic<int64_t> next{0};      // the next chunk nobody has claimed
  std::atomic<int64_t> finished{0};  // chunks that have run
  std::mutex mutex;                  // taken to notify all_finished, so the caller cannot miss it
  std::condition_variable all_finished;
  std::atomic<bool> owned{false};    // a parallelFor is using this slot
  std::atomic<int> visitors{0};      // workers that took this job and have not yet left it

  // Runs unclaimed chunks until none is left.
  void claimChunks() {
    for (int64_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      const int64_t begin = i * chunk;
      (*fn)(begin, std::min(n, begin + chunk));
      if (finished.fetch_add(1) + 1 == count) {
        std::lock_guard<std::mutex> lock(mutex);
        all_finished.notify_one();
      }
    }
  }
  void waitForAll() {
    if (pollFor([this] { return finished.load() == count; })) return;
    std::unique_lock<std::mutex> lock(mutex);
    all_finished.wait(lock, [this] { return finished.load() == count; });
  }
};

// Note [A parallel section borrows one of the pool's job slots]
// A parallelFor allocates nothing (See Note [A warm optimized kernel allocates nothing]): its Job is
// one of kJobSlots made with the pool. A slot is free when no parallelFor owns it and no worker is
// still inside it: a worker that took the job just as its last chunk was claimed may leave it after
// the caller has returned, and until it has, the slot's counters are still being read. Workers take
// a job only under the pool's mutex while it is offered, so once its caller has withdrawn it, the
// visitor count can only fall; the next owner reads it with acquire order, after the last visitor's
// release, and only then rewrites the fields. When every slot is busy (concurrent callers, or
// visitors slow to leave), the section runs inline on its caller, as it would when another caller's
// job holds the pool.
constexpr int kJobSlots = 4;

// `threads - 1` worker threads and the one job they help with, if any. Joined when the last
// operator using the pool lets go of it.
class Pool {
 public:
  explicit Pool(int threads) {
    try {
      for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
    } catch (const std::system_error& e) {
      stop();
      SY_CHECK(false, "sy::optimized: could not start a thread pool of ", threads, " threads: ", e.what());
    }
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() { stop(); }

  // A free job slot, now owned by the caller, or null when all are busy.
  Job* borrow() {
    for (Job& job : slots_) {
      if (job.owned.exchange(true, std::memory_order_acquire)) continue;
      if (job.visitors.load(std::memory_order_acquire) == 0) return &job;
      job.owned.store(false, std::memory_order_release);
    }
    return nullptr;
  }
  void giveBack(Job* job) { job->owned.store(false, std::memory_order_release); }

  // Offers `job` to the workers; false when another caller's job holds them.
  bool offer(Job* job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (job_) return false;
      job_ = job;
      generation_.fetch_add(1);
    }
    wake_.notify_all();
    return true;
  }
  // Takes the job back once all its chunks are claimed: a worker waking later finds nothing.
  void withdraw() {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = nullptr;
  }

 private:
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  void work() {
    uint64_t seen = 0;
    for (;;) {
      Job* job = nullptr;
      pollFor([&] { return generation_.load() != seen || stopping_.load(); });
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_.load() || generation_.load() != seen; });
        if (stopping_) return;
        seen = generation_.load();
        job = job_;
        if (job) job->visitors.fetch_add(1, std::memory_order_relaxed);
      }
      if (job) {
        job->claimChunks();
        job->visitors.fetch_sub(1, std::memory_order_release);
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  Job slots_[kJobSlots];
  Job* job_ = nullptr;                     // null when no parallelFor is offering chunks
  std::atomic<uint64_t> generation_{0};   // counts offers (changed under mutex_), polled by workers
  std::atomic<bool> stopping_{false};     // changed under mutex_
  std::vector<std::thread> workers_;
};

// The thread count and its pool, replaced as a whole by set_num_threads; an operator holds its own
// reference to the pool it started on, so replacing the pool never pulls it from under a caller.
struct ThreadState {
  std::mutex mutex;
  int threads = 0;              // 0 until first use: then the core count
  std::shared_ptr<Pool> pool;  // null until an operator needs it with more than one thread
};

ThreadState& state() {
  static ThreadState* const s = new ThreadState();  // never destroyed: kernels may run at exit
  return *s;
}

// The thread count, and the pool for it when it is above one.
std::pair<int, std::shared_ptr<Pool>> currentPool() {
  ThreadState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.threads == 0) s.threads = coreCount();
  if (s.threads > 1 && !s.pool) s.pool = std::make_shared<Pool>(s.threads);
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

void parallelFor(int64_t n, int64_t grain, absl::FunctionRef<void(int64_t, int64_t)> fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  if (n < 2 * grain) {
    fn(0, n);
    return;
  }
  const auto [threads, pool] = currentPool();
  const int64_t chunks = std::min<int64_t>(kChunksPerThread * threads, n / grain);
  if (threads <= 1 || chunks <= 1 || !pool) {
    fn(0, n);
    return;
  }
  // Chunks of whole grains, as equal as that allows; the last takes the remainder.
  const int64_t chunk = (n / grain + chunks - 1) / chunks * grain;
  Job* job = pool->borrow();
  if (job == nullptr) {  // the same chunks, all on this thread
    for (int64_t begin = 0; begin < n; begin += chunk) fn(begin, std::min(n, begin + chunk));
    return;
  }
  job->fn = &fn;
  job->n = n;
  job->chunk = chunk;
  job->count = (n + chunk - 1) / chunk;
  job->next.store(0);
  job->finished.store(0);
  const bool offered = pool->offer(job);
  job->claimChunks();
  if (offered) pool->withdraw();
  job->waitForAll();
  pool->giveBack(job);
}

}  // namespace optimized
}  // namespace sy
