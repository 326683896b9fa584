// Vectorised Float math for the optimized kernels: one loop per function and instruction set,
// built on SLEEF's 1.0-ULP ("u10") functions (AVX2's and AVX-512's sigmoid and acos are computed in
// line, see Note [The AVX2 sigmoid computes its own exp]), with the instruction set chosen once at
// run time.
//
//   sy::optimized::applyUnary(sy::optimized::UnaryFunction::Exp, in, out, n);  // out[i] = exp(in[i])
//   sy::optimized::activeInstructionSet();   // InstructionSet::Avx512 on a machine with AVX-512F and DQ
//
// `in` and `out` may be the same array (in place); any other overlap is the caller's to avoid.
// Every element of a call is computed by the same vector function, the tail included (see Note
// [Vector tails go through the vector function]), so a value's result never depends on where it
// sits in the array.
//
// Note [Instruction sets are chosen at run time]
// libswitchyard and this library are installed for any x86-64 machine, so nothing is built with
// -march=native. Each instruction set has its own translation unit compiled with exactly its flags
// (vector_math_avx512.cpp with -mavx512f -mavx512dq, vector_math_avx2.cpp with -mavx2 -mfma,
// vector_math_sse2.cpp with the x86-64 baseline) that exposes nothing but a table of loop pointers;
// activeInstructionSet() asks the CPU once (__builtin_cpu_supports) and takes the widest set it
// has. The units call SLEEF's explicitly named functions (Sleef_expf16_u10avx512f,
// Sleef_expf8_u10avx2, ...), never its own run-time dispatching entry points, so the choice made
// here is the one that runs. Off x86-64 only the scalar loops (SLEEF's scalar u10 functions) are
// built. (Under valgrind, which has no AVX-512, the CPU reports AVX2 at most, so the callgrind
// counts are the AVX2 loops'.)
#pragma once

#include <cstdint>

namespace sy::optimized {

enum class UnaryFunction : uint8_t { Exp, Log, Sin, Cos, Tanh, Sigmoid, Acos };
inline constexpr int kNumUnaryFunctions = 7;
const char* unaryFunctionName(UnaryFunction f);  // "exp", ...

enum class InstructionSet : uint8_t { Scalar, Sse2, Avx2, Avx512 };
const char* instructionSetName(InstructionSet set);  // "scalar", "sse2", "avx2", "avx512"
// Every instruction set, narrowest first (for tests and benchmarks that try each the machine has).
inline constexpr InstructionSet kInstructionSets[] = {InstructionSet::Scalar, InstructionSet::Sse2, InstructionSet::Avx2,
                                                      InstructionSet::Avx512};

// out[i] = f(in[i]) for 0 <= i < n.
using UnaryLoop = void (*)(const float* in, float* out, int64_t n);

// The widest instruction set both this build and this CPU have.
InstructionSet activeInstructionSet();
// The loop for `f` in `set`; null when this build or this CPU lacks `set` (so tests can run every
// set the machine has).
UnaryLoop unaryLoop(UnaryFunction f, InstructionSet set);

// out[i] = f(in[i]) with the active instruction set's loop; a large n is split over the optimized
// kernels' threads (threads.h).
void applyUnary(UnaryFunction f, const float* in, float* out, int64_t n);

// Functions of whole rows: softmax and log_softmax of `rows` consecutive rows of `length` floats
// each (in may be out). The maximum and the sum of exp(x - max) are taken in Float, in vector
// lanes (as PyTorch's vectorised kernel does); NaN or +inf in a row makes the whole row NaN.
enum class RowFunction : uint8_t { Softmax, LogSoftmax };
inline constexpr int kNumRowFunctions = 2;
using RowLoop = void (*)(const float* in, float* out, int64_t rows, int64_t length);
RowLoop rowLoop(RowFunction f, InstructionSet set);
// The active instruction set's loop; many rows are split over the optimized kernels' threads.
void applyRows(RowFunction f, const float* in, float* out, int64_t rows, int64_t length);

// The sum of at most detail::kSumBlock floats (reduction_loop.h); reduction_math.h builds longer
// sums from it.
using BlockSumLoop = float (*)(const float* x, int64_t n);
BlockSumLoop blockSumLoop(InstructionSet set);

namespace detail {
// Each instruction set's tables, indexed by UnaryFunction and RowFunction, and its block sum; null
// where the build has no such set.
struct LoopTables {
  const UnaryLoop* unary;
  const RowLoop* rows;
  BlockSumLoop block_sum;
};
LoopTables scalarLoops();
LoopTables sse2Loops();
LoopTables avx2Loops();
LoopTables avx512Loops();
}  // namespace detail

}  // namespace sy::optimized
