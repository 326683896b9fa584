// Capture through the Tracer key's fallback: what a model's operator calls become in the graph,
// how writes and views are functionalised or refused, and where each node came from.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "export/export_models.h"
#include "switchyard/export/capture.h"
#include "switchyard/export/graph_printer.h"
#include "test_support.h"

namespace sy::export_ {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::doublesOf;
using sy::testing::errorMessageOf;
using sy::testing::expectCloseTo;
using sy::testing::Mlp;
using sy::testing::randomTensor;
using sy::testing::ResidualBlock;
using sy::testing::SmallCnn;

// The operator names of the graph's call nodes, in order.
std::vector<std::string> operatorsOf(const Graph& g) {
  std::vector<std::string> out;
  for (const Node& n : g.nodes()) {
    if (n.kind == NodeKind::CallFunction) out.push_back(n.op->operator_name().toString());
  }
  return out;
}

TEST(ExportCapture, RecordsAnMlpAsItsOperatorCallsWithParametersAsPlaceholders) {
  Mlp mlp;
  ExportedProgram ep = capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters(), {"x"});
  EXPECT_THAT(operatorsOf(ep.graph()), ElementsAre("aten::linear", "aten::relu", "aten::linear", "aten::softmax.int"));
  EXPECT_THAT(toString(ep.graph()), HasSubstr("%fc1_weight : Float[8, 4] = placeholder[parameter 'fc1.weight']"));
  EXPECT_THAT(toString(ep.graph()), HasSubstr("%linear : Float[2, 8] = aten::linear(%x, %fc1_weight, %fc1_bias)"));
  EXPECT_THAT(toString(ep.graph()), HasSubstr("%softmax : Float[2, 3] = aten::softmax.int(%linear_1, -1, None)"));
  EXPECT_EQ(ep.graph().placeholders(InputKind::Parameter).size(), 4u);
  EXPECT_TRUE(ep.state().at("fc1.weight").is_same(mlp.w1));
}

TEST(ExportCapture, ComputesTheRealResultsWhileRecordingAndTheGraphReproducesThem) {
  Mlp mlp;
  const Tensor x = Mlp::exampleInput();
  Tensor during;
  ExportedProgram ep = capture(
      [&](const std::vector<Tensor>& in) {
        during = mlp.forward(in[0]);
        return std::vector<Tensor>{during};
      },
      {x}, mlp.parameters());
  const Tensor eager = mlp.forward(x);
  expectCloseTo(during, eager);
  const Tensor other = Mlp::exampleInput(/*seed=*/7);
  expectCloseTo(ep.run({other})[0], mlp.forward(other));
}

TEST(ExportCapture, RecordsACompositeOperatorAsTheOperatorsItCalls) {
  SmallCnn cnn;
  ExportedProgram ep = capture(cnn.model(), {SmallCnn::exampleInput()}, cnn.parameters());
  EXPECT_THAT(operatorsOf(ep.graph()), ElementsAre("aten::convolution", "aten::relu", "aten::max_pool2d", "aten::view",
                                                   "aten::linear", "aten::softmax.int"));
  const Tensor other = SmallCnn::exampleInput(/*seed=*/9);
  expectCloseTo(ep.run({other})[0], cnn.forward(other));
}

TEST(ExportCapture, RecordsACompositeViewAsItselfSinceItsKernelBuildsTheViewBehindTheDispatcher) {
  ExportedProgram ep = capture(
      [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::neg(ops::reshape(in[0], {3, 2}))}; },
      {sy::ones({2, 3})}, {}, {"x"});
  EXPECT_THAT(operatorsOf(ep.graph()), ElementsAre("aten::reshape", "aten::neg"));
}

// A CompositeImplicit operator whose kernel reshapes what the call it makes returned, behind the
// dispatcher: capture cannot record it as its calls.
Tensor flattenBehindTheDispatcher(const Tensor& self) {
  Tensor out = ops::neg(self);
  out.unsafeGetTensorImpl()->set_sizes_and_strides({self.numel()}, {1}, 0);
  return out;
}
SY_LIBRARY(exportcapturetest, m) {
  m.def("exportcapturetest::flat_neg(Tensor self) -> Tensor", SY_FN(flattenBehindTheDispatcher));
}

