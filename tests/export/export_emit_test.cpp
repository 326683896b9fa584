// Emission: captured models written as program files, loaded with sy::Program and run, must give
// what the model gives eagerly; the file carries its memory plan, constants and source lines.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "export/export_delegate_support.h"
#include "switchyard/export/emit.h"
#include "switchyard/program/program.h"
#include "switchyard/program/schema/program_generated.h"
#include "test_support.h"

namespace sy::export_ {
namespace {

using ::testing::HasSubstr;
using sy::testing::expectCloseTo;
using sy::testing::runProgram;
using sy::testing::Mlp;
using sy::testing::ResidualBlock;
using sy::testing::SmallCnn;

template <class Model>
void expectRoundTripMatchesEager(const Model& model) {
  ExportedProgram ep = capture(model.model(), {Model::exampleInput()}, model.parameters());
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok()) << file.status();
  for (uint32_t seed : {1u, 2u, 3u}) {
    const Tensor x = Model::exampleInput(seed);
    std::vector<Tensor> got = runProgram(file->bytes, "forward", {x});
    ASSERT_EQ(got.size(), 1u);
    expectCloseTo(got[0], model.forward(x));
  }
}

TEST(ExportEmit, AnMlpSavedLoadedAndRunMatchesEager) { expectRoundTripMatchesEager(Mlp()); }
TEST(ExportEmit, ASmallCnnSavedLoadedAndRunMatchesEager) { expectRoundTripMatchesEager(SmallCnn()); }
TEST(ExportEmit, AResidualBlockSavedLoadedAndRunMatchesEager) { expectRoundTripMatchesEager(ResidualBlock()); }

TEST(ExportEmit, AModelOfViewsConcatenationsAndReshapesWithTwoOutputsMatchesEager) {
  auto model = [](const std::vector<Tensor>& in) {
    Tensor t = ops::transpose(in[0], 0, 1);                   // [3, 2]
    std::vector<Tensor> parts{t, ops::mul(t, t)};
    Tensor c = ops::cat(parts, 1);                            // [3, 4]
    Tensor s = ops::slice(ops::reshape(c, {2, 6}), 1, 1, 5);  // [2, 4]
    Tensor e = ops::expand(ops::unsqueeze(ops::select(s, 0, 1), 0), {3, 4});
    Tensor q = ops::contiguous(ops::permute(e, {1, 0}));      // [4, 3]
    return std::vector<Tensor>{ops::squeeze(ops::unsqueeze(q, 2)), ops::add(q, in[0].sizes()[0] == 2 ? q : q)};
  };
  const Tensor example = sy::testing::randomTensor({2, 3}, 40);
  ExportedProgram ep = capture(model, {example});
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok()) << file.status();
  const Tensor x = sy::testing::randomTensor({2, 3}, 41);
  std::vector<Tensor> got = runProgram(file->bytes, "forward", {x});
  std::vector<Tensor> expected = model({x});
  ASSERT_EQ(got.size(), 2u);
  expectCloseTo(got[0], expected[0]);
  expectCloseTo(got[1], expected[1]);
}

TEST(ExportEmit, AnOperatorWithThreeResultsWritesAllThreeAndTheProgramUsesOne) {
  const Tensor w = sy::testing::randomTensor({4}, 50), b = sy::testing::randomTensor({4}, 51);
  auto model = [&](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{ops::relu(ops::layer_norm(in[0], {4}, w, b))};
  };
  ExportedProgram ep = capture(model, {sy::testing::randomTensor({3, 4}, 52)}, {{"ln.weight", w}, {"ln.bias", b}});
  const Node& ln = ep.graph().node(*ep.graph().findNode("native_layer_norm"));
  EXPECT_EQ(ln.outputs.size(), 3u);
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok()) << file.status();
  const Tensor x = sy::testing::randomTensor({3, 4}, 53);
  expectCloseTo(runProgram(file->bytes, "forward", {x})[0], model({x})[0]);
}

