// docs/kernel_yaml.md's conformance example: a tiny kernel library (one partial kernel, aten::abs.out for
// 1-D Double tensors, named custom::abs_out_double) checked against the portable kernels by the
// conformance harness in one line. Built with GoogleTest's main; run by ctest.
#include <cmath>

#include <switchyard/dispatcher/partial_kernels.h>
#include <switchyard/switchyard.h>

namespace {

sy::Tensor& absOutDouble(const sy::Tensor& self, sy::Tensor& out) {
  out.resize_(self.sizes());
  for (int64_t i = 0; i < self.size(0); ++i) {
    const double x = self.data_ptr<double>()[i * self.stride(0)];
    out.data_ptr<double>()[i * out.stride(0)] = std::abs(x);
  }
  return out;
}

const sy::RegistrationHandle kAbsOutDouble = sy::PartialKernelRegistry::singleton().registerKernel(
    sy::parseOperatorName("aten::abs.out"), sy::KernelKey({{sy::ScalarType::Double, {0}}, {sy::ScalarType::Double, {0}}}),
    &absOutDouble, "custom::abs_out_double");

}  // namespace

// README: begin
#include <switchyard/conformance/conformance_test.h>
SY_KERNEL_CONFORMANCE_TEST(MyKernelsConformance, "custom::");   // kernels named custom::...
// README: end
