// Scratch memory for the optimized kernels: one buffer per thread and per purpose, grown to the
// largest size asked of it and then reused, so a kernel that needs temporary memory (the
// convolution's unfolded patches, a parallel sum's partial sums) allocates only when it first sees
// a larger size.
//
//   struct UnfoldedPatches {};  // the purpose: each gets its own buffer
//   float* columns = sy::optimized::scratchFloats<UnfoldedPatches>(depth * positions);
//
// Note [A warm optimized kernel allocates nothing]
// ExecuTorch's rule for a method is that nothing is allocated while it executes: its memory comes
// from the plan made at load time. The optimized kernels keep that rule once warm. Their temporary
// buffers are per-thread scratch that only grows (held until the thread exits: at most
// kColumnsBudget bytes of unfolded patches for the convolution, or for the direct convolution a
// padded image of at most 32 MiB and the packed filters; a few KiB for the sums), and parallelFor
// takes one of its pool's preallocated job slots, never the heap (threads.cpp). What allocates is
// the first call at a new, larger size and the first parallel section, which starts the pool's
// threads; every later call of the same shapes allocates nothing, at any thread count. Tested by
// counting operator new in tests/backends/kernels/optimized/optimized_allocation_test.cpp.
#pragma once

#include <cstddef>
#include <vector>

namespace sy::optimized {

// At least `n` values of T (scratchFloats: Floats) of this thread's scratch for `Purpose`, valid
// until its next call on this thread. A kernel holding a purpose's buffer must not call another
// kernel that uses the same purpose. Contents are unspecified.
template <class Purpose, class T = float>
T* scratchOf(size_t n) {
  thread_local std::vector<T> buffer;
  if (buffer.size() < n) buffer.resize(n);
  return buffer.data();
}
template <class Purpose>
float* scratchFloats(size_t n) {
  return scratchOf<Purpose, float>(n);
}

}  // namespace sy::optimized
