// docs/programs.md: the lower-level API under sy::Module: load a program, load a method, set its
// input, run it, read its output. The region between the markers is the README's code block (tests/lint/check_readme_examples.py checks
// it; ./test.sh builds this).
#include <iostream>

#include <switchyard/ivalue/tensor_factories.h>

// README: begin
#include <switchyard/program/program.h>

absl::StatusOr<sy::Tensor> run_model(const std::string& path, const sy::Tensor& x) {
  absl::StatusOr<sy::Program> program = sy::Program::load(path);         // verified, bounds-checked
  if (!program.ok()) return program.status();
  absl::StatusOr<sy::MethodMeta> meta = program->method_meta("forward");  // inputs, operators, delegates, memory
  absl::StatusOr<sy::Method> forward = program->load_method("forward");   // operators resolved, delegates initialised
  if (!forward.ok()) return forward.status();
  if (absl::Status s = forward->set_input(0, x); !s.ok()) return s;       // dtype and shape checked, copied
  if (absl::Status s = forward->execute(); !s.ok()) return s;             // allocates nothing for bounded shapes
  return forward->get_output(0).toTensor();                               // a view into the method's memory
}
// README: end

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: program_method MODEL.pte (a model with one Float[1] input)\n";
    return 2;
  }
  absl::StatusOr<sy::Tensor> y = run_model(argv[1], sy::ones({1}));
  if (!y.ok()) {
    std::cerr << y.status() << "\n";
    return 1;
  }
  std::cout << *y << "\n";
}
