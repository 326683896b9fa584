// The main demo (./run.sh): one boxed fallback serving every operator, a fallthrough that costs
// nothing, and a mode that sees nested calls, each shown with the dispatch table behind it.
#include <iostream>
#include <string>

#include "switchyard/switchyard.h"

namespace {

using sy::DispatchKey;
using sy::DispatchKeySet;
using sy::Library;
using sy::OperatorHandle;
using sy::Stack;
using sy::Tensor;

// A backend fallback: one boxed function for every operator. It logs, then continues with the
// next key below its own (here, the CPU kernels).
void logAndRedispatch(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  std::cout << "    [PrivateUse1 fallback] " << op.operator_name().toString() << " -> redispatch to "
            << ks.remove(DispatchKey::PrivateUse1).highestPriorityTypeId() << "\n";
  op.redispatchBoxed(ks.remove(DispatchKey::PrivateUse1), stack);
}

// A mode: intercepts every operator while its key is in the thread-local included set, nested
// calls included (a functional op allocates its result through aten::empty).
void traceMode(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  std::cout << "    [mode] " << op.operator_name().toString() << "\n";
  op.redispatchBoxed(ks.remove(DispatchKey::TESTING_ONLY_GenericMode), stack);
}

// A copy of `t` that also carries `key` (key sets belong to the TensorImpl, so copy first).
Tensor withExtraKey(const Tensor& t, DispatchKey key) {
  Tensor copy = sy::empty(t.sizes(), t.dtype());
  copy.copy_(t);
  copy.unsafeGetTensorImpl()->set_key_set(copy.key_set().add(key));
  return copy;
}

void section(const std::string& title) { std::cout << "\n== " << title << "\n"; }

}  // namespace

int main() {
  std::cout << "Switchyard: an operator dispatcher that backends plug into.\n";
  Tensor a = sy::arange(0, 4, 1, sy::TensorOptions(sy::ScalarType::Float));
  Tensor b = sy::full({4}, 10.0);

  section("1. A CPU kernel, reached through the dispatcher");
  std::cout << "  add(" << a << ", " << b << ")\n    = " << sy::ops::add(a, b) << "\n";

  section("2. One boxed fallback for every operator on PrivateUse1");
  {
    Library fallback(Library::Impl, "_", DispatchKey::PrivateUse1);
    fallback.fallback(sy::CppFunction::makeFromBoxedFunction<&logAndRedispatch>());
    Tensor x = withExtraKey(a, DispatchKey::PrivateUse1);
    std::cout << "  add:\n";
    Tensor sum = sy::ops::add(x, b);
    std::cout << "  sin:\n";
    Tensor s = sy::ops::sin(x);
    std::cout << "  results: " << sum << ", " << s << "\n";
    std::cout << "  the table of aten::add.Tensor now reads:\n";
    std::cout << sy::Dispatcher::singleton().findSchemaOrThrow("aten::add", "Tensor").dumpComputedTable();
  }
  std::cout << "  (the fallback's Library is gone, so is its registration)\n";

  section("3. A fallthrough on Tracer: skipped at zero cost");
  {
    Library fallthrough(Library::Impl, "_", DispatchKey::Tracer);
    fallthrough.fallback(sy::CppFunction::makeFallthrough());
    Tensor traced = withExtraKey(a, DispatchKey::Tracer);
    std::cout << "  mul(traced, traced) = " << sy::ops::mul(traced, traced) << "\n";
    auto op = sy::Dispatcher::singleton().findSchemaOrThrow("aten::mul", "Tensor");
    std::cout << "  nonFallthroughKeys of aten::mul.Tensor: " << op.entry().nonFallthroughKeys()
              << "\n  (Tracer's bit is cleared, so every call skips it with the AND it already does)\n";
  }

  section("4. A mode key in the thread-local included set sees nested calls");
  {
    Library mode(Library::Impl, "_", DispatchKey::TESTING_ONLY_GenericMode);
    mode.fallback(sy::CppFunction::makeFromBoxedFunction<&traceMode>());
    sy::IncludeDispatchKeyGuard on(DispatchKey::TESTING_ONLY_GenericMode);
    std::cout << "  acos(zeros) dispatches twice:\n";
    Tensor r = sy::ops::acos(sy::zeros({2}));
    std::cout << "  = " << r << "\n";
  }

  section("5. Errors say what is missing and what is registered");
  try {
    sy::ops::sin(withExtraKey(a, DispatchKey::PrivateUse2));
  } catch (const sy::Error& e) {
    std::cout << e.what();
  }
  return 0;
}
