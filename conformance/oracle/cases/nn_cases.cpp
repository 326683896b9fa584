// Convolution, pooling and layer norm (backends/devices/cpu/nn_ops.yaml); embedding is in index_cases.cpp.
#include <cmath>

#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/cases/references.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::oracle {

namespace {
// Convolution takes Float and Double only (ExecuTorch's portable kernel, too, is floating); PyTorch's
// CPU kernel also convolves integers.
const Deviation kFloatingConvolution = Deviation::refuses(
    "convolution of Bool or integral tensors is refused (Float and Double only)",
    whenDtype("input", {ScalarType::Bool, ScalarType::Int, ScalarType::Long}));
// Switchyard pools Int and Long tensors (backends/devices/cpu/pooling.cpp); PyTorch 1.13's max_pool2d
// refuses both, its avg_pool2d Int. The expected values are PyTorch's on the same values as Double
// (a maximum is exact there) or, for avg_pool2d, as Long (its integer average truncates).
Deviation integralMaxPooling(std::string functional) {
  return Deviation::computes("max pooling of Int and Long tensors; PyTorch 1.13's CPU kernel refuses them",
                             whenDtype("self", dtypes::kIntegral),
                             computedVia(dtypes::kIntegral, ScalarType::Double, true, std::move(functional)));
}
Deviation intAveragePooling() {
  return Deviation::computes("average pooling of Int tensors; PyTorch 1.13's CPU kernel takes Long but not Int",
                             whenDtype("self", {ScalarType::Int}), computedVia({ScalarType::Int}, ScalarType::Long, true));
}
// native_layer_norm's saved mean of a row holding an infinity is that infinity (NaN when both
// signs are there), the plain mean; PyTorch's running (Welford) update makes it NaN. The expected
// outcome is PyTorch's with the mean replaced by each row's plain mean.
Deviation plainMeanOfInfiniteRows() {
  return Deviation::referenced(
      "the mean of a row with an infinity is that infinity; PyTorch 1.13's running update gives NaN",
      allOf(whenEdgeValues(), whenDtype("input", dtypes::kFloating)),
      throughPyTorch(nullptr, [](const std::vector<IValue>& arguments, std::vector<IValue>& results) {
        const Tensor input = convertedTo(arguments[0].toTensor(), ScalarType::Double);
        Tensor mean = convertedTo(results[1].toTensor(), ScalarType::Double);
        const int64_t rows = mean.numel();
        if (rows == 0) return;
        const int64_t width = input.numel() / rows;
        const double* x = input.data_ptr<double>();
        double* m = mean.data_ptr<double>();
        for (int64_t r = 0; r < rows; ++r) {
          double sum = 0;
          for (int64_t k = 0; k < width; ++k) sum += x[r * width + k];
          if (std::isinf(sum) || std::isnan(sum)) m[r] = sum;
        }
        results[1] = convertedTo(mean, results[1].toTensor().scalar_type());
      }));
}
// PyTorch 1.13's convolution fails on an empty batch (its im2col path views a tensor it cannot);
// Switchyard, as later PyTorch, returns an empty result. Its shape is that of the same convolution
// of a batch of one, with the batch emptied.
Deviation emptyBatchConvolution() {
  return Deviation::referenced(
      "an empty batch gives an empty result; PyTorch 1.13 fails on some (\"view size is not compatible\")",
      [](const CallDescription& c) { return !c.shapes.at("input").empty() && c.shapes.at("input")[0] == 0; },
      throughPyTorch(
          [](std::vector<IValue>& arguments) {
            Shape sizes(arguments[0].toTensor().sizes().begin(), arguments[0].toTensor().sizes().end());
            sizes[0] = 1;
            arguments[0] = zeros(sizes, arguments[0].toTensor().scalar_type());
          },
          [](const std::vector<IValue>&, std::vector<IValue>& results) {
            const Tensor& one = results[0].toTensor();
            Shape sizes(one.sizes().begin(), one.sizes().end());
            sizes[0] = 0;
            results[0] = empty(sizes, one.scalar_type());
          },
          "aten::convolution"));
}
// With edge values, a depthwise convolution (groups = input channels) with padding: PyTorch's
// depthwise kernel leaves the padding out of its sums, Switchyard multiplies the padding's zeros
// like any other input (0 x an infinite weight is NaN); both read zero padding soundly.
const Deviation kDepthwisePaddingWithInfinities = Deviation::skip(
    "PyTorch's depthwise kernel skips the padding that Switchyard multiplies (0 x inf = NaN)",
    allOf(whenEdgeValues(), [](const CallDescription& c) {
      return c.argument("groups")->toInt() == c.shapes.at("input")[1] && c.argument("padding")->toIntList()[0] > 0;
    }));
const std::vector<IValue> kPairs11{ints({1, 1})};
}  // namespace

