// The run-time choice of instruction set (see Note [Instruction sets are chosen at run time]) and
// the entry points over it.
#include "switchyard/backends/kernels/optimized/vector_math.h"

#include <algorithm>

#include "switchyard/backends/kernels/optimized/threads.h"

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
    case InstructionSet::Avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#else
    default:
      return false;
#endif
  }
  return false;
}

detail::LoopTables loopsOf(InstructionSet set) {
  switch (set) {
    case InstructionSet::Scalar: return detail::scalarLoops();
    case InstructionSet::Sse2: return detail::sse2Loops();
    case InstructionSet::Avx2: return detail::avx2Loops();
    case InstructionSet::Avx512: return detail::avx512Loops();
  }
  return {nullptr, nullptr, nullptr};
}

bool available(InstructionSet set) { return loopsOf(set).unary != nullptr && cpuHas(set); }

InstructionSet widestAvailable() {
  for (InstructionSet set : {InstructionSet::Avx512, InstructionSet::Avx2, InstructionSet::Sse2}) {
    if (available(set)) return set;
  }
  return InstructionSet::Scalar;
}

const detail::LoopTables& activeLoops() {
  static const detail::LoopTables loops = loopsOf(activeInstructionSet());
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
    case InstructionSet::Avx512: return "avx512";
  }
  return "?";
}

InstructionSet activeInstructionSet() {
  static const InstructionSet set = widestAvailable();
  return set;
}

UnaryLoop unaryLoop(UnaryFunction f, InstructionSet set) {
  return available(set) ? loopsOf(set).unary[static_cast<int>(f)] : nullptr;
}

void applyUnary(UnaryFunction f, const float* in, float* out, int64_t n) {
  const UnaryLoop loop = activeLoops().unary[static_cast<int>(f)];
  parallelFor(n, kParallelGrain, [&](int64_t begin, int64_t end) { loop(in + begin, out + begin, end - begin); });
}

RowLoop rowLoop(RowFunction f, InstructionSet set) {
  return available(set) ? loopsOf(set).rows[static_cast<int>(f)] : nullptr;
}

BlockSumLoop blockSumLoop(InstructionSet set) { return available(set) ? loopsOf(set).block_sum : nullptr; }

void applyRows(RowFunction f, const float* in, float* out, int64_t rows, int64_t length) {
  const RowLoop loop = activeLoops().rows[static_cast<int>(f)];
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(length, 1));  // rows
  parallelFor(rows, grain, [&](int64_t begin, int64_t end) {
    loop(in + begin * length, out + begin * length, end - begin, length);
  });
}

}  // namespace sy::optimized
