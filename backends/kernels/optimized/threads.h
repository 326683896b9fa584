// The number of threads the optimized kernels (switchyard::optimized) use inside one operator, all
// of them on one thread pool: the elementwise, softmax and sum kernels split their loops, the
// matrix products and the convolution split their sgemm calls (OpenBLAS itself runs on one thread;
// see Note [OpenBLAS runs on one thread; sgemm splits large products itself]). The default is one
// thread per core.
//
//   #include <switchyard/backends/kernels/optimized/threads.h>
//   sy::set_num_threads(2);       // at most two threads per operator from now on
//   int n = sy::get_num_threads();
//
// Small operators always run on the calling thread (see Note [Only large operators use the
// thread pool]); results do not depend on the thread count, apart from a large matrix product's,
// within Float rounding. The portable CPU kernels of libswitchyard use the calling thread only,
// whatever the setting.
//
// Note [Only large operators use the thread pool]
// Waking the pool's threads and joining them costs a few microseconds, as much as exp takes on a
// few thousand Floats, so parallelFor splits a range only when it has at least kParallelGrain
// elements per thread it would use (about 30 microseconds of the slowest vectorised function, acos,
// per thread); smaller ranges run inline. Each chunk is a whole multiple of the grain, apart from
// the last, and a chunk's result never depends on where the range was split (each element is
// computed by the same vector function; see Note [Vector tails go through the vector function]),
// so one thread and many give identical results. Concurrent operators on different caller threads
// share the pool; see Note [The caller never waits for a thread that has not started].
//
// Note [The caller never waits for a thread that has not started]
// parallelFor cuts a range into up to kChunksPerThread chunks per thread (threads.cpp), offers
// them to the pool's workers and runs them itself too: the caller and each worker that wakes claim
// the next unclaimed chunk until none is left, and the caller then waits only for chunks a worker
// has claimed, which are running. A worker that has not been scheduled yet (the cores busy with
// other processes) finds nothing left when it wakes, so on a loaded machine a section takes about
// its one-thread time rather than a scheduler's time slice: pthreadpool, used before, waited for
// every worker to check in, and at load average 5 on two cores each parallel section took about
// 8 ms (bench/README.md). A worker preempted inside its chunk still holds the caller up. Waking a
// sleeping thread takes about as long as a chunk, so workers poll for the next job, and the caller
// for the last chunk, for kPollTime before they sleep.
// The chunks depend only on the range, the grain and the thread count, never on who runs them. The
// pool takes one parallelFor at a time: another one, from a concurrent operator or from inside a
// chunk, runs its same chunks on its own caller thread.
#pragma once

#include <cstdint>

#include "absl/functional/function_ref.h"

namespace sy {

// Sets the number of threads an optimized operator may use; raises when `n` < 1.
// Takes effect for operators that start after it returns.
void set_num_threads(int n);

// The number of threads an optimized operator may use: the last set_num_threads, else the number
// of cores.
int get_num_threads();

namespace optimized {

// Elements per thread below which a range is not split (see Note [Only large operators use the
// thread pool]).
inline constexpr int64_t kParallelGrain = 32768;

// Calls fn(begin, end) over disjoint chunks covering [0, n): inline as one chunk when n is small or
// one thread is set, else on the pool. `grain` is the smallest chunk worth a thread, in elements of
// the range. fn must not throw. Allocates nothing once the pool has started; see Note [A warm
// optimized kernel allocates nothing].
void parallelFor(int64_t n, int64_t grain, absl::FunctionRef<void(int64_t, int64_t)> fn);

}  // namespace optimized
}  // namespace sy