void addNnCases(std::vector<OpCase>& cases) {
  const std::vector<std::string> convolution{"aten::convolution", "aten::convolution.out"};
  cases.push_back(OpCase(convolution)
                      .label("2-D")
                      .tensors({"input", "weight", "bias"})
                      .shapes({{{1, 2, 5, 5}, {3, 2, 3, 3}, {3}}, {{2, 2, 4, 6}, {3, 2, 1, 2}, {3}},
                               {{1, 2, 5, 5}, {3, 2, 3, 3}, {2}}, {{0, 2, 5, 5}, {3, 2, 3, 3}, {3}}})
                      .arg("stride", {ints({1, 1}), ints({2, 2}), ints({2, 1})})
                      .arg("padding", {ints({0, 0}), ints({1, 1}), ints({2, 1})})
                      .arg("dilation", {kPairs11[0], ints({2, 2})})
                      .arg("transposed", {false})
                      .arg("output_padding", {ints({0, 0})})
                      .arg("groups", {1})
                      .deviation(kFloatingConvolution)
                      .deviation(emptyBatchConvolution()));
  cases.push_back(OpCase(convolution)
                      .label("grouped, no bias")
                      .tensors({"input", "weight"})
                      .shapes({{{1, 4, 5, 5}, {6, 2, 3, 3}}, {{2, 4, 3, 3}, {4, 1, 3, 3}}})
                      .arg("stride", kPairs11)
                      .arg("padding", {ints({1, 1})})
                      .arg("dilation", kPairs11)
                      .arg("transposed", {false})
                      .arg("output_padding", {ints({0, 0})})
                      .arg("groups", {2, 4})
                      .deviation(kFloatingConvolution)
                      .deviation(kDepthwisePaddingWithInfinities));
  cases.push_back(OpCase(convolution)
                      .label("transposed")
                      .tensors({"input", "weight", "bias"})
                      .shapes({{{1, 3, 4, 4}, {3, 2, 3, 3}, {2}}})
                      .arg("stride", {ints({2, 2}), ints({1, 1})})
                      .arg("padding", {ints({1, 1}), ints({0, 0})})
                      .arg("dilation", kPairs11)
                      .arg("transposed", {true})
                      .arg("output_padding", {ints({1, 1}), ints({0, 0})})
                      .arg("groups", {1})
                      .deviation(Deviation::refuses("transposed convolution is not implemented yet (issue 30 widens "
                                                    "convolution)",
                                                    always()))
                      .errorsOnly());
  cases.push_back(OpCase(convolution)
                      .label("1-D")
                      .tensors({"input", "weight", "bias"})
                      .shapes({{{2, 3, 7}, {4, 3, 3}, {4}}})
                      .arg("stride", {ints({1}), ints({2})})
                      .arg("padding", {ints({0}), ints({1})})
                      .arg("dilation", {ints({1})})
                      .arg("transposed", {false})
                      .arg("output_padding", {ints({0})})
                      .arg("groups", {1})
                      .deviation(Deviation::refuses("only 2-D convolution is implemented yet (issue 30 widens "
                                                    "convolution)",
                                                    always()))
                      .errorsOnly());
  cases.push_back(OpCase({"aten::conv2d"})
                      .tensors({"input", "weight", "bias"})
                      .shapes({{{1, 2, 5, 5}, {3, 2, 3, 3}, {3}}, {{2, 5, 5}, {3, 2, 3, 3}, {3}}})
                      .arg("stride", {ints({1, 1}), ints({2, 2}), ints({2})})
                      .arg("padding", {ints({0, 0}), ints({1, 1})})
                      .arg("groups", {1})
                      .deviation(kFloatingConvolution));

  // Pooling: a batched and an unbatched (3-D) input.
  const std::vector<ShapeSet> pool_shapes{{{1, 2, 5, 5}}, {{2, 5, 6}}, {{1, 1, 2, 2}}, {{0, 2, 5, 5}}};
  const std::vector<IValue> kernel{ints({2, 2}), ints({3, 3}), ints({3, 2}), ints({2})};
  const std::vector<IValue> stride{ints({}), ints({1, 1}), ints({2, 1})};
  const std::vector<IValue> padding{ints({0, 0}), ints({1, 1}), ints({1})};
  auto max_pool = [&](std::vector<std::string> ops, std::string functional) {
    return OpCase(std::move(ops))
        .tensors({"self"})
        .shapes(pool_shapes)
        .arg("kernel_size", kernel)
        .arg("stride", stride)
        .arg("padding", padding)
        .arg("dilation", {ints({1, 1}), ints({2, 2})})
        .arg("ceil_mode", {false, true})
        .deviation(integralMaxPooling(std::move(functional)));
  };
  cases.push_back(max_pool({"aten::max_pool2d"}, "aten::max_pool2d"));
  // PyTorch has no max_pool2d.out: Switchyard's is the functional schema with an out tail.
  cases.push_back(max_pool({"aten::max_pool2d.out"}, "aten::max_pool2d")
                      .reference("max_pool2d.out is Switchyard's; PyTorch has only the functional form",
                                 outOfFunctional("aten::max_pool2d")));
  cases.push_back(max_pool({"aten::max_pool2d_with_indices", "aten::max_pool2d_with_indices.out"},
                           "aten::max_pool2d_with_indices")
                      .out("out", OutDtype::caseDtype())
                      .out("indices", OutDtype::fixedTo(ScalarType::Long)));
  cases.push_back(OpCase({"aten::avg_pool2d", "aten::avg_pool2d.out"})
                      .tensors({"self"})
                      .shapes(pool_shapes)
                      .arg("kernel_size", kernel)
                      .arg("stride", stride)
                      .arg("padding", padding)
                      .arg("ceil_mode", {false, true})
                      .arg("count_include_pad", {true, false})
                      .arg("divisor_override", {kNone, 3, 0})
                      .out("out", OutDtype::caseDtype())
                      .deviation(intAveragePooling()));
  for (const char* op : {"aten::_adaptive_avg_pool2d", "aten::adaptive_avg_pool2d"}) {
    cases.push_back(OpCase({op, std::string(op) + ".out"})
                        .tensors({"self"})
                        .shapes({{{1, 2, 5, 5}}, {{2, 5, 7}}, {{1, 2, 0, 5}}, {{1, 1, 1, 1}}})
                        .arg("output_size", {ints({2, 2}), ints({1, 1}), ints({3, 2}), ints({5, 5}), ints({7, 3})})
                        .out("out", OutDtype::caseDtype())
                        .deviation(Deviation::refuses(
                            "an input with no rows or columns is refused; PyTorch's adaptive_avg_pool2d takes the "
                            "mean (NaN) for output size [1, 1] where its kernel refuses too",
                            whenEmpty())));
  }

  // Layer norm over the last one or two dimensions, with and without an affine transform.
  const std::vector<std::string> native_layer_norm{"aten::native_layer_norm", "aten::native_layer_norm.out"};
  auto layer_norm = [&](std::vector<std::string> ops) {
    return OpCase(std::move(ops)).arg("eps", {1e-5, 0.1}).out("out0", OutDtype::caseDtype())
        .out("out1", OutDtype::caseDtype()).out("out2", OutDtype::caseDtype())
        .deviation(plainMeanOfInfiniteRows());
  };
  cases.push_back(layer_norm(native_layer_norm)
                      .label("last dim")
                      .tensors({"input", "weight", "bias"})
                      .shapes({{{2, 3, 4}, {4}, {4}}, {{4}, {4}, {4}}, {{0, 4}, {4}, {4}}, {{3, 37}, {37}, {37}}})
                      .arg("normalized_shape", {ints({4}), ints({37})}));
  cases.push_back(layer_norm(native_layer_norm)
                      .label("last two dims, no affine")
                      .tensors({"input"})
                      .shapes({{{2, 3, 4}}, {{3, 4}}})
                      .arg("normalized_shape", {ints({3, 4}), ints({4}), ints({2, 4})}));
  cases.push_back(OpCase({"aten::layer_norm"})
                      .tensors({"input", "weight", "bias"})
                      .shapes({{{2, 3, 4}, {4}, {4}}, {{3, 37}, {37}, {37}}})
                      .arg("normalized_shape", {ints({4}), ints({37})})
                      .arg("eps", {1e-5}));
}

}  // namespace sy::oracle