TEST(ExportEmit, AHalfInputAndCharAndByteConstantsRoundTripThroughAProgram) {
  // clone copies any dtype; the converting aten::_to_copy has no out variant a program can call.
  const Tensor c = tensor<int64_t>({-3, 100}).to(ScalarType::Char);
  const Tensor u = tensor<int64_t>({7, 250}).to(ScalarType::Byte);
  auto model = [&](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{ops::clone(ops::transpose(in[0], 0, 1)), ops::clone(c), ops::clone(u)};
  };
  const Tensor x = tensor<float>({0.5f, -1.25f, 65504.0f, 1e-7f}, {2, 2}).to(ScalarType::Half);
  ExportedProgram ep = capture(model, {x}, {{"c", c}, {"u", u}});
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok()) << file.status();
  std::vector<Tensor> got = runProgram(file->bytes, "forward", {x});
  ASSERT_EQ(got.size(), 3u);
  ASSERT_EQ(got[0].scalar_type(), ScalarType::Half);
  const std::vector<Half> expected = sy::testing::valuesOf<Half>(ops::transpose(x, 0, 1));
  const std::vector<Half> half_out = sy::testing::valuesOf<Half>(got[0]);
  ASSERT_EQ(half_out.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(half_out[i].bits(), expected[i].bits()) << i;
  EXPECT_EQ(sy::testing::valuesOf<int8_t>(got[1]), (std::vector<int8_t>{-3, 100}));
  EXPECT_EQ(sy::testing::valuesOf<uint8_t>(got[2]), (std::vector<uint8_t>{7, 250}));
}

TEST(ExportEmit, WritesOutVariantsAndReportsPlannedBytesAgainstTheSumOfIntermediates) {
  SmallCnn cnn;
  ExportedProgram ep = capture(cnn.model(), {SmallCnn::exampleInput()}, cnn.parameters());
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok()) << file.status();
  const EmittedMethod& m = file->methods[0];
  EXPECT_EQ(m.instructions, 6u);
  EXPECT_EQ(m.constants, 4u);
  // input 512 + conv 2048 + relu 2048 + pool 512 + view 512 + linear 48 (40) + softmax 48 (40) bytes
  EXPECT_EQ(m.unplanned_bytes, 512u + 2048 + 2048 + 512 + 512 + 48 + 48);
  EXPECT_LT(m.planned_bytes, m.unplanned_bytes);
  EXPECT_EQ(m.planned_bytes, 2048u + 2048);  // conv and relu are alive together; the rest fits beside them

  const pte::Program* root = pte::GetProgram(file->bytes.data());
  std::vector<std::string> ops;
  for (const pte::Operator* op : *root->execution_plan()->Get(0)->operators()) {
    ops.push_back(sy::str(op->name()->str(), ".", op->overload()->str()));
  }
  EXPECT_EQ(ops, (std::vector<std::string>{"aten::convolution.out", "aten::relu.out", "aten::max_pool2d.out",
                                           "aten::view_copy.out", "aten::linear.out", "aten::softmax.int_out"}));
  EXPECT_EQ(root->execution_plan()->Get(0)->non_const_buffer_sizes()->Get(1), static_cast<int64_t>(m.planned_bytes));
}

TEST(ExportEmit, StoresConstantsInADataSegmentBehindTheExtendedHeader) {
  Mlp mlp;
  ExportedProgram ep = capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok()) << file.status();
  const std::vector<uint8_t>& bytes = file->bytes;
  ASSERT_GT(bytes.size(), 40u);
  EXPECT_EQ(std::string(bytes.begin() + 4, bytes.begin() + 8), "ET12");
  EXPECT_EQ(std::string(bytes.begin() + 8, bytes.begin() + 12), "eh00");
  const pte::Program* root = pte::GetProgram(bytes.data());
  ASSERT_NE(root->constant_segment(), nullptr);
  EXPECT_EQ(root->constant_segment()->offsets()->size(), 5u);  // the reserved entry and four parameters
  EXPECT_TRUE(root->constant_buffer() == nullptr || root->constant_buffer()->size() == 0);
  // (8*4 + 8 + 3*8 + 3) floats, each parameter starting on a 16-byte boundary
  EXPECT_EQ(file->constant_bytes, 128u + 32 + 96 + 12);
}

