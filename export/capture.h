// Capture: turns a model written as plain C++ calls through the dispatcher (sy::ops::...) into an
// ExportedProgram, by recording every operator call with the Tracer key's boxed fallback while
// the model runs once on example inputs.
//
//   struct Mlp { sy::Tensor w1, b1, w2, b2; ... };
//   sy::export_::ExportedProgram ep = sy::export_::capture(
//       [&](const std::vector<sy::Tensor>& in) { return std::vector<sy::Tensor>{mlp.forward(in[0])}; },
//       /*example_inputs=*/{x},
//       /*parameters=*/{{"fc1.weight", mlp.w1}, {"fc1.bias", mlp.b1}, ...});
//
// or, step by step, with the model's code in between:
//
//   sy::export_::Capture c({{"fc1.weight", w1}, ...});
//   sy::Tensor in = c.input("x", x);
//   sy::Tensor out = mlp.forward(in);        // runs for real, and is recorded
//   sy::export_::ExportedProgram ep = c.finish({out});
//
// What becomes what (See Note [Capture functionalises what it records]):
// - an example input is a user-input placeholder; a parameter a parameter placeholder, its tensor
//   kept in the program's state under its name;
// - any other tensor an operator reads (made by sy::tensor(), or by operators that read nothing
//   the graph computes) is lifted, at that moment, into a constant placeholder holding a copy;
// - every operator call that reads an input, a parameter or a value the graph computes is one
//   call_function node; the call also runs, so the model computes its real results;
// - CompositeImplicit operators (conv2d, layer_norm) are recorded as the operators they call.
//
// Errors are sy::Error exceptions raised from the operator call that caused them, naming it:
// a write to an input or parameter, a write through one of several views of one tensor, an
// in-place or out= operator with no functional form, a result that is not a tensor, a second
// capture on the same thread, and a Tracer fallback someone else has registered.
//
// A capture is active on the thread that made it, from construction to finish() or destruction;
// other threads' calls are not recorded.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "switchyard/export/exported_program.h"
#include "switchyard/export/source_scope.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::export_ {

struct NamedTensor {
  std::string name;
  Tensor tensor;
};

class Capture {
 public:
  // Starts recording on this thread. `parameters` are the tensors the model reads as its weights;
  // their names must be unique and non-empty, their tensors distinct.
  explicit Capture(std::vector<NamedTensor> parameters = {}, const char* file = __builtin_FILE(),
                   uint32_t line = __builtin_LINE(), const char* function = __builtin_FUNCTION());
  ~Capture();
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;

  // Declares the next user input; returns `example` itself, for the model to read.
  const Tensor& input(std::string name, const Tensor& example);
  // Stops recording; `outputs` are the model's results, in order.
  ExportedProgram finish(const std::vector<Tensor>& outputs);

  struct State;  // the recording (capture.cpp)

 private:
  std::unique_ptr<State> state_;
};

using Model = std::function<std::vector<Tensor>(const std::vector<Tensor>& inputs)>;

// Runs `model` once on `example_inputs` (named input_0, input_1, ... unless `input_names` says
// otherwise) and returns what it recorded.
ExportedProgram capture(const Model& model, const std::vector<Tensor>& example_inputs,
                        std::vector<NamedTensor> parameters = {}, std::vector<std::string> input_names = {},
                        const char* file = __builtin_FILE(), uint32_t line = __builtin_LINE(),
                        const char* function = __builtin_FUNCTION());

// A dimension of an example input whose size changes from run to run (torch.export's Dim): from
// `min` up to the example's size in that dimension, which is its bound.
struct DynamicDim {
  size_t input = 0;  // which example input
  int64_t dim = 0;   // which of its dimensions
  int64_t min = 1;   // the smallest size it takes
};

// capture() with dynamic dimensions: the program takes inputs whose dynamic dimensions are any
// size from `min` to the example's, and every value computed from them is marked dynamic, with
// its size at the examples as its bound (See Note [Dynamic dimensions are found by capturing
// twice] in capture_dynamic.cpp). Raises sy::Error naming the node when the model computes
// something from a dynamic size that a program cannot express (an argument other than the sizes
// of a view or expand), or when a value grows as an input shrinks.
ExportedProgram captureDynamic(const Model& model, const std::vector<Tensor>& example_inputs,
                               const std::vector<DynamicDim>& dynamic_dims, std::vector<NamedTensor> parameters = {},
                               std::vector<std::string> input_names = {}, const char* file = __builtin_FILE(),
                               uint32_t line = __builtin_LINE(), const char* function = __builtin_FUNCTION());

}  // namespace sy::export_
