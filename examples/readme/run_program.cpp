// docs/programs.md: run a program's method with sy::Module, as ExecuTorch's extension/module runs it.
// The region between the markers is the README's code block (tests/lint/check_readme_examples.py
// checks it; ./test.sh builds this).
#include <iostream>

#include <switchyard/ivalue/tensor_factories.h>

// README: begin
#include <switchyard/program/module.h>

absl::StatusOr<sy::Tensor> run_model(const std::string& path, const std::vector<std::string>& data_files,
                                     const sy::Tensor& x) {
  sy::Module module(path, {.data_files = data_files});                    // read on first use, verified
  absl::StatusOr<sy::MethodMeta> meta = module.method_meta("forward");    // dtype, sizes, dynamism, bounds
  if (!meta.ok()) return meta.status();
  std::cout << "forward takes " << sy::toString(meta->inputs[0]) << "\n";  // "Float[<=8] dynamic (bounded)"
  absl::StatusOr<std::vector<sy::IValue>> out = module.forward({x});      // loaded once and kept, then run
  if (!out.ok()) return out.status();                                     // every error names file, method, value
  return (*out)[0].toTensor();                                            // a view into the method's memory
}
// README: end

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: run_program MODEL.pte [DATA.ptd...] (a model with one Float[1] input)\n";
    return 2;
  }
  absl::StatusOr<sy::Tensor> y = run_model(argv[1], std::vector<std::string>(argv + 2, argv + argc), sy::ones({1}));
  if (!y.ok()) {
    std::cerr << y.status() << "\n";
    return 1;
  }
  std::cout << *y << "\n";
}