TEST(ExportCapture, RefusesACompositeWhoseKernelChangesAResultBehindTheDispatcher) {
  auto op = Dispatcher::singleton().findSchemaOrThrow("exportcapturetest::flat_neg", "").typed<Tensor(const Tensor&)>();
  EXPECT_THAT(errorMessageOf([&] {
                capture([&](const std::vector<Tensor>& in) { return std::vector<Tensor>{op.call(in[0])}; },
                        {sy::ones({2, 2})});
              }),
              HasSubstr("exportcapturetest::flat_neg is recorded as the operators its CompositeImplicit kernel calls, "
                        "but its result 0 is not what one of those calls returned"));
}

int64_t countElements(const Tensor& self) { return self.numel(); }
SY_LIBRARY(exportcapturecount, m) { m.def("exportcapturecount::count(Tensor self) -> int"); }
SY_LIBRARY_IMPL(exportcapturecount, CPU, m) { m.impl("count", SY_FN(countElements)); }

TEST(ExportCapture, RefusesAnOperatorWhoseResultIsNotATensor) {
  auto op = Dispatcher::singleton().findSchemaOrThrow("exportcapturecount::count", "").typed<int64_t(const Tensor&)>();
  EXPECT_EQ(errorMessageOf([&] {
              capture([&](const std::vector<Tensor>& in) {
                op.call(in[0]);
                return in;
              }, {sy::ones({2})});
            }),
            "exportcapturecount::count returns int, which a captured graph cannot hold (capture records operators "
            "whose results are tensors); compute it outside the captured model");
  EXPECT_EQ(op.call(sy::ones({3})), 3);  // outside a capture it runs
}

TEST(ExportCapture, RecordsAResidualBlockWhoseInputIsReadTwice) {
  ResidualBlock block;
  ExportedProgram ep = capture(block.model(), {ResidualBlock::exampleInput()}, block.parameters(), {"x"});
  EXPECT_THAT(toString(ep.graph()), HasSubstr("= aten::add.Tensor(%x, %convolution_1, 1)"));
  const Tensor other = ResidualBlock::exampleInput(/*seed=*/5);
  expectCloseTo(ep.run({other})[0], block.forward(other));
}

TEST(ExportCapture, GivesEachNodeTheSourceLineOfItsStatementAndTheStackAbove) {
  Mlp mlp;
  const int capture_line = __LINE__ + 1;
  ExportedProgram ep = capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  const Node& relu = ep.graph().node(*ep.graph().findNode("relu"));
  ASSERT_EQ(relu.meta.stack.size(), 3u);
  EXPECT_THAT(relu.meta.stack[0].file, HasSubstr("export_capture_test.cpp"));
  EXPECT_EQ(relu.meta.stack[0].line, static_cast<uint32_t>(capture_line));
  EXPECT_THAT(relu.meta.stack[1].file, HasSubstr("export_models.h"));
  EXPECT_EQ(relu.meta.stack[1].function, "forward");
  EXPECT_EQ(relu.meta.stack[2].line, relu.meta.stack[1].line + 1);  // the SY_SOURCE line under the scope
  EXPECT_THAT(inspect_node(ep.graph(), "relu"), HasSubstr("  source: "));
  EXPECT_THAT(inspect_node(ep.graph(), "relu"), HasSubstr("export_models.h:"));
}

TEST(ExportCapture, LiftsATensorMadeInsideTheModelIntoAConstantAndFoldsWhatReadsOnlyConstants) {
  Tensor c = sy::tensor<float>({1, 2, 3});
  ExportedProgram ep = capture(
      [&](const std::vector<Tensor>& in) {
        Tensor doubled = ops::add(c, c);  // reads only a constant: runs, is not recorded
        return std::vector<Tensor>{ops::mul(in[0], doubled)};
      },
      {sy::tensor<float>({1, 1, 1})}, {}, {"x"});
  EXPECT_THAT(operatorsOf(ep.graph()), ElementsAre("aten::mul.Tensor"));
  EXPECT_THAT(toString(ep.graph()), HasSubstr("%_tensor_constant0 : Float[3] = placeholder[constant '_tensor_constant0']"));
  EXPECT_EQ(doublesOf(ep.state().at("_tensor_constant0")), (std::vector<double>{2, 4, 6}));
  c.copy_(sy::zeros({3}));  // the program keeps the values it saw
  EXPECT_EQ(doublesOf(ep.run({sy::tensor<float>({1, 2, 3})})[0]), (std::vector<double>{2, 8, 18}));
}

