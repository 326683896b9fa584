// Training programs as ExecuTorch exports them (See Note [Training state lives in the method's
// memory]): the __et_training_* methods name the gradients and parameters among forward's
// outputs, the parameters are the method's own state from one execute to the next, and a few steps
// of SGD on the published programs lower their loss.
#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "program/program_test_support.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/program.h"
#include "switchyard/program/training.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct XorTraining {
  Program program;
  MethodOptions options;
};

std::optional<XorTraining> loadXorTraining() {
  absl::StatusOr<Program> program = Program::load(testing::referenceProgram("xor_training.pte"));
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::load(testing::referenceProgram("xor.ptd"));
  EXPECT_TRUE(program.ok()) << program.status();
  EXPECT_TRUE(data.ok()) << data.status();
  if (!program.ok() || !data.ok()) return std::nullopt;
  MethodOptions options;
  options.data_files = {*data};
  return XorTraining{std::move(*program), options};
}

TEST(Training, XorTrainingNamesItsParametersAndGradients) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor_training.pte");
  SY_REFERENCE_PROGRAM_OR_SKIP(data_path, "xor.ptd");
  std::optional<XorTraining> xor_training = loadXorTraining();
  ASSERT_TRUE(xor_training);
  absl::StatusOr<TrainingLayout> layout = trainingLayout(xor_training->program, "forward");
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(layout->names, ElementsAre("net.linear.weight", "net.linear.bias", "net.linear2.weight", "net.linear2.bias"));
  EXPECT_EQ(layout->gradients_start, 2u);
  EXPECT_EQ(layout->parameters_start, 6u);
  absl::StatusOr<Method> forward = xor_training->program.load_method("forward", xor_training->options);
  ASSERT_TRUE(forward.ok()) << forward.status();
  ASSERT_TRUE(forward->set_input(0, tensor(std::vector<float>{1, 0}, {1, 2})).ok());
  ASSERT_TRUE(forward->set_input(1, tensor(std::vector<int64_t>{1}, {1})).ok());
  ASSERT_TRUE(forward->execute().ok());
  const NamedTensors parameters = namedParameters(*forward, *layout);
  const NamedTensors gradients = namedGradients(*forward, *layout);
  ASSERT_EQ(parameters.size(), 4u);
  ASSERT_EQ(gradients.size(), 4u);
  const DataFile::Entry* initial = xor_training->options.data_files[0]->find("net.linear.weight");
  ASSERT_NE(initial, nullptr);
  EXPECT_EQ(parameters[0].first, "net.linear.weight");
  EXPECT_EQ(std::memcmp(parameters[0].second.data_ptr(), initial->bytes.data(), 80), 0);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(gradients[i].first, parameters[i].first);
    EXPECT_EQ(gradients[i].second.sizes(), parameters[i].second.sizes()) << parameters[i].first;
  }
}

float xorLoss(Method& forward, float a, float b) {
  const int64_t label = (a != b) ? 1 : 0;
  EXPECT_TRUE(forward.set_input(0, tensor(std::vector<float>{a, b}, {1, 2})).ok());
  EXPECT_TRUE(forward.set_input(1, tensor(std::vector<int64_t>{label}, {1})).ok());
  const absl::Status s = forward.execute();
  EXPECT_TRUE(s.ok()) << s;
  return forward.get_output(0).toTensor().item<float>();
}

TEST(Training, XorTrainingLearnsXorWithSgd) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor_training.pte");
  SY_REFERENCE_PROGRAM_OR_SKIP(data_path, "xor.ptd");
  std::optional<XorTraining> xor_training = loadXorTraining();
  ASSERT_TRUE(xor_training);
  absl::StatusOr<TrainingLayout> layout = trainingLayout(xor_training->program, "forward");
  ASSERT_TRUE(layout.ok()) << layout.status();
  absl::StatusOr<Method> forward = xor_training->program.load_method("forward", xor_training->options);
  ASSERT_TRUE(forward.ok()) << forward.status();
  const float samples[4][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  auto epochLoss = [&](SGD* sgd) {
    float total = 0;
    for (const auto& s : samples) {
      total += xorLoss(*forward, s[0], s[1]);
      if (sgd != nullptr) {
        const absl::Status step = sgd->step(namedParameters(*forward, *layout), namedGradients(*forward, *layout));
        EXPECT_TRUE(step.ok()) << step;
      }
    }
    return total / 4;
  };
  const float before = epochLoss(nullptr);
  SGD sgd(0.5);
  for (int epoch = 0; epoch < 300; ++epoch) epochLoss(&sgd);
  const float after = epochLoss(nullptr);
  EXPECT_LT(after, before / 4);
}

// The ECG filter's training program (one linear layer, tanh, a squared error): its loss on one
// fixed input falls step after step, the state carried from one execute to the next. It squares
// its error with aten::pow.Tensor_Scalar_out, the portable kernel's.
TEST(Training, ThePublishedDnfProgramTrainsOnAFixedInput) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "wild/dnf_executorch__dnf_executorch.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<TrainingLayout> layout = trainingLayout(*program, "forward");
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(layout->names, ElementsAre("net.seq.Layer0.weight", "net.seq.Layer0.bias"));
  absl::StatusOr<Method> forward = program->load_method("forward");
  ASSERT_TRUE(forward.ok()) << forward.status();
  std::vector<float> x(50);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.3f * static_cast<float>(i));
  const Tensor input = tensor(x, {1, 50}), target = tensor(std::vector<float>{0.5f}, {1});
  SGD sgd(0.05);
  std::vector<float> losses;
  for (int step = 0; step < 20; ++step) {
    ASSERT_TRUE(forward->set_input(0, input).ok());
    ASSERT_TRUE(forward->set_input(1, target).ok());
    const absl::Status s = forward->execute();
    ASSERT_TRUE(s.ok()) << s;
    losses.push_back(forward->get_output(0).toTensor().item<float>());
    ASSERT_TRUE(sgd.step(namedParameters(*forward, *layout), namedGradients(*forward, *layout)).ok());
  }
  for (size_t i = 1; i < losses.size(); ++i) EXPECT_LT(losses[i], losses[i - 1]) << "step " << i;
}

TEST(Training, AProgramWithoutTrainingMethodsSaysSo) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "add.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<TrainingLayout> layout = trainingLayout(*program, "forward");
  EXPECT_EQ(layout.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(layout.status().message(), HasSubstr("is not a training program for method 'forward' (it lacks "
                                                   "__et_training_gradients_index_forward)"));
}

TEST(Training, SgdNamesAParameterWithoutAGradient) {
  SGD sgd(0.1);
  const absl::Status s = sgd.step({{"w", sy::full({2}, 1.0)}}, {{"b", sy::full({2}, 1.0)}});
  EXPECT_THAT(s.message(), HasSubstr("SGD: parameter 'w' has no gradient"));
  Tensor w = sy::full({2}, 1.0);
  ASSERT_TRUE(sgd.step({{"w", w}}, {{"w", sy::full({2}, 2.0)}}).ok());
  EXPECT_EQ(testing::valuesOf<float>(w), (std::vector<float>{0.8f, 0.8f}));
}

}  // namespace
}  // namespace sy
