// Registration through compat/torch.h, spelled as PyTorch code spells it: m.def with an inferred
// schema, three-argument m.impl, torch::dispatch on a device type, MAKE_TORCH_LIBRARY(_IMPL),
// factories that dispatch, several outputs without alias annotations, error texts that name
// PyTorch's macros, and device types that have no backend here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <switchyard/compat/torch.h>

#include <string>
#include <tuple>
#include <vector>

namespace {

using c10::DispatchKey;
using ::testing::HasSubstr;

template <class Fn>
std::string errorOf(Fn&& fn) {
  try {
    fn();
  } catch (const c10::Error& e) {
    return e.what();
  }
  return "(no error)";
}

at::Tensor plusN(const at::Tensor& self, int64_t n) { return at::full({1}, self.item<double>() + n); }
at::Tensor negated(const at::Tensor& self) { return at::full({1}, -self.item<double>()); }

c10::OperatorHandle compatHandle(const char* name) { return c10::Dispatcher::singleton().findSchemaOrThrow(name, ""); }

TEST(TorchRegistration, LibraryKindsKeepTorchLibrarysSpellings) {
  // Our spelling is Library::Def / Fragment / Impl (enumerators are PascalCase throughout);
  // torch::Library code names them DEF / FRAGMENT / IMPL, and both name the same kind.
  static_assert(torch::Library::DEF == sy::Library::Def);
  static_assert(torch::Library::FRAGMENT == sy::Library::Fragment);
  static_assert(torch::Library::IMPL == sy::Library::Impl);
  torch::Library impl(torch::Library::IMPL, "_", c10::DispatchKey::PrivateUse3, __FILE__, __LINE__);
  EXPECT_NO_THROW(impl.fallback(torch::CppFunction::makeFallthrough()));
}

TEST(TorchRegistration, DefWithANameInfersTheSchemaFromTheKernel) {
  auto m = MAKE_TORCH_LIBRARY(compat_infer);
  m.def("plus_n", &plusN);
  m.def("negated", TORCH_FN(negated));
  m.def("twice", [](const at::Tensor& self) { return at::full({1}, self.item<double>() * 2); });
  EXPECT_EQ(compatHandle("compat_infer::plus_n").schema().toString(), "compat_infer::plus_n(Tensor _0, int _1) -> Tensor");
  EXPECT_EQ(compatHandle("compat_infer::plus_n").typed<at::Tensor(const at::Tensor&, int64_t)>().call(at::ones({1}), 2).item<double>(), 3);
  EXPECT_EQ(compatHandle("compat_infer::negated").typed<at::Tensor(const at::Tensor&)>().call(at::ones({1})).item<double>(), -1);
  // Boxed callers find the inferred arguments too.
  torch::jit::Stack stack{at::full({1}, 4.0)};
  compatHandle("compat_infer::twice").callBoxed(&stack);
  EXPECT_EQ(torch::jit::pop(stack).toTensor().item<double>(), 8);
}

void boxedNoop(const c10::OperatorHandle&, c10::Stack*) {}

TEST(TorchRegistration, DefWithANameRefusesABoxedKernelWhoseSchemaCannotBeInferred) {
  auto m = MAKE_TORCH_LIBRARY(compat_infer_boxed);
  EXPECT_THAT(errorOf([&] { m.def("f", torch::CppFunction::makeFromBoxedFunction<&boxedNoop>()); }),
              HasSubstr("a schema can only be inferred from an unboxed kernel"));
}

TEST(TorchRegistration, ThreeArgumentImplTakesADispatchKeyOrADeviceType) {
  auto def = MAKE_TORCH_LIBRARY(compat_impl3);
  def.def("f(Tensor self) -> Tensor");
  def.def("g(Tensor self) -> Tensor");
  def.def("h(Tensor self) -> Tensor");
  def.impl("f", c10::DispatchKey::CPU, &negated);
  def.impl("g", c10::kCPU, [](const at::Tensor&) { return at::full({1}, 9.0); });
  def.impl("h", torch::dispatch(c10::DeviceType::CPU, TORCH_FN(negated)));
  const at::Tensor one = at::ones({1});
  EXPECT_EQ(compatHandle("compat_impl3::f").typed<at::Tensor(const at::Tensor&)>().call(one).item<double>(), -1);
  EXPECT_EQ(compatHandle("compat_impl3::g").typed<at::Tensor(const at::Tensor&)>().call(one).item<double>(), 9);
  EXPECT_EQ(compatHandle("compat_impl3::h").typed<at::Tensor(const at::Tensor&)>().call(one).item<double>(), -1);
  EXPECT_TRUE(compatHandle("compat_impl3::h").hasKernelForDispatchKey(at::DispatchKey::CPU));
}

TEST(TorchRegistration, KernelFunctionAndStackHaveTheirC10Names) {
  c10::KernelFunction fallthrough = c10::KernelFunction::makeFallthrough();
  EXPECT_TRUE(fallthrough.isFallthrough());
  c10::Stack stack{1, 2};
  EXPECT_EQ(stack.size(), 2u);
}

std::vector<std::string> seen_by_mode;
void recordingMode(const c10::OperatorHandle& op, c10::DispatchKeySet ks, torch::jit::Stack* stack) {
  seen_by_mode.push_back(op.schema().name());
  op.redispatchBoxed(ks.remove(DispatchKey::TESTING_ONLY_GenericMode), stack);
}

TEST(TorchRegistration, FactoriesAreOperatorsAModeSees) {
  auto mode = MAKE_TORCH_LIBRARY_IMPL(_, TESTING_ONLY_GenericMode);
  mode.fallback(torch::CppFunction::makeFromBoxedFunction<&recordingMode>());
  seen_by_mode.clear();
  {
    c10::impl::IncludeDispatchKeyGuard on(DispatchKey::TESTING_ONLY_GenericMode);
    EXPECT_TRUE(sy::allclose(at::ones({2}), at::full({2}, 1.0)));
    EXPECT_EQ(at::zeros({3}).numel(), 3);
    EXPECT_EQ(at::empty({4}, at::kLong).scalar_type(), at::kLong);
    EXPECT_EQ(at::full({1}, 2.5).item<double>(), 2.5);
  }
  EXPECT_THAT(seen_by_mode, ::testing::IsSupersetOf({"aten::ones", "aten::zeros", "aten::empty", "aten::full"}));
}

std::tuple<at::Tensor&, at::Tensor&> fillBoth(const at::Tensor& self, at::Tensor& first, at::Tensor& second) {
  first.copy_(self);
  second.copy_(self);
  return std::tuple<at::Tensor&, at::Tensor&>(first, second);
}
void forwardingFallback(const c10::OperatorHandle& op, c10::DispatchKeySet ks, torch::jit::Stack* stack) {
  const c10::IValue& self = stack->at(stack->size() - 3);  // reads its arguments, so they are boxed
  EXPECT_TRUE(self.isTensor());
  op.redispatchBoxed(ks.remove(DispatchKey::PrivateUse2), stack);
}

TEST(TorchRegistration, SeveralOutputsWithoutAliasAnnotationsAreTheLastArgumentsByPosition) {
  auto def = MAKE_TORCH_LIBRARY(compat_outs);
  def.def("fill_both(Tensor self, Tensor first, Tensor second) -> (Tensor, Tensor)");
  def.impl("fill_both", c10::DispatchKey::CPU, &fillBoth);
  auto fallback = MAKE_TORCH_LIBRARY_IMPL(_, PrivateUse2);
  fallback.fallback(torch::CppFunction::makeFromBoxedFunction<&forwardingFallback>());

  at::Tensor self = at::full({2}, 3.0);
  self.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse2});
  at::Tensor first = at::zeros({2});
  at::Tensor second = at::zeros({2});
  auto op = compatHandle("compat_outs::fill_both")
                .typed<std::tuple<at::Tensor&, at::Tensor&>(const at::Tensor&, at::Tensor&, at::Tensor&)>();
  auto results = op.call(self, first, second);
  EXPECT_EQ(&std::get<0>(results), &first);
  EXPECT_EQ(&std::get<1>(results), &second);
  EXPECT_TRUE(sy::allclose(first, self));
  EXPECT_TRUE(sy::allclose(second, self));
}

