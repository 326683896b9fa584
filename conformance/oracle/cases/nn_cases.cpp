// Convolution, pooling, layer, batch and group norm (backends/devices/cpu/nn_ops.yaml); embedding is in
// index_cases.cpp.
#include <cmath>

#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/cases/references.h"
#include "switchyard/conformance/oracle/torch_bridge.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::oracle {

namespace {
// Convolution takes the floating dtypes only (ExecuTorch's portable kernel, too, is floating);
// PyTorch's CPU kernel also convolves integers.
const Deviation kFloatingConvolution = Deviation::refuses(
    "convolution of Bool or integral tensors is refused (the floating dtypes only)",
    whenDtype("input", {ScalarType::Bool, ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int,
                        ScalarType::Long}));
// Switchyard pools integral tensors (backends/devices/cpu/pooling.cpp); PyTorch 1.13's max_pool2d
// refuses them all, its avg_pool2d all but Long. The expected values are PyTorch's on the same
// values as Double (a maximum is exact there) or, for avg_pool2d, as Long (its integer average
// truncates).
const Dtypes kSmallIntegral{ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int};
Deviation integralMaxPooling(std::string functional) {
  Dtypes integral = kSmallIntegral;
  integral.push_back(ScalarType::Long);
  return Deviation::computes("max pooling of integral tensors; PyTorch 1.13's CPU kernel refuses them",
                             whenDtype("self", integral), computedVia(integral, ScalarType::Double, true, std::move(functional)));
}
Deviation intAveragePooling() {
  return Deviation::computes(
      "average pooling of Byte, Char, Short and Int tensors; PyTorch 1.13's CPU kernel takes Long but not those",
      whenDtype("self", kSmallIntegral), computedVia(kSmallIntegral, ScalarType::Long, true));
}
// native_layer_norm's saved mean of a row holding an infinity is that infinity (NaN when both
// signs are there), the plain mean; PyTorch's running (Welford) update makes it NaN. The expected
// outcome is PyTorch's with the mean replaced by each row's plain mean (BFloat16 asked on Float
// copies and rounded back, as kBFloat16LayerNorm below says why).
Deviation plainMeanOfInfiniteRows() {
  return Deviation::referenced(
      "the mean of a row with an infinity is that infinity; PyTorch 1.13's running update gives NaN",
      allOf(whenEdgeValues(), whenDtype("input", dtypes::kEveryFloating)),
      throughPyTorch(
          [](std::vector<IValue>& arguments) {
            for (IValue& a : arguments) {
              if (a.isTensor() && a.toTensor().defined() && a.toTensor().scalar_type() == ScalarType::BFloat16) {
                a = convertedTo(a.toTensor(), ScalarType::Float);
              }
            }
          },
          [](const std::vector<IValue>& arguments, std::vector<IValue>& results) {
            if (arguments[0].toTensor().scalar_type() == ScalarType::BFloat16) {
              for (IValue& r : results) r = convertedTo(r.toTensor(), ScalarType::BFloat16);
            }
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
// Whether a convolution's batch is empty.
bool emptyBatch(const CallDescription& c) { return !c.shapes.at("input").empty() && c.shapes.at("input")[0] == 0; }
Deviation emptyBatchConvolution() {
  return Deviation::referenced(
      "an empty batch gives an empty result; PyTorch 1.13 fails on some (\"view size is not compatible\")",
      emptyBatch,
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
// PyTorch 1.13's BFloat16 convolution (its oneDNN path) carries infinities and NaN through its sums
// unlike its Float kernel (it skips padding some shapes multiply, and gives NaN where the Float
// kernel's sums are finite); Switchyard's BFloat16 convolution is its Float one, rounded once. The
// finite values are compared.
const Deviation kBFloat16ConvolutionWithInfinities =
    Deviation::skip("PyTorch 1.13's BFloat16 convolution propagates infinities and NaN unlike its Float one",
                    allOf(whenEdgeValues(), whenDtype("input", {ScalarType::BFloat16})));
// PyTorch 1.13's BFloat16 transposed convolution checks its input as a plain convolution's ("expected
// input[1, 3, 4, 4] to have 2 channels"): the expected values are its Float ones, rounded back.
// (An empty batch of them is compared on the other dtypes: emptyBatchConvolution asks PyTorch for
// a batch of one.)
const Deviation kBFloat16TransposedConvolution = Deviation::referenced(
    "PyTorch 1.13's BFloat16 transposed convolution refuses valid shapes; compared with its Float one, rounded back",
    allOf(whenDtype("input", {ScalarType::BFloat16}), whenNot(emptyBatch)),
    computedVia({ScalarType::BFloat16}, ScalarType::Float, true));
const Deviation kEmptyBFloat16TransposedConvolution = Deviation::skip(
    "PyTorch 1.13's BFloat16 transposed convolution refuses valid shapes, and its Float one an empty batch",
    allOf(whenDtype("input", {ScalarType::BFloat16}), emptyBatch));
// PyTorch 1.13's BFloat16 layer norm rounds the mean and rstd to BFloat16 before it normalises
// (0.167 where the Float computation rounded once gives 0.183); Switchyard normalises in float and
// rounds once (See Note [Accumulating kernels compute reduced floats on Float copies] in
// backends/devices/cpu/elementwise.h). The expected values are PyTorch's Float ones, rounded back.
const Deviation kBFloat16LayerNorm = Deviation::referenced(
    "PyTorch 1.13's BFloat16 layer norm rounds its statistics first; compared with its Float one, rounded back",
    whenDtype("input", {ScalarType::BFloat16}), computedVia({ScalarType::BFloat16}, ScalarType::Float, true));
// Its BFloat16 group norm too (0.1377 where the Float computation rounded once gives 0.125).
const Deviation kBFloat16GroupNorm = Deviation::referenced(
    "PyTorch 1.13's BFloat16 group norm rounds its statistics first; compared with its Float one, rounded back",
    whenDtype("input", {ScalarType::BFloat16}), computedVia({ScalarType::BFloat16}, ScalarType::Float, true));
// PyTorch 1.13's pixel_unshuffle returns an empty input's shape unchanged ((0, 2, 4, 4) by 2 gives
// (0, 2, 4, 4)); Switchyard gives (0, 8, 2, 2), as the non-empty rule and later PyTorch say
// (glu_logit_pixel_shuffle_test.cpp checks it).
const Deviation kEmptyPixelUnshuffle =
    Deviation::skip("PyTorch 1.13 keeps an empty input's shape in pixel_unshuffle", whenEmpty());
// With edge values, a padded 1-D convolution: PyTorch 1.13 (its oneDNN path for these shapes)
// leaves the padding out of its sums, which Switchyard multiplies like the 2-D kernel does
// (0 x an infinite weight is NaN); both read zero padding soundly.
const Deviation kPaddedOneDimensionalWithInfinities = Deviation::skip(
    "PyTorch's 1-D kernel skips the padding that Switchyard multiplies (0 x inf = NaN)",
    allOf(whenEdgeValues(), [](const CallDescription& c) { return c.argument("padding")->toIntList()[0] > 0; }));

// The _native_batch_norm_legit family is PyTorch 2's; 1.13 has its predecessor native_batch_norm
// (input, weight, bias, running_mean, running_var, training, momentum, eps), which computes the
// same three results but updates the running statistics of its own copy here. The reference calls
// it, writes its results into the out= arguments, and in training mode updates the call's running
// statistics as PyTorch does: (1 - momentum) * running + momentum * the batch's mean (as
// native_batch_norm saved it) or unbiased variance (PyTorch's var_mean over every dimension but 1).
// Half and BFloat16 are asked on Float copies, rounded back: PyTorch 1.13's BFloat16 batch norm, as
// its layer norm, rounds its statistics before it normalises.
Reference batchNormReference(bool running_stats, bool evaluation_only) {
  return [running_stats, evaluation_only](const FunctionSchema& schema, Stack& stack) {
    const std::vector<IValue> args(stack.begin(), stack.end());
    size_t i = 0;
    const IValue input = args[i++], weight = args[i++], bias = args[i++];
    IValue running_mean, running_var;
    if (running_stats) {
      running_mean = args[i++];
      running_var = args[i++];
    }
    const bool training = evaluation_only ? false : args[i++].toBool();
    const double momentum = args[i++].toDouble();
    const IValue eps = args[i++];
    std::vector<IValue> results =
        torchCallOnFloatCopies("aten::native_batch_norm",
                               {input, weight, bias, running_mean, running_var, training, momentum, eps});
    if (training && running_stats && running_mean.isTensor() && running_var.isTensor()) {
      std::vector<int64_t> dims{0};
      for (int64_t d = 2; d < input.toTensor().dim(); ++d) dims.push_back(d);
      const std::vector<IValue> var_mean =
          torchCallOnFloatCopies("aten::var_mean.dim", {input, ints(dims), true, false});
      for (int k = 0; k < 2; ++k) {
        const Tensor& running = (k == 0 ? running_mean : running_var).toTensor();
        Tensor updated = convertedTo(running, ScalarType::Double);
        // The mean PyTorch saved (its batch norm updates with that one), the variance var_mean's.
        const Tensor batch = convertedTo((k == 0 ? results[1] : var_mean[0]).toTensor(), ScalarType::Double);
        double* r = updated.data_ptr<double>();
        const double* b = batch.data_ptr<double>();
        for (int64_t c = 0; c < updated.numel(); ++c) r[c] = (1 - momentum) * r[c] + momentum * b[c];
        writeOut(running, updated);
      }
    }
    stack.clear();
    for (size_t r = 0; r < results.size(); ++r) {
      if (i + r < args.size() && schema.arguments()[i + r].is_out()) {
        writeOut(args[i + r].toTensor(), results[r].toTensor());
        stack.push_back(args[i + r]);
      } else {
        stack.push_back(results[r]);
      }
    }
  };
}
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
                      .dtypes(dtypes::kEvery)
                      .deviation(kFloatingConvolution)
                      .deviation(kBFloat16ConvolutionWithInfinities)
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
                      .dtypes(dtypes::kEvery)
                      .deviation(kFloatingConvolution)
                      .deviation(kBFloat16ConvolutionWithInfinities)
                      .deviation(kDepthwisePaddingWithInfinities));
  cases.push_back(OpCase(convolution)
                      .label("transposed 2-D")
                      .tensors({"input", "weight", "bias"})
                      .shapes({{{1, 3, 4, 4}, {3, 2, 3, 3}, {2}}, {{2, 4, 3, 5}, {4, 1, 2, 3}, {2}},
                               {{0, 3, 4, 4}, {3, 2, 3, 3}, {2}}})
                      .arg("stride", {ints({2, 2}), ints({1, 1}), ints({3, 2})})
                      .arg("padding", {ints({1, 1}), ints({0, 0}), ints({2, 1})})
                      .arg("dilation", {kPairs11[0], ints({2, 1})})
                      .arg("transposed", {true})
                      .arg("output_padding", {ints({1, 1}), ints({0, 0}), ints({1, 0})})
                      .arg("groups", {1, 2})
                      .dtypes(dtypes::kEvery)
                      .deviation(kFloatingConvolution)
                      .deviation(kBFloat16ConvolutionWithInfinities)
                      .deviation(kEmptyBFloat16TransposedConvolution)
                      .deviation(kBFloat16TransposedConvolution)
                      .deviation(emptyBatchConvolution()));
  cases.push_back(OpCase(convolution)
                      .label("transposed 1-D and 3-D")
                      .tensors({"input", "weight", "bias"})
                      .shapes({{{2, 4, 5}, {4, 3, 3}, {6}}, {{1, 2, 3, 3, 2}, {2, 3, 2, 2, 2}, {6}}})
                      .arg("stride", {ints({2}), ints({1})})
                      .arg("padding", {ints({1}), ints({0})})
                      .arg("dilation", {ints({1}), ints({2})})
                      .arg("transposed", {true})
                      .arg("output_padding", {ints({1}), ints({0})})
                      .arg("groups", {2})
                      .dtypes(dtypes::kEvery)
                      .deviation(kFloatingConvolution)
                      .deviation(kBFloat16ConvolutionWithInfinities)
                      .deviation(kBFloat16TransposedConvolution));
  cases.push_back(OpCase(convolution)
                      .label("1-D")
                      .tensors({"input", "weight", "bias"})
                      .shapes({{{2, 3, 7}, {4, 3, 3}, {4}}, {{1, 4, 9}, {6, 2, 2}, {6}}, {{0, 3, 7}, {4, 3, 3}, {4}}})
                      .arg("stride", {ints({1}), ints({2})})
                      .arg("padding", {ints({0}), ints({1})})
                      .arg("dilation", {ints({1}), ints({3})})
                      .arg("transposed", {false})
                      .arg("output_padding", {ints({0})})
                      .arg("groups", {1, 2})
                      .dtypes(dtypes::kEvery)
                      .deviation(kFloatingConvolution)
                      .deviation(kBFloat16ConvolutionWithInfinities)
                      .deviation(emptyBatchConvolution())
                      .deviation(kPaddedOneDimensionalWithInfinities));
  cases.push_back(OpCase(convolution)
                      .label("3-D")
                      .tensors({"input", "weight", "bias"})
                      .shapes({{{1, 2, 4, 5, 5}, {3, 2, 2, 3, 3}, {3}}, {{2, 4, 3, 4, 4}, {4, 2, 2, 2, 2}, {4}}})
                      .arg("stride", {ints({1, 1, 1}), ints({2}), ints({1, 2, 1})})
                      .arg("padding", {ints({0, 0, 0}), ints({1}), ints({1, 0, 2})})
                      .arg("dilation", {ints({1, 1, 1}), ints({2, 1, 1})})
                      .arg("transposed", {false})
                      .arg("output_padding", {ints({0, 0, 0})})
                      .arg("groups", {1, 2})
                      .dtypes(dtypes::kEvery)
                      .deviation(kFloatingConvolution)
                      .deviation(kBFloat16ConvolutionWithInfinities));
  cases.push_back(OpCase({"aten::conv2d"})
                      .tensors({"input", "weight", "bias"})
                      .shapes({{{1, 2, 5, 5}, {3, 2, 3, 3}, {3}}, {{2, 5, 5}, {3, 2, 3, 3}, {3}}})
                      .arg("stride", {ints({1, 1}), ints({2, 2}), ints({2})})
                      .arg("padding", {ints({0, 0}), ints({1, 1})})
                      .arg("groups", {1})
                      .dtypes(dtypes::kEvery)
                      .deviation(kFloatingConvolution)
                      .deviation(kBFloat16ConvolutionWithInfinities));

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
        .dtypes(dtypes::kEvery)
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
                      .dtypes(dtypes::kEvery)
                      .deviation(intAveragePooling()));
  for (const char* op : {"aten::_adaptive_avg_pool2d", "aten::adaptive_avg_pool2d"}) {
    cases.push_back(OpCase({op, std::string(op) + ".out"})
                        .tensors({"self"})
                        .shapes({{{1, 2, 5, 5}}, {{2, 5, 7}}, {{1, 2, 0, 5}}, {{1, 1, 1, 1}}})
                        .dtypes(dtypes::kEvery)
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
    return OpCase(std::move(ops)).dtypes(dtypes::kEvery).arg("eps", {1e-5, 0.1}).out("out0", OutDtype::caseDtype())
        .out("out1", OutDtype::caseDtype()).out("out2", OutDtype::caseDtype())
        .deviation(plainMeanOfInfiniteRows())
        .deviation(kBFloat16LayerNorm);
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
  // Batch norm: 4-D, 3-D and 2-D inputs; running_var non-negative, as a variance is.
  const Values variances{0.25, 4, 0, 4, false};
  const std::vector<ShapeSet> batch_norm_shapes{{{2, 3, 4, 5}, {3}, {3}, {3}, {3}},
                                                {{2, 3, 7}, {3}, {3}, {3}, {3}},
                                                {{4, 3}, {3}, {3}, {3}, {3}}};
  auto batch_norm = [&](std::vector<std::string> ops, bool running_stats, bool evaluation_only) {
    OpCase c(std::move(ops));
    c.dtypes(dtypes::kEveryFloating)
        .tensor("input")
        .tensor("weight")
        .tensor("bias")
        .arg("momentum", {0.1, 0.5})
        .arg("eps", {1e-5, 0.1})
        .reference("_native_batch_norm_legit* are PyTorch 2's; computed by 1.13's aten::native_batch_norm, the "
                   "running statistics updated as PyTorch updates them",
                   batchNormReference(running_stats, evaluation_only));
    if (running_stats) c.tensor("running_mean").tensor("running_var", variances);
    c.out(evaluation_only ? "out0" : "out", OutDtype::caseDtype())
        .out(evaluation_only ? "out1" : "save_mean", OutDtype::caseDtype())
        .out(evaluation_only ? "out2" : "save_invstd", OutDtype::caseDtype());
    return c;
  };
  // No empty batch: PyTorch 1.13's native_batch_norm dies of a division by zero (SIGFPE) on one;
  // Switchyard's empty result is checked in batch_group_norm_test.cpp.
  const std::vector<ShapeSet>& evaluation_shapes = batch_norm_shapes;
  cases.push_back(batch_norm({"aten::_native_batch_norm_legit_no_training",
                              "aten::_native_batch_norm_legit_no_training.out"},
                             true, true)
                      .shapes(evaluation_shapes));
  cases.push_back(batch_norm({"aten::_native_batch_norm_legit", "aten::_native_batch_norm_legit.out"}, true, false)
                      .label("training")
                      .shapes(batch_norm_shapes)
                      .arg("training", {true}));
  cases.push_back(batch_norm({"aten::_native_batch_norm_legit", "aten::_native_batch_norm_legit.out"}, true, false)
                      .label("evaluation")
                      .shapes(evaluation_shapes)
                      .arg("training", {false}));
  std::vector<ShapeSet> no_stats_shapes;
  for (const ShapeSet& s : batch_norm_shapes) no_stats_shapes.push_back({s[0], s[1], s[2]});
  cases.push_back(batch_norm({"aten::_native_batch_norm_legit.no_stats", "aten::_native_batch_norm_legit.no_stats_out"},
                             false, false)
                      .shapes(no_stats_shapes)
                      .arg("training", {true}));

  // Group norm: N, C and HxW describe the input, so each shape is an entry of its own.
  struct GroupNormCall {
    const char* label;
    ShapeSet shapes;
    int64_t n, c, hxw;
    std::vector<IValue> groups;
  };
  for (const GroupNormCall& call : {GroupNormCall{"3-D", {{2, 6, 4}, {6}, {6}}, 2, 6, 4, {1, 2, 3, 6}},
                                    GroupNormCall{"4-D, one group size", {{3, 4, 2, 3}, {4}, {4}}, 3, 4, 6, {2}},
                                    GroupNormCall{"empty batch", {{0, 4, 5}, {4}, {4}}, 0, 4, 5, {2}}}) {
    cases.push_back(OpCase({"aten::native_group_norm", "aten::native_group_norm.out"})
                        .label(call.label)
                        .dtypes(dtypes::kEveryFloating)
                        .tensors({"input", "weight", "bias"})
                        .shapes({call.shapes})
                        .arg("N", {call.n})
                        .arg("C", {call.c})
                        .arg("HxW", {call.hxw})
                        .arg("group", call.groups)
                        .arg("eps", {1e-5, 0.1})
                        .out("out0", OutDtype::caseDtype())
                        .out("out1", OutDtype::caseDtype())
                        .out("out2", OutDtype::caseDtype())
                        .deviation(plainMeanOfInfiniteRows())
                        .deviation(kBFloat16GroupNorm)
                        .deviation(Deviation::referenced(
                            "a strided input, weight or bias is read through its strides; PyTorch 1.13's kernel "
                            "refuses a strided input (\"Expected X.is_contiguous\") and reads weight and bias as if "
                            "contiguous: compared with PyTorch on contiguous copies of all three",
                            [](const CallDescription& c) { return c.layout != "contiguous"; },
                            throughPyTorch([](std::vector<IValue>& arguments) {
                              for (size_t i = 0; i < 3; ++i) {
                                if (arguments[i].isTensor()) {
                                  arguments[i] = convertedTo(arguments[i].toTensor(), arguments[i].toTensor().scalar_type());
                                }
                              }
                            }, nullptr))));
  }

  // glu halves `dim`; an odd size, a 0-dim self and integral dtypes are errors on both sides.
  cases.push_back(OpCase({"aten::glu", "aten::glu.out"})
                      .tensors({"self"})
                      .dtypes(dtypes::kEvery)
                      .shapes({{{4, 6}}, {{2, 3, 4}}, {{0, 4}}, {{}}, {{3, 38}}})
                      .arg("dim", {-1, 0, 1}));
  // logit on values around [0, 1], with and without eps (a negative eps means none, as in PyTorch).
  cases.push_back(OpCase(threeForms("aten::logit"))
                      .tensor("self", Values{-0.25, 1.25, -2, 2, true})
                      .dtypes(dtypes::kEvery)
                      .shapes(shapes::kOne)
                      .arg("eps", {kNone, 0.1, -1.0, 0.0}));
  const std::vector<ShapeSet> shuffle_shapes{{{1, 8, 2, 3}}, {{2, 4, 3, 3}}, {{4, 2, 2}}, {{0, 4, 2, 2}},
                                             {{2, 1, 9, 3, 2}}};
  cases.push_back(OpCase({"aten::pixel_shuffle"}).dtypes(dtypes::kEvery).tensors({"self"}).shapes(shuffle_shapes).arg("upscale_factor", {2, 1, 3}));
  cases.push_back(OpCase({"aten::pixel_shuffle.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(shuffle_shapes)
                      .arg("upscale_factor", {2, 1, 3})
                      .reference("pixel_shuffle.out is PyTorch 2's generated out form; 1.13 has the functional form",
                                 outOfFunctional("aten::pixel_shuffle")));
  const std::vector<ShapeSet> unshuffle_shapes{{{1, 2, 4, 6}}, {{2, 1, 6, 6}}, {{3, 4, 2}}, {{0, 2, 4, 4}},
                                               {{2, 1, 1, 6, 3}}};
  cases.push_back(
      OpCase({"aten::pixel_unshuffle"}).dtypes(dtypes::kEvery).tensors({"self"}).shapes(unshuffle_shapes).arg("downscale_factor", {2, 1, 3})
          .deviation(kEmptyPixelUnshuffle));
  cases.push_back(OpCase({"aten::pixel_unshuffle.out"})
                      .dtypes(dtypes::kEvery)
                      .tensors({"self"})
                      .shapes(unshuffle_shapes)
                      .arg("downscale_factor", {2, 1, 3})
                      .reference("pixel_unshuffle.out is PyTorch 2's generated out form; 1.13 has the functional form",
                                 outOfFunctional("aten::pixel_unshuffle"))
                      .deviation(kEmptyPixelUnshuffle));

  cases.push_back(OpCase({"aten::layer_norm"})
                      .tensors({"input", "weight", "bias"})
                      .dtypes(dtypes::kEveryFloating)
                      .deviation(kBFloat16LayerNorm)
                      .shapes({{{2, 3, 4}, {4}, {4}}, {{3, 37}, {37}, {37}}})
                      .arg("normalized_shape", {ints({4}), ints({37})})
                      .arg("eps", {1e-5}));
}

}  // namespace sy::oracle