// See Note [A program always has its constant segment]: a runtime built as ExecuTorch's CMake builds
// it refuses a program whose constants are not in a segment, even a program that has none.
TEST(ExportEmit, WritesTheConstantSegmentsPlaceholderEvenWithoutConstants) {
  const ExportedProgram ep = capture(
      [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::add(in[0], in[1])}; },
      {Mlp::exampleInput(), Mlp::exampleInput(2)}, {});
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok()) << file.status();
  const pte::Program* root = pte::GetProgram(file->bytes.data());
  ASSERT_NE(root->constant_segment(), nullptr);
  ASSERT_NE(root->constant_segment()->offsets(), nullptr);
  EXPECT_THAT(std::vector<uint64_t>(root->constant_segment()->offsets()->begin(), root->constant_segment()->offsets()->end()),
              ::testing::ElementsAre(0u));
  ASSERT_NE(root->segments(), nullptr);
  ASSERT_LT(root->constant_segment()->segment_index(), root->segments()->size());
  EXPECT_EQ(root->segments()->Get(root->constant_segment()->segment_index())->size(), 0u);
  EXPECT_EQ(file->constant_bytes, 0u);
  EXPECT_TRUE(root->constant_buffer() == nullptr || root->constant_buffer()->size() == 0);
  const Tensor a = Mlp::exampleInput(5), b = Mlp::exampleInput(6);
  expectCloseTo(runProgram(file->bytes, "forward", {a, b})[0], ops::add(a, b));
}

TEST(ExportEmit, WritesSeveralMethodsAndStoresASharedParameterOnce) {
  Mlp mlp;
  ExportedProgram forward = capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  ExportedProgram hidden = capture(
      [&](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::relu(ops::linear(in[0], mlp.w1, mlp.b1))}; },
      {Mlp::exampleInput()}, {{"fc1.weight", mlp.w1}, {"fc1.bias", mlp.b1}});
  absl::StatusOr<EmittedProgram> file = emitProgram({{"forward", &forward}, {"hidden", &hidden}});
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->constant_bytes, 128u + 32 + 96 + 12);  // fc1's tensors once
  absl::StatusOr<Program> program = Program::loadFromBuffer(file->bytes);
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(program->method_names(), (std::vector<std::string>{"forward", "hidden"}));
  const Tensor x = Mlp::exampleInput(4);
  expectCloseTo(runProgram(file->bytes, "hidden", {x})[0], ops::relu(ops::linear(x, mlp.w1, mlp.b1)));
  expectCloseTo(runProgram(file->bytes, "forward", {x})[0], mlp.forward(x));
}

TEST(ExportEmit, GivesEachInstructionItsSourceStackInTheChainsStackTraces) {
  Mlp mlp;
  ExportedProgram ep = capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok()) << file.status();
  const pte::Chain* chain = pte::GetProgram(file->bytes.data())->execution_plan()->Get(0)->chains()->Get(0);
  ASSERT_NE(chain->stacktrace(), nullptr);
  ASSERT_EQ(chain->stacktrace()->size(), chain->instructions()->size());
  const pte::FrameList* relu = chain->stacktrace()->Get(1);
  const Node& node = ep.graph().node(*ep.graph().findNode("relu"));
  ASSERT_EQ(relu->items()->size(), node.meta.stack.size());
  const pte::Frame* innermost = relu->items()->Get(relu->items()->size() - 1);
  EXPECT_THAT(innermost->filename()->str(), HasSubstr("export_models.h"));
  EXPECT_EQ(static_cast<uint32_t>(innermost->lineno()), node.meta.location()->line);
  EXPECT_EQ(innermost->name()->str(), "forward");
  EXPECT_EQ(innermost->context()->str(), "relu");
}

TEST(ExportEmit, SavesAFileThatProgramLoadAndTheSwitchyardCommandRunAndFlatcDecodes) {
  ResidualBlock block;
  ExportedProgram ep = capture(block.model(), {ResidualBlock::exampleInput()}, block.parameters());
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok()) << file.status();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / sy::str("export_emit_test_", ::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "residual.pte").string();
  ASSERT_TRUE(file->save(path).ok());
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();

  const std::string json = sy::testing::flatcJson(path);
  EXPECT_THAT(json, HasSubstr("\"name\": \"aten::convolution\""));
  EXPECT_THAT(json, HasSubstr("\"overload\": \"out\""));
  EXPECT_THAT(json, HasSubstr("\"lineno\""));
  const std::string run = sy::str(SWITCHYARD_CLI_PATH, " run ", path, " --random 0 > ", (dir / "run.txt").string(), " 2>&1");
  EXPECT_EQ(std::system(run.c_str()), 0) << run;
  const std::string inspect = sy::str(SWITCHYARD_CLI_PATH, " inspect ", path, " > ", (dir / "inspect.txt").string(), " 2>&1");
  EXPECT_EQ(std::system(inspect.c_str()), 0) << inspect;
  std::ifstream listing(dir / "inspect.txt");
  std::stringstream inspected;
  inspected << listing.rdbuf();
  EXPECT_THAT(inspected.str(), HasSubstr("aten::convolution.out"));
  std::filesystem::remove_all(dir);
  EXPECT_THAT(file->save((dir / "no" / "such" / "dir.pte").string()).message(), HasSubstr("cannot open '"));
}

