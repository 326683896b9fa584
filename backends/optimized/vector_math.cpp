// The run-time choice of instruction set (see Note [Instruction sets are chosen at run time]) and
// the entry points over it.
#include "switchyard/backends/optimized/vector_math.h"

#include <initializer_list>

namespace sy::optimized {

namespace {

bool cpuHas(InstructionSet set) {
  switch (set) {
    case InstructionSet::Scalar:
      return true;
#if defined(__x86_64__)
    case InstructionSet::Sse2:
      return true;  // part of x86-64
    case InstructionSet::Avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    default:
      return false;
#endif
  }
  return false;
}

const UnaryLoop* loopsOf(InstructionSet set) {
  switch (set) {
    case InstructionSet::Scalar: return detail::scalarLoops();
    case InstructionSet::Sse2: return detail::sse2Loops();
    case InstructionSet::Avx2: return detail::avx2Loops();
  }
  return nullptr;
}

bool available(InstructionSet set) { return loopsOf(set) != nullptr && cpuHas(set); }

InstructionSet widestAvailable() {
  for (InstructionSet set : {InstructionSet::Avx2, InstructionSet::Sse2}) {
    if (available(set)) return set;
  }
  return InstructionSet::Scalar;
}

const UnaryLoop* activeLoops() {
  static const UnaryLoop* const loops = loopsOf(activeInstructionSet());
  return loops;
}

}  // namespace

const char* unaryFunctionName(UnaryFunction f) {
  static constexpr const char* kNames[kNumUnaryFunctions] = {"exp", "log", "sin", "cos", "tanh", "sigmoid", "acos"};
  return kNames[static_cast<int>(f)];
}

const char* instructionSetName(InstructionSet set) {
  switch (set) {
    case InstructionSet::Scalar: return "scalar";
    case InstructionSet::Sse2: return "sse2";
    case InstructionSet::Avx2: return "avx2";
  }
  return "?";
}

InstructionSet activeInstructionSet() {
  static const InstructionSet set = widestAvailable();
  return set;
}

UnaryLoop unaryLoop(UnaryFunction f, InstructionSet set) {
  return available(set) ? loopsOf(set)[static_cast<int>(f)] : nullptr;
}

void applyUnary(UnaryFunction f, const float* in, float* out, int64_t n) { activeLoops()[static_cast<int>(f)](in, out, n); }

}  // namespace sy::optimized
