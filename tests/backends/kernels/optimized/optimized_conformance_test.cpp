// Every kernel key of the optimized library (backends/kernels/optimized/optimized.yaml) against the
// portable kernels, by the conformance harness: one line, plus the tensor sizes the matrix
// products and the convolution need (the harness's own shapes give every tensor the same sizes).
#include "switchyard/conformance/conformance_test.h"

namespace {

using Sizes = std::vector<int64_t>;
using SizeSets = std::vector<std::vector<Sizes>>;

// `sizes` with `rank - sizes.size()` leading 1s, or the trailing dims when it is longer.
Sizes withRank(const Sizes& sizes, size_t rank) {
  Sizes result(rank > sizes.size() ? rank - sizes.size() : 0, 1);
  result.insert(result.end(), sizes.end() - std::min(rank, sizes.size()), sizes.end());
  return result;
}

sy::conformance::Options optimizedConformanceOptions() {
  sy::conformance::Options options;
  auto both = [&](const std::string& op, const SizeSets& with_out) {
    SizeSets functional;
    for (const auto& set : with_out) functional.emplace_back(set.begin(), set.end() - 1);
    options.tensor_sizes[op + ".out"] = with_out;
    options.tensor_sizes[op] = functional;
    // Sums in another order than the portable kernel's, over edge values up to 100 in magnitude.
    options.float_tolerances[op + ".out"] = options.float_tolerances[op] = {1e-4, 1e-3};
  };
  // Results of another size than out's (out is resized), odd and empty sizes.
  both("aten::mm", {{{3, 4}, {4, 5}, {1, 1}}, {{2, 37}, {37, 3}, {2, 3}}, {{0, 3}, {3, 2}, {0, 2}}, {{2, 0}, {0, 3}, {1, 1}}});
  both("aten::bmm", {{{2, 3, 4}, {2, 4, 5}, {1, 1, 1}}, {{1, 2, 37}, {1, 37, 3}, {1, 2, 3}}, {{0, 3, 4}, {0, 4, 2}, {0, 3, 2}}});
  SizeSets addmm;
  for (const Sizes& self : {Sizes{}, Sizes{5}, Sizes{3, 1}, Sizes{3, 5}}) {
    addmm.push_back({self, {3, 4}, {4, 5}, {1, 1}});
    addmm.push_back({withRank({2, 3}, self.size()), {2, 37}, {37, 3}, {2, 3}});
  }
  both("aten::addmm", addmm);
  SizeSets linear;
  for (size_t rank = 1; rank <= 8; ++rank) {
    const Sizes input = withRank({2, 3, 37}, rank);
    Sizes out = input;
    out.back() = 6;
    linear.push_back({input, {6, 37}, {6}, out});
    linear.push_back({input, {6, 37}, withRank({1}, rank)});  // no bias; out resized
  }
  both("aten::linear", linear);
  SizeSets convolution;
  for (size_t rank : {3, 4}) {
    convolution.push_back({withRank({1, 3, 5, 6}, rank), {4, 3, 3, 3}, {4}, withRank({1}, rank)});
    convolution.push_back({withRank({2, 2, 4, 37}, rank), {3, 2, 1, 3}, withRank({1}, rank)});
    convolution.push_back({withRank({1, 2, 7, 7}, rank), {2, 1, 3, 3}, {2}, withRank({1}, rank)});  // groups 2
  }
  convolution.push_back({{0, 3, 5, 6}, {4, 3, 3, 3}, {0, 4, 3, 4}});
  both("aten::convolution", convolution);
  for (const char* op : {"aten::convolution", "aten::convolution.out"}) {
    const std::string name = op;
    options.argument_values[name + "/stride"] = {std::vector<int64_t>{1}, std::vector<int64_t>{2, 1}};
    options.argument_values[name + "/padding"] = {std::vector<int64_t>{0}, std::vector<int64_t>{1, 2}};
    options.argument_values[name + "/dilation"] = {std::vector<int64_t>{1}, std::vector<int64_t>{2}};
    options.argument_values[name + "/groups"] = {int64_t{1}, int64_t{2}};
  }
  // sum and mean: rows (the last dim), every dim, and a dim list the kernels hand on (dim 0), with
  // and without keepdim, and a dtype they take (Float) or hand on (Double). Float sums in another
  // order than the portable kernel's Double ones, of edge values up to 100 in magnitude: see Note
  // [Float sums add blocks pairwise].
  for (const char* op : {"aten::sum", "aten::sum.out", "aten::sum.dim_IntList", "aten::sum.IntList_out", "aten::mean",
                         "aten::mean.dtype_out", "aten::mean.dim", "aten::mean.out"}) {
    const std::string name = op;
    options.argument_values[name + "/dim"] = {sy::IValue(), std::vector<int64_t>{-1}, std::vector<int64_t>{0}};
    options.argument_values[name + "/keepdim"] = {false, true};
    options.argument_values[name + "/dtype"] = {sy::IValue(), sy::ScalarType::Float, sy::ScalarType::Double};
    options.float_tolerances[name] = {1e-5, 1e-4};
  }
  return options;
}

}  // namespace

SY_KERNEL_CONFORMANCE_TEST(OptimizedKernelConformance, "sy::optimized::", optimizedConformanceOptions());
