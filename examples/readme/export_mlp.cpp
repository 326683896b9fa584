// docs/export_and_delegates.md: capture an MLP, print its graph, emit a program
// file. The region between the markers is the README's code block (tests/lint/check_readme_examples.py
// checks it; ./test.sh builds and runs this).
#include <cstdio>
#include <iostream>

#include <switchyard/switchyard.h>

sy::Tensor w1 = sy::full({8, 4}, 0.1), b1 = sy::zeros({8}), w2 = sy::full({3, 8}, -0.2), b2 = sy::zeros({3});

// README: begin
#include <switchyard/export/capture.h>
#include <switchyard/export/emit.h>
#include <switchyard/export/graph_printer.h>

sy::Tensor forward(const sy::Tensor& x) {                 // weights w1, b1, w2, b2 live elsewhere
  sy::export_::SourceScope scope;                         // nodes remember this function ...
  sy::Tensor h = SY_SOURCE(sy::ops::relu(sy::ops::linear(x, w1, b1)));  // ... and this line
  return SY_SOURCE(sy::ops::softmax(sy::ops::linear(h, w2, b2), -1));
}

absl::Status export_mlp(const sy::Tensor& x) {
  sy::export_::ExportedProgram ep = sy::export_::capture(
      [](const std::vector<sy::Tensor>& in) { return std::vector<sy::Tensor>{forward(in[0])}; },
      /*example_inputs=*/{x}, /*parameters=*/{{"fc1.weight", w1}, {"fc1.bias", b1}, {"fc2.weight", w2}, {"fc2.bias", b2}});
  std::cout << ep.graph();                                // one line per node, with its source line
  std::cout << sy::export_::inspect_node(ep.graph(), "relu");  // an arrow at the node, its metadata and stack
  absl::StatusOr<sy::export_::EmittedProgram> file = sy::export_::emitProgram({{"forward", &ep}});
  if (!file.ok()) return file.status();
  return file->save("mlp.pte");                           // then: switchyard run mlp.pte --random 0
}
// README: end

int main() {
  absl::Status s = export_mlp(sy::ones({2, 4}));
  std::remove("mlp.pte");
  if (!s.ok()) {
    std::cerr << s << "\n";
    return 1;
  }
}
