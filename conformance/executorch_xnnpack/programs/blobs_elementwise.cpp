// blobs_elementwise.cpp: hand-made XNNPACK graphs of one element-wise node each ("blob_*").
//
// The unary nodes ExecuTorch's runtime defines that Switchyard's partitioner does not emit (or
// emits only fused), the binary minimum/maximum and an Add with an output clamp, and PReLU. Every
// graph is input -> node -> output; the eager model computes the same with Switchyard operators.
#include "graph_maker.h"

namespace conformance {
namespace {

// A [2,3,4] -> [2,3,4] graph of one unary node; `set` fills in the node's parameters.
ProgramCase unary(const std::string& name, K kind, std::function<Tensor(const Tensor&)> eager, double tolerance = 1e-5,
                  std::function<void(xnn::XnnNode&)> set = nullptr) {
  return handMadeCase("blob_" + name, {{2, 3, 4}}, [eager](Inputs in) { return Outputs{eager(in[0])}; },
                  std::string(xnn::nodeKindName(kind)), tolerance, [kind, set](GraphMaker& g) {
                    const uint32_t x = g.input({2, 3, 4}), y = g.output({2, 3, 4});
                    xnn::XnnNode& n = g.node(kind, {x}, {y});
                    if (set) set(n);
                  });
}

// [2,3,4] op [3,1] -> [2,3,4], with the node's output clamp.
ProgramCase binary(const std::string& name, K kind, std::function<Tensor(const Tensor&, const Tensor&)> eager,
                   float low = -INFINITY, float high = INFINITY) {
  return handMadeCase("blob_" + name, {{2, 3, 4}, {3, 1}}, [eager](Inputs in) { return Outputs{eager(in[0], in[1])}; },
                  std::string(xnn::nodeKindName(kind)) + ", [2,3,4] with [3,1] broadcast", 1e-5,
                  [kind, low, high](GraphMaker& g) {
                    const uint32_t a = g.input({2, 3, 4}), b = g.input({3, 1}), y = g.output({2, 3, 4});
                    xnn::XnnNode& n = g.node(kind, {a, b}, {y});
                    n.output_min = low;
                    n.output_max = high;
                  });
}

}  // namespace

void addElementwiseBlobs(CaseList& cases) {
  cases.push_back(unary("tanh", K::Tanh, [](const Tensor& x) { return ops::tanh(x); }));
  cases.push_back(unary("gelu", K::Gelu, [](const Tensor& x) { return ops::gelu(x); }));
  cases.push_back(unary("exp", K::Exp, [](const Tensor& x) { return ops::exp(x); }));
  cases.push_back(unary("sin", K::Sin, [](const Tensor& x) { return ops::sin(x); }));
  cases.push_back(unary("cos", K::Cos, [](const Tensor& x) { return ops::cos(x); }));
  cases.push_back(unary("abs", K::Abs, [](const Tensor& x) { return ops::abs(x); }));
  cases.push_back(unary("neg", K::Negate, [](const Tensor& x) { return ops::neg(x); }));
  cases.push_back(unary("square", K::Square, [](const Tensor& x) { return ops::mul(x, x); }));
  cases.push_back(unary("sigmoid", K::Sigmoid, [](const Tensor& x) { return ops::sigmoid(x); }));
  cases.push_back(unary("hardswish", K::Hardswish,
                        [](const Tensor& x) { return ops::mul(x, ops::div(ops::clamp(ops::add(x, 3.0), 0.0, 6.0), 6.0)); }));
  cases.push_back(unary("leaky_relu", K::LeakyReLU, [](const Tensor& x) { return ops::leaky_relu(x, 0.1); }, 1e-5,
                        [](xnn::XnnNode& n) { n.scalar = 0.1f; }));
  cases.push_back(unary("elu", K::ELU, [](const Tensor& x) { return ops::elu(x, 0.7); }, 1e-5,
                        [](xnn::XnnNode& n) { n.scalar = 0.7f; }));
  cases.push_back(unary("clamp", K::Clamp, [](const Tensor& x) { return ops::clamp(x, -0.25, 0.5); }, 1e-6,
                        [](xnn::XnnNode& n) { n.output_min = -0.25f, n.output_max = 0.5f; }));
  cases.push_back(unary("copy", K::Copy, [](const Tensor& x) { return ops::clone(x); }));
  cases.push_back(unary("softmax", K::Softmax, [](const Tensor& x) { return ops::softmax(x, -1); }));
  // Functions of positive numbers only: inputs in [0.25, 2).
  for (ProgramCase c : {unary("log", K::Log, [](const Tensor& x) { return ops::log(x); }),
                        unary("sqrt", K::SquareRoot, [](const Tensor& x) { return ops::sqrt(x); }),
                        unary("rsqrt", K::ReciprocalSquareRoot, [](const Tensor& x) { return ops::rsqrt(x); })}) {
    c.input_low = 0.25f, c.input_high = 2.0f;
    cases.push_back(c);
  }
  // Rounding: inputs in [-3, 3) so that many values round.
  for (ProgramCase c : {unary("floor", K::Floor, [](const Tensor& x) { return ops::floor(x); }, 0),
                        unary("ceil", K::Ceiling, [](const Tensor& x) { return ops::ceil(x); }, 0)}) {
    c.input_low = -3.0f, c.input_high = 3.0f;
    cases.push_back(c);
  }

  cases.push_back(binary("minimum", K::Minimum, [](const Tensor& a, const Tensor& b) { return ops::minimum(a, b); }));
  cases.push_back(binary("maximum", K::Maximum, [](const Tensor& a, const Tensor& b) { return ops::maximum(a, b); }));
  cases.push_back(binary("add_clamped", K::Add,
                         [](const Tensor& a, const Tensor& b) { return ops::clamp(ops::add(a, b), -0.5, 0.75); }, -0.5f, 0.75f));

  const std::vector<float> slope = {0.1f, -0.5f, 2.0f, 0.0f};
  cases.push_back(handMadeCase(
      "blob_prelu", {{1, 2, 3, 4}},
      [slope](Inputs in) {
        const Tensor s = sy::tensor<float>(slope, {4});
        return Outputs{ops::add(ops::relu(in[0]), ops::mul(ops::neg(ops::relu(ops::neg(in[0]))), s))};
      },
      "XNNPReLU, one slope per channel (the last dimension)", 1e-6, [slope](GraphMaker& g) {
        const uint32_t x = g.input({1, 2, 3, 4}), y = g.output({1, 2, 3, 4});
        g.node(K::PReLU, {x, g.constant({4}, slope)}, {y});
      }));
}

}  // namespace conformance
