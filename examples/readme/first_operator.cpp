// README.md, "Example": define an operator, register a kernel, a boxed fallback and a
// fallthrough, and call it unboxed and boxed. The region between the markers is the README's code
// block, character for character (tests/lint/check_readme_examples.py checks it; ./test.sh builds this).
#include <iostream>

// README: begin
#include <switchyard/switchyard.h>

// 1. Define an operator.
SY_LIBRARY(myops, m) { m.def("scale(Tensor self, float s) -> Tensor"); }

// 2. Register a CPU kernel: a plain C++ function; its signature is checked against the schema.
sy::Tensor scale_cpu(const sy::Tensor& self, double s) {
  return sy::ops::mul(self, sy::full({}, s));
}
SY_LIBRARY_IMPL(myops, CPU, m) { m.impl("scale", SY_FN(scale_cpu)); }

// 3. A boxed fallback: one function for every operator on PrivateUse1.
void my_backend_fallback(const sy::OperatorHandle& op, sy::DispatchKeySet ks, sy::Stack* stack) {
  std::cout << "running " << op.operator_name().toString() << " on the CPU\n";
  op.redispatchBoxed(ks.remove(sy::DispatchKey::PrivateUse1), stack);
}
SY_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(sy::CppFunction::makeFromBoxedFunction<&my_backend_fallback>());
}
// 4. A fallthrough: Tracer is skipped for free until someone registers kernels for it.
SY_LIBRARY_IMPL(_, Tracer, m) { m.fallback(sy::CppFunction::makeFallthrough()); }

int main() {
  // 5. Call it: unboxed through a typed handle, or boxed through a stack.
  auto op = sy::Dispatcher::singleton()
                .findSchemaOrThrow("myops::scale", "")
                .typed<sy::Tensor(const sy::Tensor&, double)>();
  sy::Tensor y = op.call(sy::ones({2, 2}), 3.0);

  sy::Stack stack{sy::ones({2}), 2.0};
  sy::Dispatcher::singleton().findSchemaOrThrow("myops::scale", "").callBoxed(&stack);

  std::cout << y << "\n" << stack[0].toTensor() << "\n";
  std::cout << op.dumpComputedTable();   // every key, its kernel's source and registration site
}
// README: end
