// Partial kernels at run time: the registry's choice (exact key, default, error) for program
// loading, and the eager selector on DispatchKey::PartialKernels that calls the matching kernel or
// declines to the CPU kernel.
#include "switchyard/dispatcher/partial_kernels.h"

#include <optional>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using sy::testing::errorMessageOf;

// Each kernel writes its own number into out, so a test sees which one ran.
Tensor& fillWith(Tensor& out, const Tensor& self, double value) {
  out.resize_(self.sizes());
  if (out.dtype() == ScalarType::Float) {
    for (int64_t i = 0; i < out.numel(); ++i) out.data_ptr<float>()[i] = static_cast<float>(value);
  } else {
    for (int64_t i = 0; i < out.numel(); ++i) out.data_ptr<double>()[i] = value;
  }
  return out;
}
Tensor& scaleFloat(const Tensor& self, double, Tensor& out) { return fillWith(out, self, 1); }
Tensor& scaleTransposed(const Tensor& self, double, Tensor& out) { return fillWith(out, self, 2); }
Tensor& scaleDefault(const Tensor& self, double, Tensor& out) { return fillWith(out, self, 3); }
Tensor& scaleCpu(const Tensor& self, double, Tensor& out) { return fillWith(out, self, 4); }
Tensor& scaleOtherSignature(const Tensor& self, int64_t, Tensor& out) { return fillWith(out, self, 5); }

