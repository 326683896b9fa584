// The kernel conformance harness (conformance/): it builds the inputs a kernel key claims, passes a
// kernel that agrees with the portable kernels, and catches one that does not, naming the kernel,
// the key and the input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "switchyard/conformance/conformance_inputs.h"
#include "switchyard/conformance/kernel_conformance.h"
#include "switchyard/dispatcher/local_dispatch_key_set.h"
#include "switchyard/switchyard.h"

namespace {

using ::testing::HasSubstr;
using sy::ScalarType;
using sy::Tensor;
using sy::TensorMeta;
namespace conformance = sy::conformance;

// aten::sin.out as the portable kernel computes it, then off by 0.01 from the fourth element on.
Tensor& conformanceWrongSinOut(const Tensor& self, Tensor& out) {
  sy::ExcludeDispatchKeyGuard portable(sy::DispatchKey::PartialKernels);
  sy::ops::sin_out(out, self);
  if (out.numel() > 3) out.data_ptr<double>()[3] += 0.01;  // out is dense: the harness makes it so
  return out;
}

Tensor& conformanceRightSinOut(const Tensor& self, Tensor& out) {
  sy::ExcludeDispatchKeyGuard portable(sy::DispatchKey::PartialKernels);
  return sy::ops::sin_out(out, self);
}

const sy::KernelKey kDouble1d({{ScalarType::Double, {0}}, {ScalarType::Double, {0}}});

std::shared_ptr<const sy::PartialKernel> onlyKernelOf(std::string_view prefix) {
  auto kernels = conformance::kernelsOf(prefix);
  return kernels.size() == 1 ? kernels.front() : nullptr;
}

TEST(KernelConformance, PassesAKernelThatAgreesWithThePortableOne) {
  sy::RegistrationHandle handle = sy::PartialKernelRegistry::singleton().registerKernel(
      sy::parseOperatorName("aten::sin.out"), kDouble1d, &conformanceRightSinOut, "conformance_right::sin_out");
  auto kernel = onlyKernelOf("conformance_right::");
  ASSERT_NE(kernel, nullptr);
  const conformance::Report report = conformance::checkKernel(*kernel);
  EXPECT_TRUE(report.ok()) << report.failure;
  // Three shapes, dense and strided, edge and random values.
  EXPECT_EQ(report.compared, 12);
}

TEST(KernelConformance, CatchesAWrongKernelAndNamesTheKernelTheKeyAndTheInput) {
  sy::RegistrationHandle handle = sy::PartialKernelRegistry::singleton().registerKernel(
      sy::parseOperatorName("aten::sin.out"), kDouble1d, &conformanceWrongSinOut, "conformance_wrong::sin_out");
  auto kernel = onlyKernelOf("conformance_wrong::");
  ASSERT_NE(kernel, nullptr);
  const conformance::Report report = conformance::checkKernel(*kernel);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.failure, HasSubstr("conformance_wrong::sin_out for aten::sin.out, key v1/7;0|7;0"));
  EXPECT_THAT(report.failure, HasSubstr("registered at tests/backends/devices/cpu/kernel_conformance_test.cpp"));
  EXPECT_THAT(report.failure, HasSubstr("element 3 (row-major) is -0.831471, the portable kernel's -0.841471"));
  EXPECT_THAT(report.failure, HasSubstr("self = Double [37], dim order 0, dense, edge values"));
}

TEST(KernelConformance, FindsALibrarysKernelsByTheirNamespace) {
  sy::RegistrationHandle handle = sy::PartialKernelRegistry::singleton().registerKernel(
      sy::parseOperatorName("aten::sin.out"), kDouble1d, &conformanceRightSinOut, "conformance_named::sin_out");
  auto kernels = conformance::kernelsOf("conformance_named::");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(conformance::testNameOf(*kernels.front()), "aten_sin_out_Double_d0_Double_d0");
  EXPECT_TRUE(conformance::kernelsOf("conformance_nothing_here::").empty());
}

// A custom operator whose string argument has no default: the harness cannot guess one.
Tensor& conformanceTaggedOut(const Tensor& self, std::string_view mode, Tensor& out) {
  sy::ExcludeDispatchKeyGuard portable(sy::DispatchKey::PartialKernels);
  return sy::ops::abs_out(out, self);
}

TEST(KernelConformance, NamesAnArgumentItCannotMakeAValueForAndTakesOneFromOptions) {
  sy::Library def(sy::Library::FRAGMENT, "conformance_demo");
  def.def("tagged.out(Tensor self, str mode, *, Tensor(a!) out) -> Tensor(a!)");
  sy::Library impl(sy::Library::IMPL, "conformance_demo", sy::DispatchKey::CPU);
  impl.impl("tagged.out", &conformanceTaggedOut);
  sy::RegistrationHandle handle = sy::PartialKernelRegistry::singleton().registerKernel(
      sy::parseOperatorName("conformance_demo::tagged.out"), kDouble1d, &conformanceTaggedOut,
      "conformance_tagged::tagged_out");
  auto kernel = onlyKernelOf("conformance_tagged::");
  ASSERT_NE(kernel, nullptr);

  const conformance::Report guessed = conformance::checkKernel(*kernel);
  EXPECT_THAT(guessed.failure, HasSubstr("cannot make a value for argument 'mode' (str)"));
  EXPECT_THAT(guessed.failure, HasSubstr("Options::argument_values[\"conformance_demo::tagged.out/mode\"]"));

  conformance::Options options;
  options.argument_values["conformance_demo::tagged.out/mode"] = {std::string("fast")};
  const conformance::Report given = conformance::checkKernel(*kernel, options);
  EXPECT_TRUE(given.ok()) << given.failure;
  EXPECT_GT(given.compared, 0);
}

TEST(ConformanceInputs, MakesTensorsOfTheKeysDtypeAndDimOrderDenseOrStrided) {
  const TensorMeta channels_last{ScalarType::Float, {0, 2, 3, 1}};
  for (bool strided : {false, true}) {
    const Tensor t = conformance::makeTensor({channels_last, {2, 3, 4, 5}, strided, conformance::Fill::Random}, 1);
    EXPECT_EQ(TensorMeta::of(t), channels_last);
    EXPECT_EQ(t.sizes(), (std::vector<int64_t>{2, 3, 4, 5}));
    EXPECT_EQ(t.stride(1), strided ? 2 : 1);
  }
  const Tensor strided = conformance::makeTensor({channels_last, {2, 3, 4, 5}, true, conformance::Fill::Random}, 1);
  const Tensor dense = conformance::makeTensor({channels_last, {2, 3, 4, 5}, false, conformance::Fill::Random}, 1);
  EXPECT_TRUE(sy::allclose(strided, dense));  // the same values, whatever the layout
}

TEST(ConformanceInputs, EdgeValuesIncludeSignedZerosNaNAndInfinities) {
  const Tensor t = conformance::makeTensor({{ScalarType::Double, {0}}, {12}, false, conformance::Fill::EdgeValues}, 0);
  const double* v = t.data_ptr<double>();
  EXPECT_TRUE(std::signbit(v[1]) && v[1] == 0.0);
  EXPECT_TRUE(std::isnan(v[9]));
  EXPECT_EQ(v[10], INFINITY);
  EXPECT_EQ(v[11], -INFINITY);
}

}  // namespace
