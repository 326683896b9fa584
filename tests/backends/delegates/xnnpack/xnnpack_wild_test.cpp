// The XNNPACK-delegated programs people published (../shared/programs/wild/, ExecuTorch 0.6 to
// 1.x): each loads, runs through the API and the command line, and matches the same graph run
// with every node on the host path (the run-time option placement=host), within float rounding,
// or one quantization step for int8.
#include <cmath>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "allocation_counter.h"
#include "tools/cli_test_support.h"
#include "export/export_models.h"
#include "program/program_test_support.h"
#include "xnnpack_blob_support.h"
#include "switchyard/program/program.h"

namespace sy::testing {
namespace {

using ::testing::HasSubstr;

struct WildProgram {
  const char* file;
  double tolerance;
};

// The quantized program's output scale (its last Convert reads qint8 with scale 0.005447).
constexpr double kQuantizedStep = 0.0055;

const WildProgram kWildPrograms[] = {
    {"djl-executorch-engine__spike_add.pte", 1e-6},       {"djl-executorch-engine__add_unplanned.pte", 1e-6},
    {"djl-executorch-engine__clamp5.pte", 1e-6},          {"djl-executorch-engine__conv.pte", 1e-4},
    {"djl-executorch-engine__lin129.pte", 1e-4},          {"djl-executorch-engine__lin129_planned.pte", 1e-4},
    {"executorch-numpy-runtime__add.pte", 1e-6},          {"executorch-numpy-runtime__dynamic.pte", 1e-6},
    {"executorch-numpy-runtime__quantized.pte", kQuantizedStep},
};

std::vector<Tensor> wildInputsFor(const Program& program, uint32_t seed) {
  std::vector<Tensor> inputs;
  const MethodMeta meta = *program.method_meta("forward");
  for (size_t i = 0; i < meta.inputs.size(); ++i) inputs.push_back(randomTensor(meta.inputs[i].sizes, seed + static_cast<uint32_t>(i)));
  return inputs;
}

// Runs "forward" on `inputs`, with every XNNPACK node on the host when `host`.
std::vector<Tensor> wildRunForward(const Program& program, const std::vector<Tensor>& inputs, bool host) {
  MethodOptions options;
  if (host) options.backend_options["XnnpackBackend"] = {{"placement", "host"}};
  absl::StatusOr<Method> m = program.load_method("forward", options);
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return {};
  for (size_t i = 0; i < inputs.size(); ++i) {
    const absl::Status s = m->set_input(i, inputs[i]);
    EXPECT_TRUE(s.ok()) << s;
  }
  const absl::Status s = m->execute();
  EXPECT_TRUE(s.ok()) << s;
  std::vector<Tensor> out;
  for (size_t i = 0; i < m->outputs_size(); ++i) out.push_back(ops::clone(m->get_output(i).toTensor()));
  return out;
}

class XnnpackWildProgram : public ::testing::TestWithParam<WildProgram> {};

TEST_P(XnnpackWildProgram, RunsAndMatchesTheHostPath) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, std::string("wild/") + GetParam().file);
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  const std::vector<Tensor> inputs = wildInputsFor(*program, 7);
  const std::vector<Tensor> xnnpack = wildRunForward(*program, inputs, false);
  const std::vector<Tensor> host = wildRunForward(*program, inputs, true);
  ASSERT_EQ(xnnpack.size(), host.size());
  ASSERT_FALSE(xnnpack.empty());
  for (size_t i = 0; i < xnnpack.size(); ++i) expectCloseTo(xnnpack[i], host[i], GetParam().tolerance);
}

TEST_P(XnnpackWildProgram, RunsFromTheCommandLine) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, std::string("wild/") + GetParam().file);
  const cli::Result r = cli::runCli("run " + path + " --random 0");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("output 0"));
  EXPECT_EQ(r.err, "");
}