TEST(ExportCapture, RecordsAnInPlaceCallAsItsFunctionalFormAndLaterReadsSeeTheNewValue) {
  ExportedProgram ep = capture(
      [&](const std::vector<Tensor>& in) {
        Tensor h = ops::mul(in[0], in[0]);
        ops::add_(h, in[0]);  // h = x*x + x
        ops::relu_(h);
        return std::vector<Tensor>{ops::neg(h)};
      },
      {sy::tensor<float>({1, -2, 3})}, {}, {"x"});
  EXPECT_THAT(operatorsOf(ep.graph()), ElementsAre("aten::mul.Tensor", "aten::add.Tensor", "aten::relu", "aten::neg"));
  EXPECT_THAT(toString(ep.graph()), HasSubstr("%neg : Float[3] = aten::neg(%relu)"));
  EXPECT_EQ(doublesOf(ep.run({sy::tensor<float>({-3, 0.5, 2})})[0]), (std::vector<double>{-6, -0.75, -6}));
}

TEST(ExportCapture, RecordsAnOutVariantCallAsItsFunctionalForm) {
  ExportedProgram ep = capture(
      [&](const std::vector<Tensor>& in) {
        Tensor out = sy::empty({3});
        ops::add_out(out, in[0], in[0]);
        return std::vector<Tensor>{ops::mul(out, in[0])};
      },
      {sy::tensor<float>({1, 2, 3})});
  EXPECT_THAT(operatorsOf(ep.graph()), ElementsAre("aten::add.Tensor", "aten::mul.Tensor"));
  EXPECT_EQ(doublesOf(ep.run({sy::tensor<float>({1, 2, 3})})[0]), (std::vector<double>{2, 8, 18}));
}

TEST(ExportCapture, RefusesAWriteToAUserInputOrAParameter) {
  Tensor w = sy::ones({3});
  EXPECT_EQ(errorMessageOf([&] {
              capture([&](const std::vector<Tensor>& in) {
                Tensor x = in[0];
                ops::add_(x, w);
                return std::vector<Tensor>{x};
              }, {sy::zeros({3})}, {{"w", w}}, {"x"});
            }),
            "aten::add_.Tensor writes its argument 'self', which is user input 'x'; a captured program cannot change "
            "its inputs or parameters. Use the functional form (aten::add.Tensor) and return its result instead");
  EXPECT_THAT(errorMessageOf([&] {
                capture([&](const std::vector<Tensor>& in) {
                  Tensor p = w;
                  ops::mul_(p, in[0]);
                  return std::vector<Tensor>{p};
                }, {sy::zeros({3})}, {{"w", w}});
              }),
              HasSubstr("aten::mul_.Tensor writes its argument 'self', which is parameter 'w'"));
}

TEST(ExportCapture, RefusesAWriteThroughATensorAnotherLiveViewShares) {
  EXPECT_THAT(errorMessageOf([&] {
                capture([&](const std::vector<Tensor>& in) {
                  Tensor h = ops::mul(in[0], in[0]);
                  Tensor v = ops::view(h, {2, 2});
                  ops::relu_(h);  // v would see it in eager, but not in a functional graph
                  return std::vector<Tensor>{v};
                }, {sy::ones({4})});
              }),
              HasSubstr("aten::relu_ writes its argument 'self', which shares memory with %view (made by aten::view), "
                        "a tensor the model still holds; capture cannot record writes through views"));
}

TEST(ExportCapture, RefusesATensorThatSharesMemoryWithAComputedValueButWasMadeBehindTheDispatcher) {
  EXPECT_THAT(errorMessageOf([&] {
                capture([&](const std::vector<Tensor>& in) {
                  Tensor h = ops::mul(in[0], in[0]);
                  Tensor behind = sy::testing::viewOf(h, {2}, {1});
                  return std::vector<Tensor>{ops::neg(behind)};
                }, {sy::ones({4})});
              }),
              HasSubstr("argument 'self' of aten::neg is a tensor that shares memory with mul but was not made by an "
                        "operator call the capture saw"));
}

