// docs/export_and_delegates.md, "Delegating partitions to a backend": capture a model, lower its add/mul/sin partitions
// to BackendWithCompilerDemo, run the lowered program and emit it. The region between the markers
// is the README's code block (tests/lint/check_readme_examples.py checks it; ./test.sh builds and
// runs this).
#include <cstdio>
#include <iostream>

#include <switchyard/switchyard.h>

// README: begin
#include <switchyard/export/capture.h>
#include <switchyard/export/emit.h>
#include <switchyard/export/graph_printer.h>
#include <switchyard/export/lowering.h>
#include <switchyard/export/partitioners.h>

absl::Status lower_to_demo(const sy::Tensor& x, const sy::Tensor& w) {
  auto model = [&](const std::vector<sy::Tensor>& in) {  // a = add(x, w); s = sin(a); y = mul(relu(s), x)
    sy::export_::SourceScope scope;
    sy::Tensor s = SY_SOURCE(sy::ops::sin(sy::ops::add(in[0], w)));
    return std::vector<sy::Tensor>{SY_SOURCE(sy::ops::mul(sy::ops::relu(s), in[0]))};
  };
  sy::export_::ExportedProgram ep = sy::export_::capture(model, {x}, {{"w", w}});

  sy::export_::OperatorSupportPartitioner partitioner(     // connected groups of supported nodes
      {"BackendWithCompilerDemo", {sy::export_::CompileSpec::ofString("max_value", "4")}},
      sy::export_::OperatorSupportPartitioner::byOperatorNames({"aten::add", "aten::mul", "aten::sin"}));
  sy::export_::ExportedProgram lowered = sy::export_::to_backend(ep, partitioner);  // sy::Error if refused
  std::cout << sy::export_::toString(lowered);  // delegate call, relu, delegate call; then each partition
  std::vector<sy::Tensor> y = lowered.run({x});   // delegates run directly: init, execute, destroy
  std::cout << y[0] << "\n";
  absl::StatusOr<sy::export_::EmittedProgram> file = sy::export_::emitProgram(lowered);
  if (!file.ok()) return file.status();
  return file->save("lowered.pte");               // then: switchyard run lowered.pte --random 0
}
// README: end

int main() {
  absl::Status s = lower_to_demo(sy::ones({2, 3}), sy::full({2, 3}, 0.5));
  std::remove("lowered.pte");
  if (!s.ok()) {
    std::cerr << s << "\n";
    return 1;
  }
}
