// Training programs: methods that compute a loss, the gradients of their parameters, and return
// both, as ExecuTorch's exporter writes them for on-device training.
//
//   sy::Program program = *sy::Program::load("train.pte");
//   sy::TrainingLayout layout = *sy::trainingLayout(program, "forward");   // names, where outputs start
//   sy::Method forward = *program.load_method("forward");
//   sy::SGD sgd(/*learning_rate=*/0.1);
//   for (int step = 0; step < 100; ++step) {
//     forward.set_input(0, x); forward.set_input(1, y);                   // this step's batch
//     forward.execute();                                                    // loss, gradients
//     sgd.step(sy::namedParameters(forward, layout), sy::namedGradients(forward, layout));
//   }
//
// `switchyard run` prints a training program's outputs with these names.
//
// Note [Training state lives in the method's memory]
// A training program's parameters are mutable tensors: planned values whose initial contents the
// file stores (Program.mutable_data_segments), copied in when the method loads. The method
// returns them as outputs after its user outputs and the gradients, and three methods beside it
// say where: __et_training_gradients_index_<method> returns the output index of the first gradient,
// __et_training_parameters_index_<method> that of the first parameter, and
// __et_training_fqn_<method> the parameters' names (which also name the gradients, in the same
// order). The parameter outputs are the method's own tensors, in planned memory that the exporter
// gives no other value (a mutable buffer lives for the whole method), so an optimizer that updates
// them in place changes what the next execute reads: the state is carried from one execute to the
// next by the method itself, with nothing to copy. Gradients are outputs like any other and are
// overwritten by the next execute. Inputs, on the other hand, may share their bytes with later
// values: See Note [Inputs whose memory the plan reuses are restored before each execute].
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/program/method.h"
#include "switchyard/program/program.h"

namespace sy {

// See Note [Training state lives in the method's memory].
struct TrainingLayout {
  std::string method;
  std::vector<std::string> names;  // the parameters' fully qualified names, in output order
  size_t gradients_start = 0;      // the output index of the first gradient (= the number of user outputs)
  size_t parameters_start = 0;     // the output index of the first parameter
};

// Where `method`'s gradients and parameters are among its outputs, from the program's
// __et_training_* methods. NotFound when the program is not a training program for `method`;
// InvalidArgument, naming the method, when the three disagree with each other or with the
// method's outputs.
absl::StatusOr<TrainingLayout> trainingLayout(const Program& program, std::string_view method);

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// After execute: the parameters, which are the method's state (writing them changes what the
// next execute reads), and the gradients of the last execute, by name in the layout's order.
NamedTensors namedParameters(const Method& method, const TrainingLayout& layout);
NamedTensors namedGradients(const Method& method, const TrainingLayout& layout);

// Stochastic gradient descent, as torch.optim.SGD (without Nesterov): for each parameter p with
// gradient g, g += weight_decay * p; with momentum, b = momentum * b + (1 - dampening) * g (b = g
// at the first step) and g = b; then p -= learning_rate * g, in place.
class SGD {
 public:
  struct Options {
    double learning_rate = 0.01;
    double momentum = 0;
    double dampening = 0;
    double weight_decay = 0;
  };
  explicit SGD(double learning_rate) : SGD(Options{learning_rate}) {}
  explicit SGD(Options options) : options_(options) {}

  // One step over `parameters` with `gradients`, matched by name; an error names a parameter
  // without a gradient or of another shape.
  absl::Status step(const NamedTensors& parameters, const NamedTensors& gradients);

 private:
  Options options_;
  std::map<std::string, Tensor, std::less<>> momentum_;
};

}  // namespace sy
