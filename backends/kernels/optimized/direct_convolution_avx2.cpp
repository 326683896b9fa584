// The direct convolution's AVX2 unit: 8 Floats per register, sums for up to 4 filters x 3
// registers (12 of the 16). Compiled with -mavx2 -mfma; it runs only on CPUs that have it (See Note
// [Instruction sets are chosen at run time] in vector_math.h).
#include "switchyard/backends/kernels/optimized/direct_convolution.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)

#include <immintrin.h>

#include "switchyard/backends/kernels/optimized/direct_convolution_loop.h"

namespace sy::optimized::direct_unit {
namespace {

struct Avx2 {
  using Reg = __m256;
  static constexpr int kLanes = 8;
  static constexpr int kAccumulators = 12;
  static constexpr int kFilterGroup = 4;
  static Reg load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, Reg v) { _mm256_storeu_ps(p, v); }
  static Reg splat(float v) { return _mm256_set1_ps(v); }
  static Reg fma(Reg a, Reg b, Reg c) { return _mm256_fmadd_ps(a, b, c); }
};

}  // namespace

DirectBlocks directBlocksAvx2() { return &directBlocksOf<Avx2>; }

}  // namespace sy::optimized::direct_unit

#else

namespace sy::optimized::direct_unit {
DirectBlocks directBlocksAvx2() { return nullptr; }
}  // namespace sy::optimized::direct_unit

#endif
