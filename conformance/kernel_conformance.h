// The kernel conformance harness: checks every kernel a kernel library registered (each kernel
// key of each operator: the dtypes and dim orders it claims) against the portable CPU kernels, on
// inputs it generates, and reports the kernel, key and input of any disagreement.
//
// A kernel author instantiates it with one line in a GoogleTest file, naming the library by the
// namespace of its kernels (`kernel_name: my_lib::exp_out` in the YAML):
//
//   #include <switchyard/conformance/conformance_test.h>   // this header, GoogleTest and the macro
//   SY_KERNEL_CONFORMANCE_TEST(MyLibConformance, "my_lib::");
//
// which makes one test per kernel key, named after the operator and key
// (MyLibConformance/aten_exp_out_Float_0_1.AgreesWithThePortableKernels). Without GoogleTest:
//
//   sy::conformance::Report report = sy::conformance::checkKernel(*kernel);
//   if (!report.ok()) std::cerr << report.failure;
//
// For each key the harness builds tensors of exactly the key's dtypes and dim orders in several
// shapes (a small one, one whose innermost size is not a multiple of any vector width, an empty
// one; or the operator's Options::tensor_sizes), dense and strided (every other element of the innermost dimension, which keeps the dim
// order), filled with edge values (zeros of both signs, negatives, NaN and infinities for the
// floating dtypes, extremes for the integer ones) and seeded pseudo-random ones. See Note [How the
// harness picks the other arguments]. Each case runs the kernel directly and the operator through
// the dispatcher with the PartialKernels key excluded (the portable kernel), each on its own
// identical copy of the inputs, and compares every result and every written argument: dtype,
// sizes, and values within the dtype's tolerance (NaN agrees with NaN). A case that both refuse
// with an error agrees; one that only one of them refuses is a disagreement.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/dispatcher/partial_kernels.h"
#include "switchyard/ivalue/ivalue.h"

namespace sy::conformance {

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

struct Options {
  // |kernel - portable| <= atol + rtol * |portable| per element; integers and Bool must be equal.
  // Float allows a few ULP of difference (vectorised math libraries are 1-ULP accurate where glibc
  // is correctly rounded, and reductions may add in another order).
  Tolerance float_tolerance{1e-5, 1e-6};
  Tolerance double_tolerance{1e-12, 1e-14};
  // Values to try for an argument, by "<operator>/<argument>" ("aten::_softmax.out/dim") or by
  // argument name alone ("dim"); they replace the harness's own choice. See Note [How the harness
  // picks the other arguments].
  std::map<std::string, std::vector<IValue>> argument_values;
  // Sizes for an operator's tensors, by operator ("aten::mm.out"): each entry gives the sizes of
  // every tensor a key names, in argument order, and together they replace the harness's shapes
  // (which give all tensors one shape: right for elementwise operators, never valid for a matrix
  // product). For each key only the entries whose ranks match its dim orders are used.
  //   options.tensor_sizes["aten::mm.out"] = {{{3, 4}, {4, 5}, {3, 5}}, {{2, 0}, {0, 3}, {1}}};
  std::map<std::string, std::vector<std::vector<std::vector<int64_t>>>> tensor_sizes;
  // float_tolerance for one operator, by operator: for kernels that sum in another order.
  std::map<std::string, Tolerance> float_tolerances;
};

struct Report {
  std::string kernel;  // "sy::optimized::native::exp_out for aten::exp.out, key v1/6;0|6;0"
  int compared = 0;    // cases both ran and agreed on
  int refused_by_both = 0;
  std::string failure;  // the first disagreement, or why nothing could be compared; empty when ok
  bool ok() const { return failure.empty(); }
};

// Checks one registered kernel (a default kernel, which claims no key, is checked for every dtype
// at ranks 0 to 3, dense). Fails when no generated case could be compared at all: the harness
// could not make inputs the portable kernel accepts, and Options::argument_values must help it.
Report checkKernel(const PartialKernel& kernel, const Options& options = {});

// The registered kernels whose kernel_name starts with `kernel_name_prefix` ("sy::optimized::"),
// in registration order.
std::vector<std::shared_ptr<const PartialKernel>> kernelsOf(std::string_view kernel_name_prefix);

// A test name for a kernel: "aten_exp_out_Float_0_1", "aten_exp_out_default".
std::string testNameOf(const PartialKernel& kernel);

}  // namespace sy::conformance
