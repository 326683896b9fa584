// The scalar loops (one float at a time, SLEEF's scalar u10 functions): every build has them, and
// they are what runs off x86-64. See Note [Instruction sets are chosen at run time].
#include <sleef.h>

#include "switchyard/backends/kernels/optimized/vector_loop.h"

namespace sy::optimized::detail {
namespace {

struct Scalar {
  using Reg = float;
  static constexpr int64_t kWidth = 1;
  static Reg load(const float* p) { return *p; }
  static void store(float* p, Reg v) { *p = v; }
  static Reg splat(float v) { return v; }
  static Reg add(Reg a, Reg b) { return a + b; }
  static Reg sub(Reg a, Reg b) { return a - b; }
  static Reg mul(Reg a, Reg b) { return a * b; }
  static Reg div(Reg a, Reg b) { return a / b; }
  static Reg max(Reg a, Reg b) { return b > a ? b : a; }
  static Reg negate(Reg v) { return -v; }
  static Reg sigmoid(Reg v) { return sigmoidFromExp<Scalar>(v); }
  static Reg acos(Reg v) { return Sleef_acosf_u10(v); }
  SY_SLEEF_U10_FUNCTIONS(Reg, _u10)
};

}  // namespace

LoopTables scalarLoops() { return loopTablesOf<Scalar>(); }

}  // namespace sy::optimized::detail
