// Dispatch keys and key sets through compat/torch.h, spelled as PyTorch code spells them: the
// autograd keys (real runtime keys: a kernel there runs before the backend's), BackendSelect,
// CatchAll, NumDispatchKeys, the Composite*Autograd spellings, FULL_AFTER and range-for.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <switchyard/compat/torch.h>

#include <string>
#include <vector>

namespace {

using c10::DispatchKey;
using c10::DispatchKeySet;

at::Tensor tensorWith(DispatchKeySet ks, c10::DeviceType device) {
  return at::detail::make_tensor<c10::TensorImpl>(ks, caffe2::TypeMeta::Make<float>(), c10::Device(device));
}

c10::TypedOperatorHandle<at::Tensor(const at::Tensor&)> typedOp(const char* name) {
  return c10::Dispatcher::singleton().findSchemaOrThrow(name, "").typed<at::Tensor(const at::Tensor&)>();
}

at::Tensor valued(double v) { return at::full({1}, v); }

TEST(TorchKeys, AnAutogradKernelRunsBeforeTheBackendAndReachesItBelowAutograd) {
  auto def = MAKE_TORCH_LIBRARY(compat_autograd);
  def.def("f(Tensor self) -> Tensor");
  auto backend = MAKE_TORCH_LIBRARY_IMPL(compat_autograd, PrivateUse1);
  backend.impl("f", [](const at::Tensor&) { return valued(10); });
  auto autograd = MAKE_TORCH_LIBRARY_IMPL(compat_autograd, AutogradPrivateUse1);
  autograd.impl("f", [](const at::Tensor& self) {
    at::AutoDispatchBelowAutograd guard;
    return valued(typedOp("compat_autograd::f").call(self).item<double>() + 1);
  });
  const at::Tensor t = tensorWith({DispatchKey::PrivateUse1, DispatchKey::AutogradPrivateUse1}, c10::DeviceType::PrivateUse1);
  EXPECT_EQ(typedOp("compat_autograd::f").call(t).item<double>(), 11);
  EXPECT_EQ(typedOp("compat_autograd::f").call(tensorWith(DispatchKey::PrivateUse1, c10::DeviceType::PrivateUse1)).item<double>(), 10);
}

TEST(TorchKeys, AutogradKeysSitAboveBackendsAndZeroTensorAndBelowTheModes) {
  for (DispatchKey k : {DispatchKey::AutogradCPU, DispatchKey::AutogradAccel, DispatchKey::AutogradPrivateUse1,
                        DispatchKey::AutogradPrivateUse2, DispatchKey::AutogradPrivateUse3}) {
    EXPECT_GT(k, DispatchKey::PrivateUse3);
    EXPECT_GT(k, DispatchKey::ZeroTensor);
    EXPECT_LT(k, DispatchKey::Tracer);
    EXPECT_LT(k, DispatchKey::Profiler);
  }
  EXPECT_EQ(DispatchKeySet({DispatchKey::CPU, DispatchKey::AutogradCPU}).highestPriorityTypeId(), DispatchKey::AutogradCPU);
}

TEST(TorchKeys, NoTensorCarriesAnAutogradKeyUnlessItsMakerAddsOne) {
  // A CPU tensor carries CPU and PartialKernels (see Note [Partial kernels decline for one key check]).
  EXPECT_EQ(at::ones({2}).key_set(), DispatchKeySet({DispatchKey::CPU, DispatchKey::PartialKernels}));
  EXPECT_TRUE((at::zeros({2}).key_set() & c10::autograd_dispatch_keyset).empty());
}

TEST(TorchKeys, TheAutogradAliasServesEveryAutogradKey) {
  auto def = MAKE_TORCH_LIBRARY(compat_autograd_alias);
  def.def("f(Tensor self) -> Tensor");
  def.impl("f", torch::dispatch(DispatchKey::CPU, [](const at::Tensor&) { return valued(1); }));
  def.impl("f", torch::dispatch(DispatchKey::Autograd, [](const at::Tensor&) { return valued(2); }));
  EXPECT_EQ(typedOp("compat_autograd_alias::f").call(tensorWith({DispatchKey::CPU, DispatchKey::AutogradCPU}, c10::kCPU)).item<double>(), 2);
  EXPECT_EQ(typedOp("compat_autograd_alias::f").call(at::ones({1})).item<double>(), 1);
}

TEST(TorchKeys, ACompositeImplicitAutogradKernelServesAnAutogradKeyWhoseBackendHasNoKernel) {
  auto def = MAKE_TORCH_LIBRARY(compat_composite);
  def.def("f(Tensor self) -> Tensor");
  def.def("g(Tensor self) -> Tensor");
  auto composite = MAKE_TORCH_LIBRARY_IMPL(compat_composite, CompositeImplicitAutograd);
  composite.impl("f", [](const at::Tensor&) { return valued(3); });
  composite.impl("g", [](const at::Tensor&) { return valued(3); });
  auto cpu = MAKE_TORCH_LIBRARY_IMPL(compat_composite, CPU);
  cpu.impl("g", [](const at::Tensor&) { return valued(4); });
  const at::Tensor t = tensorWith({DispatchKey::CPU, DispatchKey::AutogradCPU}, c10::kCPU);
  EXPECT_EQ(typedOp("compat_composite::f").call(t).item<double>(), 3);
  // g has a CPU kernel of its own, which the composite kernel does not differentiate: AutogradCPU
  // goes to the autograd fallback (autograd/), as it would to PyTorch's autograd kernel.
  EXPECT_THAT(typedOp("compat_composite::g").dumpComputedTable(),
              ::testing::HasSubstr("AutogradCPU: backend fallback [registered at autograd/autograd_fallback.cpp"));
  EXPECT_EQ(typedOp("compat_composite::g").call(at::ones({1})).item<double>(), 4);
}

TEST(TorchKeys, CompositeSpellingsAreOurKeys) {
  EXPECT_EQ(DispatchKey::CompositeImplicitAutograd, DispatchKey::CompositeImplicit);
  EXPECT_EQ(DispatchKey::CompositeExplicitAutograd, DispatchKey::CompositeExplicit);
  EXPECT_STREQ(c10::toString(DispatchKey::CompositeImplicitAutograd), "CompositeImplicit");
  EXPECT_EQ(sy::parseDispatchKey("CompositeExplicitAutograd"), DispatchKey::CompositeExplicit);
}

TEST(TorchKeys, ACatchAllKernelIsRegisteredAsCompositeImplicit) {
  auto def = MAKE_TORCH_LIBRARY(compat_catchall);
  def.def("f(Tensor self) -> Tensor");
  def.impl("f", c10::DispatchKey::CatchAll, [](const at::Tensor&) { return valued(5); });
  EXPECT_EQ(typedOp("compat_catchall::f").call(at::ones({1})).item<double>(), 5);
  EXPECT_THAT(typedOp("compat_catchall::f").dumpComputedTable(), ::testing::HasSubstr("CPU: alias kernel (CompositeImplicit)"));
}

TEST(TorchKeys, NumDispatchKeysCountsTheRuntimeKeys) {
  std::vector<std::string> names;
  for (uint8_t k = 0; k < static_cast<uint8_t>(DispatchKey::NumDispatchKeys); ++k) {
    names.emplace_back(c10::toString(static_cast<DispatchKey>(k)));
  }
  EXPECT_THAT(names, ::testing::Contains("AutogradPrivateUse1"));
  EXPECT_THAT(names, ::testing::Contains("BackendSelect"));
  EXPECT_THAT(names, ::testing::Not(::testing::Contains("CompositeImplicit")));
}

TEST(TorchKeys, ABackendSelectKernelRunsWhenAGuardIncludesTheKey) {
  auto def = MAKE_TORCH_LIBRARY(compat_backend_select);
  def.def("f(Tensor self) -> Tensor");
  def.impl("f", torch::dispatch(DispatchKey::CPU, [](const at::Tensor&) { return valued(1); }));
  auto select = MAKE_TORCH_LIBRARY_IMPL(compat_backend_select, BackendSelect);
  select.impl("f", [](c10::DispatchKeySet ks, const at::Tensor& self) {
    auto op = typedOp("compat_backend_select::f");
    return valued(op.redispatch(ks & DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::BackendSelect), self)
                      .item<double>() + 6);
  });
  EXPECT_EQ(typedOp("compat_backend_select::f").call(at::ones({1})).item<double>(), 1);
  c10::impl::IncludeDispatchKeyGuard guard(DispatchKey::BackendSelect);
  EXPECT_EQ(typedOp("compat_backend_select::f").call(at::ones({1})).item<double>(), 7);
}

