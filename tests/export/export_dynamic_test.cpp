// Dynamic dimensions from capture to run time: captureDynamic marks the values that follow a
// dynamic input dimension (See Note [Dynamic dimensions are found by capturing twice]), the
// emitter writes them DYNAMIC_BOUND at their bound, and the loaded program runs at the bound and
// below it, giving what the model gives eagerly.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "export/export_delegate_support.h"
#include "export/export_models.h"
#include "switchyard/export/emit.h"
#include "switchyard/export/graph_printer.h"
#include "switchyard/program/program.h"

namespace sy::export_ {
namespace {

using ::testing::HasSubstr;
using sy::testing::expectCloseTo;
using sy::testing::randomTensor;

// Emits `ep`, loads it once, and runs it on each input, comparing with `model` run eagerly.
void expectDynamicRunsMatchEager(const ExportedProgram& ep, const Model& model, const std::vector<Tensor>& inputs) {
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<Program> program = Program::loadFromBuffer(file->bytes, "dynamic.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  for (const Tensor& x : inputs) {
    absl::Status s = m->set_input(0, x);
    ASSERT_TRUE(s.ok()) << s;
    s = m->execute();
    ASSERT_TRUE(s.ok()) << s;
    expectCloseTo(m->get_output(0).toTensor(), model({x})[0]);
  }
}

TEST(ExportDynamic, AnMlpWithADynamicBatchRunsAtTheBoundAndBelowIt) {
  sy::testing::Mlp mlp;
  ExportedProgram ep = captureDynamic(mlp.model(), {randomTensor({8, 4}, 1)}, {{0, 0, 1}}, mlp.parameters());
  const ValueId x = ep.graph().placeholders(InputKind::User)[0];
  EXPECT_EQ(ep.graph().value(x).meta.str(), "Float[<=8, 4]");
  EXPECT_EQ(ep.graph().value(ep.graph().outputs()[0]).meta.str(), "Float[<=8, 3]");
  // Weights stay static.
  EXPECT_FALSE(ep.graph().value(ep.graph().placeholders(InputKind::Parameter)[0]).meta.isDynamic());
  std::ostringstream printed;
  printed << ep.graph();
  EXPECT_THAT(printed.str(), HasSubstr("Float[<=8, 4]"));
  expectDynamicRunsMatchEager(ep, mlp.model(), {randomTensor({8, 4}, 2), randomTensor({3, 4}, 3), randomTensor({1, 4}, 4)});

  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok());
  absl::StatusOr<MethodMeta> meta = Program::loadFromBuffer(file->bytes)->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->inputs[0].dynamism, ShapeDynamism::DynamicBound);
  EXPECT_EQ(meta->inputs[0].sizes, (std::vector<int64_t>{8, 4}));
  EXPECT_EQ(meta->outputs[0].dynamism, ShapeDynamism::DynamicBound);
}

// SmallCnn flattens with view(h, {x.size(0), 64}): the size list becomes [-1, 64].
TEST(ExportDynamic, ACnnThatFlattensItsDynamicBatchRunsAtEverySize) {
  sy::testing::SmallCnn cnn;
  ExportedProgram ep = captureDynamic(cnn.model(), {randomTensor({4, 1, 8, 8}, 5)}, {{0, 0, 1}}, cnn.parameters());
  expectDynamicRunsMatchEager(ep, cnn.model(),
                              {randomTensor({4, 1, 8, 8}, 6), randomTensor({1, 1, 8, 8}, 7), randomTensor({3, 1, 8, 8}, 8)});
}

// view_copy infers at most one size (-1): a reshape whose sizes name two dynamic dimensions is
// refused at capture, a squeeze (no sizes argument, emitted as view_copy) when it is emitted.
// unsqueeze has an out variant of its own, so it keeps both.
TEST(ExportDynamic, AViewOfTwoDynamicDimensionsIsRefused) {
  auto reshape = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{ops::reshape(ops::mul(in[0], in[0]), {in[0].size(0), in[0].size(1), 1})};
  };
  try {
    captureDynamic(reshape, {randomTensor({6, 5}, 9)}, {{0, 0, 1}, {0, 1, 1}});
    FAIL() << "captured";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("node 'reshape' (aten::reshape) takes shape = [6, 5, 1] at the example sizes and "
                                    "[2, 2, 1] at the probe sizes: 2 of its dimensions are dynamic, and a view infers "
                                    "at most one"));
  }
  auto squeeze = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::squeeze(ops::mul(in[0], in[0]))}; };
  ExportedProgram ep = captureDynamic(squeeze, {randomTensor({6, 1, 5}, 9)}, {{0, 0, 1}, {0, 2, 1}});
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_FALSE(file.ok());
  EXPECT_THAT(file.status().message(), HasSubstr("makes Float[<=6, <=5], with 2 dynamic dimensions; view_copy infers "
                                                 "at most one"));
  auto unsqueeze = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{ops::unsqueeze(ops::mul(in[0], in[0]), 2)};
  };
  expectDynamicRunsMatchEager(captureDynamic(unsqueeze, {randomTensor({6, 5}, 9)}, {{0, 0, 1}, {0, 1, 1}}), unsqueeze,
                              {randomTensor({6, 5}, 10), randomTensor({2, 3}, 11), randomTensor({1, 5}, 12)});
}

TEST(ExportDynamic, AnArgumentComputedFromADynamicSizeIsRefusedNamingTheNode) {
  auto model = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{ops::slice(ops::neg(in[0]), 0, 0, in[0].size(0) - 1)};
  };
  try {
    captureDynamic(model, {randomTensor({6, 2}, 10)}, {{0, 0, 1}});
    FAIL() << "captured";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("node 'slice' (aten::slice.Tensor) takes end = 5 at the example sizes and 1 at the "
                                    "probe sizes: it depends on a dynamic size"));
    EXPECT_THAT(e.what(), HasSubstr("executorch_prim::sym_size"));
  }
}

TEST(ExportDynamic, AConstantMadeFromADynamicSizeIsRefused) {
  auto model = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{ops::add(in[0], sy::full({in[0].size(0)}, 1.0))};
  };
  try {
    captureDynamic(model, {randomTensor({4}, 11)}, {{0, 0, 1}});
    FAIL() << "captured";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("constant '_tensor_constant0' (Float[4]) is Float[2]"));
  }
}

TEST(ExportDynamic, TheExampleMustBeTheBound) {
  auto model = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::neg(in[0])}; };
  try {
    captureDynamic(model, {randomTensor({4}, 12)}, {{0, 0, 6}});
    FAIL() << "captured";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("input 0 dimension 0 takes sizes from 6 to its example's 4; the example must be the "
                                    "largest size (the bound)"));
  }
}

}  // namespace
}  // namespace sy::export_