INSTANTIATE_TEST_SUITE_P(Wild, XnnpackWildProgram, ::testing::ValuesIn(kWildPrograms),
                         [](const ::testing::TestParamInfo<WildProgram>& info) {
                           std::string name = info.param.file;
                           name = name.substr(0, name.size() - 4);
                           for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

TEST(XnnpackWildPrograms, HostStepsAndXnnpackRuntimesAllocateNothingWhileTheyExecute) {
  // conv.pte: a transpose on the host, the convolution in XNNPACK, a transpose back on the host.
  for (const char* file : {"wild/djl-executorch-engine__conv.pte", "wild/executorch-numpy-runtime__quantized.pte"}) {
    SY_REFERENCE_PROGRAM_OR_SKIP(path, file);
    absl::StatusOr<Program> program = Program::load(path);
    ASSERT_TRUE(program.ok()) << program.status();
    for (bool host : {false, true}) {
      MethodOptions options;
      if (host) options.backend_options["XnnpackBackend"] = {{"placement", "host"}};
      absl::StatusOr<Method> m = program->load_method("forward", options);
      ASSERT_TRUE(m.ok()) << m.status();
      const std::vector<Tensor> inputs = wildInputsFor(*program, 3);
      ASSERT_TRUE(m->set_input(0, inputs[0]).ok());
      ASSERT_TRUE(m->execute().ok());
      EXPECT_EQ(allocationsDuring([&] {
                  for (int i = 0; i < 10; ++i) {
                    if (!m->set_input(0, inputs[0]).ok() || !m->execute().ok()) std::abort();
                  }
                }),
                0)
          << file << (host ? " on the host" : "");
    }
  }
}

TEST(XnnpackWildPrograms, RunVerboseSaysWhereEachNodeRunsAndInspectShowsTheNodes) {
  SY_REFERENCE_PROGRAM_OR_SKIP(conv, "wild/djl-executorch-engine__conv.pte");
  SY_REFERENCE_PROGRAM_OR_SKIP(quantized, "wild/executorch-numpy-runtime__quantized.pte");
  const cli::Result run = cli::runCli("run " + conv + " --random 0 --verbose");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr("XnnpackBackend (method 'forward', delegate 0): node 0 (XNNStaticTranspose, fp32): host "
                                 "(XNNPACK 2022-02 has no XNNStaticTranspose)"));
  EXPECT_THAT(run.err, HasSubstr("node 1 (XNNConv2d, fp32): XNNPACK runtime 0"));
  const cli::Result inspect = cli::runCli("inspect " + quantized);
  EXPECT_EQ(inspect.status, 0) << inspect.err;
  EXPECT_THAT(inspect.out, HasSubstr("XNNPACK graph (version 0): 6 values, 3 nodes; inputs argument 0: fp32[2, 8]; "
                                     "outputs argument 1: fp32[2, 8]"));
  EXPECT_THAT(inspect.out, HasSubstr("node 1: XNNFullyConnected qint8[2, 8], qint8[8, 8] (constant), qint32[8] (constant) "
                                     "-> qint8[2, 8]  (XNNPACK)"));
}

TEST(XnnpackWildPrograms, AddAndClampComputeWhatTheySay) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add_path, "wild/djl-executorch-engine__spike_add.pte");
  SY_REFERENCE_PROGRAM_OR_SKIP(clamp_path, "wild/djl-executorch-engine__clamp5.pte");
  absl::StatusOr<Program> add = Program::load(add_path);
  ASSERT_TRUE(add.ok()) << add.status();
  const std::vector<Tensor> sum = wildRunForward(*add, {tensor<float>({1.5f}, {1}), tensor<float>({-4.0f}, {1})}, false);
  ASSERT_EQ(sum.size(), 1u);
  expectCloseTo(sum[0], tensor<float>({-2.5f}, {1}), 0);
  absl::StatusOr<Program> clamp = Program::load(clamp_path);
  ASSERT_TRUE(clamp.ok()) << clamp.status();
  const std::vector<Tensor> clamped = wildRunForward(*clamp, {tensor<float>({-3, -0.5f, 0, 0.25f, 9}, {5})}, false);
  ASSERT_EQ(clamped.size(), 1u);
  expectCloseTo(clamped[0], tensor<float>({-1, -0.5f, 0, 0.25f, 1}, {5}), 0);
}

TEST(XnnpackWildPrograms, ADynamicInputRunsAtEverySizeWithinItsBound) {
  // The method side of dynamic shapes is the dynamic-shape issue's; here the delegate is run
  // directly: y = x * c over x of any length up to the bound 8, c the program's 0-D constant.
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "wild/executorch-numpy-runtime__dynamic.pte");
  const std::optional<ProgramDelegate> delegate = xnnpackDelegateOf(readFile(path));
  ASSERT_TRUE(delegate.has_value());
  xnnpack::WrittenBlob blob{delegate->blob, delegate->named};
  absl::StatusOr<std::unique_ptr<BlobDelegate>> d = BlobDelegate::init(blob);
  ASSERT_TRUE(d.ok()) << d.status();
  const Tensor c = sy::full({}, 2.5);
  for (int64_t n : {8, 3, 8, 1, 5}) {
    const Tensor x = randomTensor({n}, static_cast<uint32_t>(n));
    Tensor y = sy::empty({8});
    const absl::Status s = (*d)->execute({x, c, y});
    ASSERT_TRUE(s.ok()) << s;
    expectCloseTo(y, ops::mul(x, 2.5), 1e-6);
  }
  const absl::Status too_big = (*d)->execute({randomTensor({9}, 9), c, sy::empty({8})});
  EXPECT_THAT(std::string(too_big.message()), HasSubstr("is given dims [9], past the bound [8]"));
}

// The same program through a Method: set_input takes any length up to the bound, the delegate
// gets the real sizes and get_output has them (See Note [A method's tensors change sizes within
// the memory planned for them]); the command line takes such inputs too.
TEST(XnnpackWildPrograms, TheDynamicProgramRunsAtItsBoundAndBelowItThroughAMethod) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "wild/executorch-numpy-runtime__dynamic.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  const Tensor x = randomTensor({8}, 21);
  const std::vector<Tensor> at_bound = wildRunForward(*program, {x}, false);
  ASSERT_EQ(at_bound.size(), 1u);
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  for (int64_t n : {5, 1, 8, 0, 3}) {
    absl::Status s = m->set_input(0, ops::clone(ops::slice(x, 0, 0, n)));
    ASSERT_TRUE(s.ok()) << s;
    s = m->execute();
    ASSERT_TRUE(s.ok()) << s;
    expectCloseTo(m->get_output(0).toTensor(), ops::slice(at_bound[0], 0, 0, n), 0);
  }
  const absl::Status too_long = m->set_input(0, randomTensor({9}, 22));
  EXPECT_THAT(std::string(too_long.message()), HasSubstr("input 0: dimension 0 has size 9, above its bound of 8"));

  const std::string inputs = ::testing::TempDir() + "/dynamic_inputs.json";
  std::ofstream(inputs) << R"([{"dtype": "Float", "sizes": [3], "data": [1, 2, -4]}])";
  const cli::Result r = cli::runCli("run " + path + " --inputs " + inputs);
  EXPECT_EQ(r.status, 0) << r.err;
  const double c = at_bound[0].data_ptr<float>()[0] / x.data_ptr<float>()[0];
  EXPECT_THAT(r.out, HasSubstr(sy::str("output 0: ", ops::mul(tensor<float>({1, 2, -4}, {3}), c).toString())));
}

}  // namespace
}  // namespace sy::testing