TEST(ExportCapture, RefusesBadParametersAndInputs) {
  Tensor w = sy::ones({2});
  auto id = [](const std::vector<Tensor>& in) { return in; };
  EXPECT_EQ(errorMessageOf([&] { capture(id, {}, {{"w", w}, {"w", sy::ones({2})}}); }), "two parameters are called 'w'");
  EXPECT_EQ(errorMessageOf([&] { capture(id, {}, {{"a", w}, {"b", w}}); }),
            "parameters 'a' and 'b' are the same tensor; pass it once");
  EXPECT_EQ(errorMessageOf([&] { capture(id, {}, {{"", w}}); }),
            "parameter 0 has an empty name; every parameter needs a unique name");
  EXPECT_EQ(errorMessageOf([&] { capture(id, {w}, {{"w", w}}, {"x"}); }),
            "example input 'x' is the same tensor as parameter 'w'; pass distinct tensors");
  EXPECT_EQ(errorMessageOf([&] { capture(id, {w}, {}, {"x", "y"}); }), "capture: 2 input names for 1 example inputs");
}

TEST(ExportCapture, RefusesASecondCaptureOnTheSameThread) {
  Capture outer;
  EXPECT_THAT(errorMessageOf([&] { Capture inner; }),
              HasSubstr("while another capture is running on this thread; finish that one first"));
}

TEST(ExportCapture, RefusesToStartWhenSomeoneElseHasATracerFallback) {
  Library mine(Library::IMPL, "_", DispatchKey::Tracer);
  mine.fallback(CppFunction::makeFallthrough());
  EXPECT_THAT(errorMessageOf([&] { Capture c; }),
              HasSubstr("export capture records operator calls with a backend fallback on the Tracer key, but another "
                        "Tracer fallback is registered (at "));
}

TEST(ExportCapture, RemovesItsFallbackWhenItEndsSoTheTracerKeyIsFreeAgain) {
  { capture([](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::neg(in[0])}; }, {sy::ones({2})}); }
  EXPECT_FALSE(Dispatcher::singleton().backendFallbackSite(DispatchKey::Tracer).has_value());
  Library mine(Library::IMPL, "_", DispatchKey::Tracer);
  mine.fallback(CppFunction::makeFallthrough());  // no duplicate-fallback error
}

TEST(ExportCapture, DoesNotRecordCallsOnOtherThreadsOrAfterItFinishes) {
  Capture c;
  Tensor x = c.input("x", sy::ones({2}));
  std::thread other([&] { ops::neg(x); });  // reads the input, on another thread: not recorded
  other.join();
  Tensor y = ops::sin(x);
  ExportedProgram ep = c.finish({y});
  ops::cos(y);
  EXPECT_THAT(operatorsOf(ep.graph()), ElementsAre("aten::sin"));
}

TEST(ExportCapture, TwoThreadsCaptureAtOnceEachRecordingOnlyItsOwnCalls) {
  Mlp mlp;
  SmallCnn cnn;
  std::vector<std::string> mlp_ops, cnn_ops;
  std::thread a([&] {
    for (int i = 0; i < 20; ++i) mlp_ops = operatorsOf(capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters()).graph());
  });
  std::thread b([&] {
    for (int i = 0; i < 20; ++i) cnn_ops = operatorsOf(capture(cnn.model(), {SmallCnn::exampleInput()}, cnn.parameters()).graph());
  });
  a.join();
  b.join();
  EXPECT_THAT(mlp_ops, ElementsAre("aten::linear", "aten::relu", "aten::linear", "aten::softmax.int"));
  EXPECT_EQ(cnn_ops.size(), 6u);
  EXPECT_FALSE(Dispatcher::singleton().backendFallbackSite(DispatchKey::Tracer).has_value());
}

TEST(ExportCapture, AnOutputThatIsAnInputIsTheInputPlaceholder) {
  ExportedProgram ep = capture([](const std::vector<Tensor>& in) { return in; }, {sy::ones({2})}, {}, {"x"});
  EXPECT_EQ(toString(ep.graph()), "graph():\n    %x : Float[2] = placeholder[user input]\n    return (%x)\n");
}

}  // namespace
}  // namespace sy::export_