SY_LIBRARY(sytest_partial, m) {
  m.def("scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("sum4.out(Tensor a, Tensor b, Tensor c, Tensor d, *, Tensor(a!) out) -> Tensor(a!)");
}
SY_LIBRARY_IMPL(sytest_partial, CPU, m) { m.impl("scale.out", &scaleCpu); }

Tensor& sum4Exact(const Tensor& a, const Tensor&, const Tensor&, const Tensor&, Tensor& out) { return fillWith(out, a, 6); }
Tensor& sum4Default(const Tensor& a, const Tensor&, const Tensor&, const Tensor&, Tensor& out) { return fillWith(out, a, 7); }

const OperatorName kScale{"sytest_partial::scale", "out"};
const OperatorName kSum4{"sytest_partial::sum4", "out"};

TensorMeta meta(ScalarType dtype, DimOrder order) { return TensorMeta{dtype, std::move(order)}; }
KernelKey floatKey2d() { return KernelKey({meta(ScalarType::Float, {0, 1}), meta(ScalarType::Float, {0, 1})}); }

double callScale(const Tensor& self, Tensor& out) {
  auto op = Dispatcher::singleton().findSchemaOrThrow("sytest_partial::scale", "out").typed<Tensor&(const Tensor&, double, Tensor&)>();
  Tensor& result = op.call(self, 2.0, out);
  EXPECT_EQ(&result, &out);
  return out.dtype() == ScalarType::Float ? out.data_ptr<float>()[0] : out.data_ptr<double>()[0];
}

TEST(KernelKey, IsSpelledAsExecuTorchSpellsIt) {
  EXPECT_EQ(floatKey2d().toString(), "v1/6;0,1|6;0,1");
  EXPECT_EQ(KernelKey({meta(ScalarType::Double, {0, 2, 3, 1})}).toString(), "v1/7;0,2,3,1");
  EXPECT_EQ(KernelKey::makeDefault().toString(), "default");
  std::optional<KernelKey> parsed = KernelKey::parse("v1/6;0,1|6;0,1");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(*parsed, floatKey2d());
  EXPECT_TRUE(KernelKey::parse("default")->isDefault());
}

TEST(KernelKey, RejectsMalformedKeysWithTheReason) {
  std::string error;
  EXPECT_FALSE(KernelKey::parse("v2/6;0", &error).has_value());
  EXPECT_THAT(error, HasSubstr("expected 'default' or 'v1/"));
  EXPECT_FALSE(KernelKey::parse("v1/99;0", &error).has_value());
  EXPECT_THAT(error, HasSubstr("'99' is not a supported dtype number"));
  EXPECT_FALSE(KernelKey::parse("v1/6;0,0", &error).has_value());
  EXPECT_THAT(error, HasSubstr("not a permutation"));
}

TEST(TensorMeta, ReadsTheDimOrderFromTheStrides) {
  Tensor t = zeros({2, 3, 4, 5});
  EXPECT_EQ(TensorMeta::of(t).toString(), "6;0,1,2,3");
  Tensor channels_last = sy::testing::viewOf(t, {2, 3, 4, 5}, {60, 1, 15, 3});
  EXPECT_EQ(TensorMeta::of(channels_last).toString(), "6;0,2,3,1");
}

TEST(PartialKernels, CallTheExactKernelElseTheDefault) {
  auto& registry = PartialKernelRegistry::singleton();
  RegistrationHandle exact = registry.registerKernel(kScale, floatKey2d(), &scaleFloat, "scaleFloat");
  RegistrationHandle fallback = registry.registerKernel(kScale, KernelKey::makeDefault(), &scaleDefault, "scaleDefault");
  Tensor f = zeros({2, 3});
  Tensor f_out = empty({2, 3});
  EXPECT_EQ(callScale(f, f_out), 1);
  Tensor d = zeros({2, 3}, ScalarType::Double);
  Tensor d_out = empty({2, 3}, ScalarType::Double);
  EXPECT_EQ(callScale(d, d_out), 3);  // no Double key: the default kernel
  Tensor f3 = zeros({2, 3, 4});
  Tensor f3_out = empty({2, 3, 4});
  EXPECT_EQ(callScale(f3, f3_out), 3);  // the key's dim order has rank 2
  // Out arguments count with the metadata they have when the call is made (in a program, memory
  // planning has sized them): an empty 1-D out does not match a 2-D key.
  Tensor unsized_out = empty({0});
  EXPECT_EQ(callScale(f, unsized_out), 3);
}

TEST(PartialKernels, DeclineToTheCpuKernelWithoutADefault) {
  RegistrationHandle exact = PartialKernelRegistry::singleton().registerKernel(kScale, floatKey2d(), &scaleFloat, "scaleFloat");
  Tensor f = zeros({2, 3});
  Tensor f_out = empty({2, 3});
  EXPECT_EQ(callScale(f, f_out), 1);
  Tensor d = zeros({2, 3}, ScalarType::Double);
  Tensor d_out = empty({2, 3}, ScalarType::Double);
  EXPECT_EQ(callScale(d, d_out), 4);
}

// An undefined tensor argument (UndefinedTensorImpl, of dtype Undefined) matches no key, and the
// kernel the call continues to reports it (here the CPU kernel, which reads its sizes).
TEST(PartialKernels, LetAnUndefinedTensorArgumentMatchNoKey) {
  RegistrationHandle exact = PartialKernelRegistry::singleton().registerKernel(kScale, floatKey2d(), &scaleFloat, "scaleFloat");
  Tensor f_out = empty({2, 3});
  EXPECT_EQ(errorMessageOf([&] { callScale(Tensor(), f_out); }), "operation on an undefined tensor");
}

TEST(PartialKernels, MatchADimOrderOtherThanContiguous) {
  KernelKey transposed({meta(ScalarType::Float, {1, 0}), meta(ScalarType::Float, {0, 1})});
  RegistrationHandle h = PartialKernelRegistry::singleton().registerKernel(kScale, transposed, &scaleTransposed, "scaleTransposed");
  Tensor base = zeros({3, 2});
  Tensor t = sy::testing::viewOf(base, {2, 3}, {1, 2});
  Tensor out = empty({2, 3});
  EXPECT_EQ(callScale(t, out), 2);
  Tensor contiguous = zeros({2, 3});
  EXPECT_EQ(callScale(contiguous, out), 4);
}

TEST(PartialKernels, SelectOnBoxedCallsToo) {
  RegistrationHandle exact = PartialKernelRegistry::singleton().registerKernel(kScale, floatKey2d(), &scaleFloat, "scaleFloat");
  OperatorHandle op = Dispatcher::singleton().findSchemaOrThrow("sytest_partial::scale", "out");
  Tensor out = empty({2, 2});
  Stack stack{zeros({2, 2}), 1.5, out};
  op.callBoxed(&stack);
  EXPECT_EQ(out.data_ptr<float>()[0], 1);
  Tensor d_out = empty({2, 2}, ScalarType::Double);
  Stack declined{zeros({2, 2}, ScalarType::Double), 1.5, d_out};
  op.callBoxed(&declined);
  EXPECT_EQ(d_out.data_ptr<double>()[0], 4);
}

TEST(PartialKernels, CompareEveryCodeBeyondFourTensorArguments) {
  KernelKey key({meta(ScalarType::Float, {0}), meta(ScalarType::Float, {0}), meta(ScalarType::Double, {0}),
                 meta(ScalarType::Float, {0}), meta(ScalarType::Float, {0})});
  auto& registry = PartialKernelRegistry::singleton();
  RegistrationHandle exact = registry.registerKernel(kSum4, key, &sum4Exact, "sum4Exact");
  RegistrationHandle fallback = registry.registerKernel(kSum4, KernelKey::makeDefault(), &sum4Default, "sum4Default");
  auto op = Dispatcher::singleton().findSchemaOrThrow("sytest_partial::sum4", "out")
                .typed<Tensor&(const Tensor&, const Tensor&, const Tensor&, const Tensor&, Tensor&)>();
  Tensor f = zeros({3});
  Tensor d = zeros({3}, ScalarType::Double);
  Tensor out = empty({3});
  op.call(f, f, d, f, out);
  EXPECT_EQ(out.data_ptr<float>()[0], 6);
  op.call(f, d, f, f, out);
  EXPECT_EQ(out.data_ptr<float>()[0], 7);
}

TEST(PartialKernels, LeaveTheCpuKernelWhenDeregistered) {
  Tensor f = zeros({2, 3});
  Tensor out = empty({2, 3});
  {
    RegistrationHandle exact = PartialKernelRegistry::singleton().registerKernel(kScale, floatKey2d(), &scaleFloat, "scaleFloat");
    EXPECT_EQ(callScale(f, out), 1);
  }
  EXPECT_EQ(callScale(f, out), 4);
  EXPECT_TRUE(PartialKernelRegistry::singleton().keysFor(kScale).empty());
  OperatorHandle op = Dispatcher::singleton().findSchemaOrThrow("sytest_partial::scale", "out");
  EXPECT_FALSE(op.entry().nonFallthroughKeys().has(DispatchKey::PartialKernels));
}

TEST(PartialKernels, CostNothingForOperatorsWithout) {
  Tensor t = zeros({2});
  EXPECT_TRUE(t.key_set().has(DispatchKey::PartialKernels));
  OperatorHandle acos = Dispatcher::singleton().findSchemaOrThrow("aten::acos", "out");
  EXPECT_FALSE(acos.entry().nonFallthroughKeys().has(DispatchKey::PartialKernels));
}

TEST(PartialKernels, RejectADuplicateKeyNamingBothKernels) {
  auto& registry = PartialKernelRegistry::singleton();
  RegistrationHandle first = registry.registerKernel(kScale, floatKey2d(), &scaleFloat, "scaleFloat");
  std::string message = errorMessageOf([&] { registry.registerKernel(kScale, floatKey2d(), &scaleDefault, "scaleDefault"); });
  EXPECT_THAT(message, HasSubstr("duplicate partial kernel for sytest_partial::scale.out with key v1/6;0,1|6;0,1"));
  EXPECT_THAT(message, HasSubstr("scaleDefault at "));
  EXPECT_THAT(message, HasSubstr("and scaleFloat registered at "));
}

TEST(PartialKernels, RejectAKernelWithAnotherSignature) {
  auto& registry = PartialKernelRegistry::singleton();
  RegistrationHandle first = registry.registerKernel(kScale, floatKey2d(), &scaleFloat, "scaleFloat");
  std::string message = errorMessageOf(
      [&] { registry.registerKernel(kScale, KernelKey::makeDefault(), &scaleOtherSignature, "scaleOtherSignature"); });
  EXPECT_THAT(message, HasSubstr("partial kernel scaleOtherSignature for sytest_partial::scale.out"));
  EXPECT_THAT(message, HasSubstr("has C++ signature"));
}

TEST(PartialKernelRegistry, ResolvesTheExactKeyThenTheDefault) {
  auto& registry = PartialKernelRegistry::singleton();
  RegistrationHandle exact = registry.registerKernel(kScale, floatKey2d(), &scaleFloat, "scaleFloat");
  auto resolved = registry.resolve(kScale, {meta(ScalarType::Float, {0, 1}), meta(ScalarType::Float, {0, 1})});
  ASSERT_TRUE(resolved.ok()) << resolved.status();
  EXPECT_EQ((*resolved)->kernel_name, "scaleFloat");

  auto missing = registry.resolve(kScale, {meta(ScalarType::Double, {0, 1}), meta(ScalarType::Double, {0, 1})});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(missing.status().message(), HasSubstr("no kernel of sytest_partial::scale.out applies to its tensor arguments (v1/7;0,1|7;0,1)"));
  EXPECT_THAT(missing.status().message(), HasSubstr("tensor argument 0: Double, dim order 0,1"));
  EXPECT_THAT(missing.status().message(), HasSubstr("v1/6;0,1|6;0,1 -> scaleFloat (registered at "));

  RegistrationHandle fallback = registry.registerKernel(kScale, KernelKey::makeDefault(), &scaleDefault, "scaleDefault");
  auto defaulted = registry.resolve(kScale, {meta(ScalarType::Double, {0, 1}), meta(ScalarType::Double, {0, 1})});
  ASSERT_TRUE(defaulted.ok());
  EXPECT_EQ((*defaulted)->kernel_name, "scaleDefault");
  EXPECT_TRUE((*defaulted)->kernel.isValid());
}

TEST(PartialKernelRegistry, SaysNotFoundForAnOperatorWithoutPartialKernels) {
  auto resolved = PartialKernelRegistry::singleton().resolve(OperatorName{"aten::acos", "out"}, {});
  EXPECT_EQ(resolved.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace sy
