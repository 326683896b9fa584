// Writes add.pte: a + b on two 2x3 Float tensors, captured from C++ and emitted with the package's
// export API. The consumer's build runs it, so the program exists wherever the project is built.
//
//   write_add_program add.pte
#include <switchyard/export/capture.h>
#include <switchyard/export/emit.h>
#include <switchyard/switchyard.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_add_program OUT.pte\n";
    return 2;
  }
  const sy::Tensor a = sy::ones({2, 3});
  const sy::Tensor b = sy::full({2, 3}, 2.0);
  const sy::export_::ExportedProgram ep = sy::export_::capture(
      [](const std::vector<sy::Tensor>& in) { return std::vector<sy::Tensor>{sy::ops::add(in[0], in[1])}; }, {a, b});
  absl::StatusOr<sy::export_::EmittedProgram> file = sy::export_::emitProgram(ep);
  absl::Status saved = file.ok() ? file->save(argv[1]) : file.status();
  if (!saved.ok()) {
    std::cerr << "write_add_program: " << saved << "\n";
    return 1;
  }
  return 0;
}