TEST(TorchRegistration, ASecondTorchLibraryBlockIsRefusedInPyTorchsWordsToo) {
  auto first = MAKE_TORCH_LIBRARY(compat_twice);
  const std::string error = errorOf([] { auto second = MAKE_TORCH_LIBRARY(compat_twice); });
  EXPECT_THAT(error, HasSubstr("Only one SY_LIBRARY/TORCH_LIBRARY block may be defined for namespace 'compat_twice'"));
  EXPECT_THAT(error, HasSubstr("Use SY_LIBRARY_FRAGMENT/TORCH_LIBRARY_FRAGMENT"));
  auto impl = MAKE_TORCH_LIBRARY_IMPL(compat_twice, CPU);
  EXPECT_THAT(errorOf([&] { impl.def("f(Tensor self) -> Tensor"); }),
              HasSubstr("is not allowed in SY_LIBRARY_IMPL/TORCH_LIBRARY_IMPL(compat_twice, CPU)"));
}

TEST(TorchRegistration, DeviceTypesWithoutABackendAreRefusedNamingTheFreeKeys) {
  auto def = MAKE_TORCH_LIBRARY(compat_cuda);
  def.def("f(Tensor self) -> Tensor");
  const std::string error = errorOf([&] { def.impl("f", torch::dispatch(c10::DeviceType::CUDA, &negated)); });
  EXPECT_THAT(error, HasSubstr("Switchyard has no backend for device type 'cuda'"));
  EXPECT_THAT(error, HasSubstr("PrivateUse1, PrivateUse2, PrivateUse3"));
  EXPECT_THAT(errorOf([&] { def.impl("f", c10::kCUDA, &negated); }), HasSubstr("no backend for device type 'cuda'"));
  EXPECT_THAT(errorOf([] { at::empty({2}, at::TensorOptions().device(c10::Device(c10::DeviceType::Meta))); }),
              HasSubstr("its Device argument names a device type that has no backend here"));
  EXPECT_THAT(errorOf([] { sy::empty({2}, c10::Device(c10::kCUDA)); }), HasSubstr("no backend for device type 'cuda'"));
  EXPECT_FALSE(compatHandle("compat_cuda::f").hasKernelForDispatchKey(DispatchKey::CPU));
}

