// Runs add.pte's forward on a = [0, 1, ..., 5] and b = 10 (2x3 Float) and checks a + b. Built twice
// by this project: selectively (only aten::add.out's Float kernel registered, static runtime) and
// against libswitchyard with the custom kernel library, which must then have served the call.
#include <switchyard/ivalue/tensor_factories.h>
#include <switchyard/program/method.h>
#include <switchyard/program/program.h>

#include <cstdlib>
#include <iostream>
#include <vector>

#ifdef RUN_ADD_WITH_CUSTOM_KERNELS
namespace consumer::native {
int add_out_calls();
}
#endif

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: run_add PROGRAM.pte\n";
    return 2;
  }
  absl::StatusOr<sy::Program> program = sy::Program::load(argv[1]);
  if (!program.ok()) {
    std::cerr << program.status() << "\n";
    return 1;
  }
  absl::StatusOr<sy::Method> method = program->load_method("forward");
  if (!method.ok()) {
    std::cerr << method.status() << "\n";
    return 1;
  }
  sy::Tensor a = sy::tensor(std::vector<float>{0, 1, 2, 3, 4, 5}, {2, 3});
  sy::Tensor b = sy::full({2, 3}, 10.0);
  for (absl::Status s : {method->set_input(0, a), method->set_input(1, b), method->execute()}) {
    if (!s.ok()) {
      std::cerr << s << "\n";
      return 1;
    }
  }
  const sy::Tensor out = method->get_output(0).toTensor();
  bool ok = out.numel() == 6;
  std::cout << "forward(a, b) =";
  for (int64_t i = 0; ok && i < 6; ++i) {
    const float v = out.data_ptr<float>()[i];
    std::cout << " " << v;
    ok = v == static_cast<float>(i) + 10.0f;
  }
  std::cout << "\n";
#ifdef RUN_ADD_WITH_CUSTOM_KERNELS
  std::cout << "consumer::native::add_out ran " << consumer::native::add_out_calls() << " time(s)\n";
  ok = ok && consumer::native::add_out_calls() == 1;
#endif
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