TEST(TorchKeys, FullAfterHoldsEveryKeyOfLowerPriorityOnly) {
  const DispatchKeySet after(DispatchKeySet::FULL_AFTER, DispatchKey::AutogradCPU);
  EXPECT_TRUE(after.has(DispatchKey::CPU));
  EXPECT_TRUE(after.has(DispatchKey::ZeroTensor));
  EXPECT_FALSE(after.has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(after.has(DispatchKey::AutogradAccel));
  EXPECT_FALSE(after.has(DispatchKey::Profiler));
  const DispatchKeySet ks{DispatchKey::CPU, DispatchKey::AutogradCPU, DispatchKey::Profiler};
  EXPECT_EQ((ks & after).highestPriorityTypeId(), DispatchKey::CPU);
  EXPECT_TRUE(DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::CPU).empty());
}

TEST(TorchKeys, RangeForVisitsTheKeysFromLowestToHighest) {
  std::vector<DispatchKey> seen;
  for (DispatchKey k : DispatchKeySet({DispatchKey::Profiler, DispatchKey::CPU, DispatchKey::AutogradCPU})) {
    seen.push_back(k);
  }
  EXPECT_EQ(seen, (std::vector<DispatchKey>{DispatchKey::CPU, DispatchKey::AutogradCPU, DispatchKey::Profiler}));
  for (DispatchKey k : DispatchKeySet()) ADD_FAILURE() << "the empty set has no key, but visited " << k;
}

TEST(TorchKeys, AutogradGuardsHaveTheirPyTorchSpellings) {
  const at::Tensor x = at::ones({2}, at::kDouble);
  x.requires_grad_();
  EXPECT_TRUE(sy::ops::mul(x, x).requires_grad());
  {
    torch::NoGradGuard no_grad;
    EXPECT_FALSE(sy::ops::mul(x, x).requires_grad());
  }
  {
    c10::InferenceMode inference;
    EXPECT_FALSE(sy::ops::mul(x, x).requires_grad());
  }
  at::NoGradGuard also_no_grad;
  EXPECT_FALSE(sy::ops::mul(x, x).requires_grad());
}

}  // namespace
