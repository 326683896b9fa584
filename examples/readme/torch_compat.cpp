// docs/pytorch_compat.md: an operator library, a kernel, a boxed fallback on a
// free key, and calls through the dispatcher, written as PyTorch code writes them. The region
// between the markers is the README's code block (tests/lint/check_readme_examples.py checks it;
// ./test.sh builds and runs this).
#include <cstdio>
#include <string>
#include <vector>

// README: begin
#include <switchyard/compat/torch.h>

// A kernel on raw data, and one that takes a Dict(str, Tensor).
at::Tensor scale_cpu(const at::Tensor& self, double factor) {
  TORCH_CHECK(self.scalar_type() == at::kFloat && self.is_contiguous(), "scale_cpu: a contiguous float tensor");
  at::Tensor out = at::empty(self.sizes(), at::kFloat);
  const float* in = self.data_ptr<float>();
  float* result = out.data_ptr<float>();
  for (int64_t i = 0; i < self.numel(); ++i) result[i] = in[i] * static_cast<float>(factor);
  return out;
}
at::Tensor total_cpu(c10::Dict<std::string, at::Tensor> parts) {
  double sum = 0;
  for (const auto& entry : parts) {
    const at::Tensor part = entry.value();
    for (int64_t i = 0; i < part.numel(); ++i) sum += part.data_ptr<float>()[i];
  }
  return at::full({1}, sum);
}

TORCH_LIBRARY(my_ops, m) {
  m.def("scale(Tensor self, float factor) -> Tensor");
  m.def("total", &total_cpu);  // schema inferred: my_ops::total(Dict(str, Tensor) _0) -> Tensor
}
TORCH_LIBRARY_IMPL(my_ops, CPU, m) { m.impl("scale", TORCH_FN(scale_cpu)); }

// A backend of your own goes on PrivateUse1, 2 or 3 (CUDA names no backend here): this one
// records what it sees and hands every operator on to the next key.
std::vector<std::string> seen;
void my_backend_fallback(const c10::OperatorHandle& op, c10::DispatchKeySet ks, torch::jit::Stack* stack) {
  seen.push_back(op.schema().name());
  op.redispatchBoxed(ks.remove(c10::DispatchKey::PrivateUse1), stack);
}
TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&my_backend_fallback>());
}

double run() {
  auto scale = c10::Dispatcher::singleton().findSchemaOrThrow("my_ops::scale", "");
  at::Tensor twice = scale.typed<at::Tensor(const at::Tensor&, double)>().call(at::ones({3}), 2.0);  // unboxed

  torch::jit::Stack stack;                           // boxed: arguments in, results out
  torch::jit::push(stack, twice, 0.5);
  {
    c10::impl::IncludeDispatchKeyGuard on_my_backend(c10::DispatchKey::PrivateUse1);  // every call visits it
    scale.callBoxed(&stack);
  }
  at::Tensor ones = torch::jit::pop(stack).toTensor();  // seen: my_ops::scale, then the aten::empty it calls

  c10::Dict<std::string, at::Tensor> parts;
  parts.insert("a", ones);
  parts.insert("b", twice);
  auto total = c10::Dispatcher::singleton().findSchemaOrThrow("my_ops::total", "");
  return total.typed<at::Tensor(c10::Dict<std::string, at::Tensor>)>().call(parts).item<double>();  // 3 + 6
}
// README: end

int main() {
  const double result = run();
  const std::vector<std::string> expected_seen{"my_ops::scale", "aten::empty"};
  if (result != 9.0 || seen != expected_seen) {
    std::fprintf(stderr, "torch_compat: expected 9 and two calls seen by the fallback, got %g and %zu\n", result,
                 seen.size());
    return 1;
  }
  std::printf("my_ops::total = %g; the PrivateUse1 fallback saw %s and %s\n", result, seen[0].c_str(),
              seen[1].c_str());
  return 0;
}
