// Defines an operator, registers a CPU kernel and a fallthrough through both the Switchyard and
// the PyTorch spellings, calls it, and exits non-zero if anything is off.
#include <switchyard/compat/torch.h>
#include <switchyard/dispatcher/partial_kernels.h>
#include <switchyard/switchyard.h>

#include <cmath>
#include <iostream>
#include <string>

namespace {

sy::Tensor scale(const sy::Tensor& self, double s) { return sy::full({1}, self.item<double>() * s); }

SY_LIBRARY(consumer, m) { m.def("scale(Tensor self, float s) -> Tensor"); }
TORCH_LIBRARY_IMPL(consumer, CPU, m) { m.impl("scale", TORCH_FN(scale)); }
SY_LIBRARY_IMPL(_, Tracer, m) { m.fallback(sy::CppFunction::makeFallthrough()); }

}  // namespace

int main() {
  auto op = sy::Dispatcher::singleton().findSchemaOrThrow("consumer::scale", "").typed<sy::Tensor(const sy::Tensor&, double)>();
  sy::Tensor x = sy::full({1}, 3.0);
  x.unsafeGetTensorImpl()->set_key_set({sy::DispatchKey::CPU, sy::DispatchKey::Tracer});
  double result = op.call(x, 2.0).item<double>();
  sy::Tensor y = sy::ops::add(sy::ones({2}), sy::ones({2}));
  std::cout << "consumer: scale(3, 2) = " << result << ", ones + ones = " << y << "\n";
  bool ok = result == 6.0 && sy::allclose(y, sy::full({2}, 2.0));
  // Linking switchyard::switchyard brings the optimized kernels when the package has them, and
  // switchyard::portable never does: a contiguous Float exp.out resolves to a partial kernel of the
  // optimized library, or to none.
  const auto exp_out = sy::PartialKernelRegistry::singleton().resolve(
      sy::parseOperatorName("aten::exp.out"), {sy::TensorMeta{sy::ScalarType::Float, {0}}, sy::TensorMeta{sy::ScalarType::Float, {0}}});
  std::cout << "consumer (" << CONSUMER_LINKS << "): aten::exp.out on 1-D Float runs "
            << (exp_out.ok() ? (*exp_out)->kernel_name : "the portable kernel (" + std::string(exp_out.status().message()) + ")")
            << "\n";
  if (CONSUMER_EXPECTS_OPTIMIZED) {
    ok = ok && exp_out.ok() && (*exp_out)->kernel_name.rfind("sy::optimized::", 0) == 0;
  } else {
    ok = ok && !exp_out.ok();
  }
  ok = ok && std::abs(sy::ops::exp(sy::full({1}, 1.0)).item<double>() - std::exp(1.0)) < 1e-6;
  return ok ? 0 : 1;
}
