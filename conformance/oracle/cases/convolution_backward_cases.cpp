// convolution_backward (backends/devices/cpu/convolution_backward.cpp) against PyTorch 1.13's: the
// three gradients of 1-, 2- and 3-D convolutions, plain and transposed, with stride, padding,
// dilation, groups and output_padding, on every floating dtype. Values
// are finite, in [-3, 3]: the sums, which the two sides add in different orders, agree within the
// floating tolerances (the forward cases check the infinities and NaN of the convolution itself).
#include "switchyard/conformance/oracle/cases/cases.h"

namespace sy::oracle {

namespace {

const std::vector<std::string> kConvolutionBackward{"aten::convolution_backward", "aten::convolution_backward.out"};

// PyTorch 1.13's BFloat16 transposed convolution_backward fails in oneDNN ("could not create a
// descriptor for a dilated convolution forward propagation primitive"): the expected values are
// its Float ones, rounded back.
const Deviation kBFloat16TransposedBackward = Deviation::referenced(
    "PyTorch 1.13's BFloat16 transposed backward fails in oneDNN; compared with its Float one, rounded back",
    whenDtype("input", {ScalarType::BFloat16}), computedVia({ScalarType::BFloat16}, ScalarType::Float, true));

OpCase gradients(const std::string& label, bool transposed = false) {
  OpCase c(kConvolutionBackward);
  if (transposed) c.deviation(kBFloat16TransposedBackward);
  return c
      .label(label)
      .tensor("grad_output", Values::range(-3, 3))
      .tensor("input", Values::range(-3, 3))
      .tensor("weight", Values::range(-3, 3))
      .dtypes(dtypes::kEveryFloating)
      .arg("transposed", {transposed})
      .arg("output_mask", {IValue(std::vector<bool>{true, true, true})})
      .out("out0", OutDtype::caseDtype())
      .out("out1", OutDtype::caseDtype())
      .out("out2", OutDtype::caseDtype());
}

}  // namespace

void addConvolutionBackwardCases(std::vector<OpCase>& cases) {
  // PyTorch 1.13 needs bias_sizes when output_mask asks for the bias gradient (None raises an
  // uncaught bad_optional_access there). Shapes are (grad_output, input, weight): each case's
  // arguments make grad_output the convolution's output; the 2-D case adds an empty batch.
  cases.push_back(gradients("2-D")
                      .shapes({{{2, 3, 3, 3}, {2, 2, 5, 5}, {3, 2, 3, 3}}, {{0, 3, 3, 3}, {0, 2, 5, 5}, {3, 2, 3, 3}}})
                      .arg("bias_sizes", {ints({3})})
                      .arg("stride", {ints({1, 1})})
                      .arg("padding", {ints({0, 0})})
                      .arg("dilation", {ints({1, 1})})
                      .arg("output_padding", {ints({0, 0})})
                      .arg("groups", {1}));
  cases.push_back(gradients("2-D strided, padded and dilated")
                      .shapes({{{1, 4, 2, 8}, {1, 2, 6, 7}, {4, 2, 3, 2}}})
                      .arg("bias_sizes", {ints({4})})
                      .arg("stride", {ints({2, 1})})
                      .arg("padding", {ints({1, 1})})
                      .arg("dilation", {ints({2, 1})})
                      .arg("output_padding", {ints({0, 0})})
                      .arg("groups", {1}));
  cases.push_back(gradients("1-D grouped")
                      .shapes({{{2, 6, 5}, {2, 4, 9}, {6, 2, 3}}})
                      .arg("bias_sizes", {ints({6})})
                      .arg("stride", {ints({2})})
                      .arg("padding", {ints({1})})
                      .arg("dilation", {ints({1})})
                      .arg("output_padding", {ints({0})})
                      .arg("groups", {2}));
  cases.push_back(gradients("3-D")
                      .shapes({{{1, 2, 3, 3, 3}, {1, 1, 4, 4, 4}, {2, 1, 2, 2, 2}}})
                      .arg("bias_sizes", {ints({2})})
                      .arg("stride", {ints({1, 1, 1})})
                      .arg("padding", {ints({0, 0, 0})})
                      .arg("dilation", {ints({1, 1, 1})})
                      .arg("output_padding", {ints({0, 0, 0})})
                      .arg("groups", {1}));
  // Transposed: input [N, C_in, ...], weight [C_in, C_out / groups, ...], grad_output the
  // transposed convolution's output, (in - 1) * stride - 2 * padding + dilation * (kernel - 1) +
  // output_padding + 1 along each dimension.
  cases.push_back(gradients("transposed 2-D strided with output_padding", true)
                      .shapes({{{2, 3, 6, 6}, {2, 2, 3, 3}, {2, 3, 3, 3}}, {{0, 3, 6, 6}, {0, 2, 3, 3}, {2, 3, 3, 3}}})
                      .arg("bias_sizes", {ints({3})})
                      .arg("stride", {ints({2, 2})})
                      .arg("padding", {ints({1, 1})})
                      .arg("dilation", {ints({1, 1})})
                      .arg("output_padding", {ints({1, 1})})
                      .arg("groups", {1}));
  cases.push_back(gradients("transposed 1-D grouped and dilated", true)
                      .shapes({{{1, 6, 7}, {1, 4, 5}, {4, 3, 2}}})
                      .arg("bias_sizes", {ints({6})})
                      .arg("stride", {ints({1})})
                      .arg("padding", {ints({0})})
                      .arg("dilation", {ints({2})})
                      .arg("output_padding", {ints({0})})
                      .arg("groups", {2}));
  cases.push_back(gradients("transposed 3-D", true)
                      .shapes({{{1, 1, 5, 5, 5}, {1, 2, 2, 2, 2}, {2, 1, 2, 2, 2}}})
                      .arg("bias_sizes", {ints({1})})
                      .arg("stride", {ints({2, 2, 2})})
                      .arg("padding", {ints({0, 0, 0})})
                      .arg("dilation", {ints({1, 1, 1})})
                      .arg("output_padding", {ints({1, 1, 1})})
                      .arg("groups", {1}));
}

}  // namespace sy::oracle
