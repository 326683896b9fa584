// PyTorch's own backend-fallback example compiles and works unchanged through compat/torch.h,
// once MyBackendKey and MyOtherKey name keys Switchyard has. Built as its own test binary because
// its TORCH_LIBRARY_IMPL blocks register fallbacks for the whole process.
#include <gtest/gtest.h>

#include <switchyard/compat/torch.h>

#define MyBackendKey PrivateUse1
#define MyOtherKey PrivateUse2

using namespace c10;  // as PyTorch's own sources are, inside namespace at/c10

// ---- Verbatim from PyTorch's note on backend fallbacks ------------------------------------------
void backend_fallback(const c10::OperatorHandle& op, DispatchKeySet dispatch_keys, torch::jit::Stack* stack) {
  op.redispatchBoxed(dispatch_keys.remove(DispatchKey::MyBackendKey), stack);
}
TORCH_LIBRARY_IMPL(_, MyBackendKey, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&backend_fallback>());
}
TORCH_LIBRARY_IMPL(_, MyOtherKey, m) { m.fallback(torch::CppFunction::makeFallthrough()); }
// -------------------------------------------------------------------------------------------------

// ---- Verbatim from out-of-tree PrivateUse1 backends: autograd passes through to the backend -----
TORCH_LIBRARY_IMPL(_, AutogradPrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}
// -------------------------------------------------------------------------------------------------

namespace {

at::Tensor twice(const at::Tensor& self) { return at::full({1}, self.item<double>() * 2); }

TORCH_LIBRARY(compat_test, m) { m.def("twice(Tensor self) -> Tensor"); }
TORCH_LIBRARY_IMPL(compat_test, CPU, m) { m.impl("twice", TORCH_FN(twice)); }

at::Tensor withKeys(DispatchKeySet ks) {
  at::Tensor t = at::ones({1});
  t.unsafeGetTensorImpl()->set_key_set(ks);
  return t;
}

TEST(TorchCompat, BackendFallbackRedispatchesToTheCpuKernel) {
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("compat_test::twice", "").typed<at::Tensor(const at::Tensor&)>();
  EXPECT_EQ(op.call(withKeys({DispatchKey::CPU, DispatchKey::PrivateUse1})).item<double>(), 2);
}

TEST(TorchCompat, FallthroughKeyIsSkippedForFree) {
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("compat_test::twice", "").typed<at::Tensor(const at::Tensor&)>();
  EXPECT_FALSE(op.entry().nonFallthroughKeys().has(DispatchKey::PrivateUse2));
  EXPECT_EQ(op.call(withKeys({DispatchKey::CPU, DispatchKey::PrivateUse2})).item<double>(), 2);
}

TEST(TorchCompat, BoxedCallThroughTheFallbackWorks) {
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("compat_test::twice", "");
  torch::jit::Stack stack;
  torch::jit::push(stack, withKeys({DispatchKey::CPU, DispatchKey::PrivateUse1}));
  op.callBoxed(&stack);
  EXPECT_EQ(torch::jit::pop(stack).toTensor().item<double>(), 2);
}

TEST(TorchCompat, ABackendsAutogradFallthroughReplacesTheLibrarysRecorder) {
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("compat_test::twice", "");
  EXPECT_FALSE(op.entry().nonFallthroughKeys().has(DispatchKey::AutogradPrivateUse1));
  EXPECT_NE(op.dumpComputedTable().find("  AutogradPrivateUse1: backend fallback (fallthrough) [registered at "),
            std::string::npos);
  EXPECT_NE(op.dumpComputedTable().find("(a backend's own, replacing the library's default registered at "
                                        "autograd/autograd_fallback.cpp:"),
            std::string::npos);
  // A call carrying the autograd key goes straight on to the backend's fallback, then the CPU kernel.
  auto typed = op.typed<at::Tensor(const at::Tensor&)>();
  EXPECT_EQ(typed.call(withKeys({DispatchKey::CPU, DispatchKey::PrivateUse1, DispatchKey::AutogradPrivateUse1})).item<double>(), 2);
}

TEST(TorchCompat, TorchCheckRaisesC10Error) {
  EXPECT_THROW(TORCH_CHECK(1 == 2, "one is not two"), c10::Error);
}

}  // namespace