// An operator with a functional kernel and no out variant: capture records it, emission refuses it.
SY_LIBRARY(exporttest, m) { m.def("exporttest::twice(Tensor self) -> Tensor"); }
Tensor twice(const Tensor& self) { return ops::add(self, self); }
SY_LIBRARY_IMPL(exporttest, CPU, m) { m.impl("twice", SY_FN(twice)); }

TEST(ExportEmit, RefusesAnOperatorWithoutAnOutVariantNamingTheNode) {
  auto op = Dispatcher::singleton().findSchemaOrThrow("exporttest::twice", "").typed<Tensor(const Tensor&)>();
  ExportedProgram ep = capture([&](const std::vector<Tensor>& in) { return std::vector<Tensor>{op.call(in[0])}; },
                               {sy::ones({2})});
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().message(),
            "emitting method 'forward': node 'twice' calls exporttest::twice, which has no out variant registered (a "
            "program calls out= variants only; define exporttest::twice.out, or avoid the operator)");
}

// An operator whose kernels refuse negative inputs: a program that calls it fails at run time.
Tensor& rootOut(const Tensor& self, Tensor& out) {
  out.resize_(self.sizes());
  for (int64_t i = 0; i < self.numel(); ++i) {
    const float v = self.data_ptr<float>()[i];
    SY_CHECK_VALUE(v >= 0, "exportemitcheck::root: element ", i, " is negative");
    out.data_ptr<float>()[i] = std::sqrt(v);
  }
  return out;
}
Tensor root(const Tensor& self) {
  Tensor out = sy::empty(self.sizes());
  return rootOut(self, out);
}
SY_LIBRARY(exportemitcheck, m) {
  m.def("exportemitcheck::root(Tensor self) -> Tensor");
  m.def("exportemitcheck::root.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
}
SY_LIBRARY_IMPL(exportemitcheck, CPU, m) {
  m.impl("root", SY_FN(root));
  m.impl("root.out", SY_FN(rootOut));
}

TEST(ExportEmit, AKernelErrorInTheLoadedProgramNamesTheSourceLineOfTheCallThatMadeIt) {
  auto op = Dispatcher::singleton().findSchemaOrThrow("exportemitcheck::root", "").typed<Tensor(const Tensor&)>();
  const int line = __LINE__ + 2;
  ExportedProgram ep = capture([&](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{SY_SOURCE(op.call(in[0]))};
  }, {sy::ones({2})});
  absl::StatusOr<EmittedProgram> file = emitProgram(ep);
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<Program> program = Program::loadFromBuffer(file->bytes, "root.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, sy::tensor<float>({4, -1})).ok());
  absl::Status s = m->execute();
  EXPECT_THAT(s.message(), HasSubstr(sy::str("instruction 0 (exportemitcheck::root.out) at tests/export/export_emit_test.cpp:",
                                             line, " (in operator()) failed: exportemitcheck::root: element 1 is negative")));
}

TEST(ExportEmit, RefusesNoMethodsAnEmptyNameAndTwoMethodsOfOneName) {
  Mlp mlp;
  ExportedProgram ep = capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  EXPECT_EQ(emitProgram(std::vector<MethodToEmit>{}).status().message(), "emitProgram: no methods to emit");
  EXPECT_EQ(emitProgram(ep, "").status().message(), "emitProgram: a method has an empty name");
  EXPECT_EQ(emitProgram({{"f", &ep}, {"f", &ep}}).status().message(), "emitProgram: two methods are called 'f'");
}

}  // namespace
}  // namespace sy::export_
