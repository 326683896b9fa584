// The direct convolution's AVX-512 unit: 16 Floats per register, sums for up to 8 filters x 3
// registers (24 of the 32). Compiled with -mavx512f; it runs only on CPUs that have it (See Note
// [Instruction sets are chosen at run time] in vector_math.h).
#include "switchyard/backends/kernels/optimized/direct_convolution.h"

#if defined(__x86_64__) && defined(__AVX512F__)

#include <immintrin.h>

#include "switchyard/backends/kernels/optimized/direct_convolution_loop.h"

namespace sy::optimized::direct_unit {
namespace {

struct Avx512 {
  using Reg = __m512;
  static constexpr int kLanes = 16;
  static constexpr int kAccumulators = 24;
  static constexpr int kFilterGroup = 8;
  static Reg load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm512_storeu_ps(p, v); }
  static Reg splat(float v) { return _mm512_set1_ps(v); }
  static Reg fma(Reg a, Reg b, Reg c) { return _mm512_fmadd_ps(a, b, c); }
};

}  // namespace

DirectBlocks directBlocksAvx512() { return &directBlocksOf<Avx512>; }

}  // namespace sy::optimized::direct_unit

#else

namespace sy::optimized::direct_unit {
DirectBlocks directBlocksAvx512() { return nullptr; }
}  // namespace sy::optimized::direct_unit

#endif