TEST(TorchRegistration, EveryPyTorchDeviceTypeWithoutABackendIsRefusedByName) {
  auto def = MAKE_TORCH_LIBRARY(compat_devices);
  def.def("f(Tensor self) -> Tensor");
  const std::pair<c10::DeviceType, const char*> refused[] = {
      {c10::kCUDA, "'cuda'"}, {c10::kHIP, "'hip'"},   {c10::kXLA, "'xla'"},   {c10::kMPS, "'mps'"},
      {c10::kXPU, "'xpu'"},   {c10::kMeta, "'meta'"}, {c10::kLazy, "'lazy'"},
  };
  for (const auto& [type, name] : refused) {
    const c10::DeviceType device_type = type;  // a plain variable: the lambdas below capture it
    const std::string error = errorOf([&] { def.impl("f", device_type, &negated); });
    EXPECT_THAT(error, HasSubstr(std::string("no backend for device type ") + name));
    // Which keys are free, and why the others are not.
    EXPECT_THAT(error, HasSubstr("PrivateUse1, PrivateUse2, PrivateUse3"));
    EXPECT_THAT(error, HasSubstr("ZeroTensor and Profiler hold its own fallbacks"));
    EXPECT_THAT(errorOf([&] { at::empty({1}, at::TensorOptions().device(c10::Device(device_type))); }),
                HasSubstr("no backend here"));
  }
  // The free key takes the kernel the refused one would have.
  def.impl("f", c10::kPrivateUse1, &negated);
  EXPECT_TRUE(compatHandle("compat_devices::f").hasKernelForDispatchKey(DispatchKey::PrivateUse1));
}

}  // namespace
