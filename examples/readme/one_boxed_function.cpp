// docs/dispatching.md and docs/profiling.md: the profiler (with its timeline), a backend's
// "unsupported operator" fallback and zero tensors. The region between the markers is the README's
// code block (tests/lint/check_readme_examples.py checks it; ./test.sh builds and runs this).
#include <iostream>

// README: begin
#include <switchyard/backends/devices/zero/zero_tensor.h>
#include <switchyard/fallback/profiler.h>
#include <switchyard/fallback/unsupported_operator_fallback.h>
#include <switchyard/switchyard.h>

// fallback/unsupported_operator_fallback.h: "MyBackend does not implement aten::sin; supported: ..."
SY_LIBRARY_IMPL(_, PrivateUse1, m) { m.fallback(sy::makeUnsupportedOperatorFallback("MyBackend")); }

void profile_a_convolution(const sy::Tensor& x, const sy::Tensor& w) {
  sy::Profile profile;                            // fallback/profiler.h: times every operator, nested
  sy::Tensor y = sy::ops::conv2d(x, w);
  std::cout << profile.stop().table();            // calls, total and self time per operator
  absl::Status saved = profile.export_chrome_trace("conv2d_trace.json");  // a timeline for ui.perfetto.dev
}

sy::Tensor multiply_by_zeros(const sy::Tensor& a) {
  sy::Tensor z = sy::zero_tensor({a.size(1), 8});   // backends/devices/zero: no storage; mul/mm/add exploit it
  return sy::ops::mm(a, z);                         // zeros, without reading `a`
}
// README: end

int main() {
  profile_a_convolution(sy::ones({1, 3, 8, 8}), sy::ones({4, 3, 3, 3}));
  std::cout << multiply_by_zeros(sy::ones({2, 5})) << "\n";
  std::remove("conv2d_trace.json");
}
