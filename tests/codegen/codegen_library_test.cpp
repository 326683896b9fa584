// A kernel library made from kernel YAML with the CMake functions (tests/codegen/CMakeLists.txt):
// the generated schema, registrations and helpers, called through the dispatcher.
#include "Functions.h"

#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/dispatcher/partial_kernels.h"
#include "sytest_new/Functions.h"
#include "sytest_owned/Functions.h"
#include "switchyard/switchyard.h"

namespace sytest_yaml::native {
extern int every_type_calls;
}

namespace {

using ::testing::HasSubstr;

TEST(YamlKernelLibrary, DefinesTheCustomOperatorWithItsYamlSite) {
  auto op = sy::Dispatcher::singleton().findSchemaOrThrow("sytest_yaml::scale", "out");
  EXPECT_EQ(op.schema().toString(),
            "sytest_yaml::scale.out(Tensor self, float factor=2., *, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_THAT(op.dumpComputedTable(), HasSubstr("PartialKernels: kernel"));
}

TEST(YamlKernelLibrary, CallsTheExactKernelForAFloatTensor) {
  sy::Tensor self = sy::zeros({2, 3});
  sy::Tensor out = sy::empty({2, 3});  // sized, as memory planning sizes a program's outs
  sy::Tensor& result = sytest_yaml::ops::scale_out(out, self, 1.0);
  EXPECT_EQ(&result, &out);
  EXPECT_EQ(out.sizes(), self.sizes());
  EXPECT_EQ(out.data_ptr<float>()[0], 101.0f);
  sytest_yaml::ops::scale_out(out, self);  // the schema's default factor
  EXPECT_EQ(out.data_ptr<float>()[5], 102.0f);
}

TEST(YamlKernelLibrary, CallsTheDefaultKernelForADoubleTensor) {
  sy::Tensor self = sy::zeros({2, 3}, sy::ScalarType::Double);
  sy::Tensor out = sy::empty({2, 3}, sy::ScalarType::Double);
  sytest_yaml::ops::scale_out(out, self, 1.0);
  EXPECT_EQ(out.data_ptr<double>()[0], 201.0);
  sy::Tensor f3 = sy::zeros({2, 3, 4});  // Float, but 3-D: no exact key either
  sy::Tensor f3_out = sy::empty({2, 3, 4});
  sytest_yaml::ops::scale_out(f3_out, f3, 1.0);
  EXPECT_EQ(f3_out.data_ptr<float>()[0], 201.0f);
}

TEST(YamlKernelLibrary, RunsThePartialKernelOfAnExistingOperator) {
  sy::Tensor a = sy::tensor<float>({1, 2, 3});
  sy::Tensor out = sy::empty({3});
  sy::ops::mul_out(out, a, a);
  EXPECT_EQ(out.data_ptr<float>()[2], -1.0f);
  sy::Tensor d = sy::tensor<double>({1, 2, 3});
  sy::Tensor d_out = sy::empty({3}, sy::ScalarType::Double);
  sy::ops::mul_out(d_out, d, d);
  EXPECT_EQ(d_out.data_ptr<double>()[2], -1.0);
}

TEST(YamlKernelLibrary, DeclinesToTheCpuKernelWhereItHasNoKeyAndNoDefault) {
  sy::Tensor a = sy::tensor<float>({1, 2, 3, 4}, {2, 2});  // 2-D: the library only has 1-D keys
  sy::Tensor out = sy::empty({2, 2});
  sy::ops::mul_out(out, a, a);
  EXPECT_EQ(out.data_ptr<float>()[3], 16.0f);
  sy::Tensor i = sy::tensor<int64_t>({1, 2, 3});  // Long: not in T0
  sy::Tensor i_out = sy::empty({3}, sy::ScalarType::Long);
  sy::ops::mul_out(i_out, i, i);
  EXPECT_EQ(i_out.data_ptr<int64_t>()[2], 9);
}

TEST(YamlKernelLibrary, ResolvesKernelsForProgramLoading) {
  auto& registry = sy::PartialKernelRegistry::singleton();
  sy::OperatorName mul{"aten::mul", "out"};
  auto exact = registry.resolve(mul, {sy::TensorMeta{sy::ScalarType::Double, {0}}, sy::TensorMeta{sy::ScalarType::Double, {0}},
                                      sy::TensorMeta{sy::ScalarType::Double, {0}}});
  ASSERT_TRUE(exact.ok()) << exact.status();
  EXPECT_EQ((*exact)->kernel_name, "sytest_yaml::native::mul_out_1d");
  EXPECT_THAT((*exact)->site, HasSubstr("functions.yaml:"));
  auto missing = registry.resolve(mul, {sy::TensorMeta{sy::ScalarType::Long, {0}}, sy::TensorMeta{sy::ScalarType::Long, {0}},
                                        sy::TensorMeta{sy::ScalarType::Long, {0}}});
  EXPECT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("v1/6;0|6;0|6;0 -> sytest_yaml::native::mul_out_1d"));
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("v1/7;0|7;0|7;0 -> sytest_yaml::native::mul_out_1d"));
}

TEST(YamlKernelLibrary, PassesEveryArgumentTypeThroughTheGeneratedHelper) {
  sy::Tensor t = sy::zeros({2});
  sy::Tensor out = sy::empty({0});
  std::vector<sy::Tensor> list{t, t};
  std::vector<double> floats{1.5};
  std::vector<bool> bools{true};
  const int before = sytest_yaml::native::every_type_calls;
  sytest_yaml::ops::every_type_out(out, t, std::nullopt, list, 1, 2, sy::IntArrayRef{3, 4}, std::nullopt, 0.5, 1.0, floats,
                                   true, false, bools, "s", std::nullopt, sy::Scalar(2), std::nullopt, sy::ScalarType::Float,
                                   std::nullopt, sy::MemoryFormat::Contiguous, std::nullopt, sy::kCPU, std::nullopt);
  EXPECT_EQ(sytest_yaml::native::every_type_calls, before + 1);
  // Boxed, through the schema the YAML defined.
  auto op = sy::Dispatcher::singleton().findSchemaOrThrow("sytest_yaml::every_type", "out");
  sy::Stack stack{t,   sy::IValue(), list, 1,    sy::IValue(), std::vector<int64_t>{3}, sy::IValue(), 0.5,
                  sy::IValue(), floats, true, sy::IValue(), bools, std::string("s"), sy::IValue(), sy::Scalar(1),
                  sy::IValue(), sy::ScalarType::Double, sy::IValue(), int64_t{0}, sy::IValue(), sy::kCPU, sy::IValue(), out};
  op.callBoxed(&stack);
  EXPECT_EQ(sytest_yaml::native::every_type_calls, before + 2);
}

TEST(YamlKernelLibrary, PassesListsOfOptionalTensorsAndOptionalFloatListsCalledOrBoxed) {
  sy::Tensor x = sy::zeros({2});
  sy::Tensor rows = sy::zeros({3}, sy::ScalarType::Long);
  sy::Tensor out = sy::empty({0}, sy::ScalarType::Double);
  sytest_yaml::ops::optional_lists_out(out, x, {std::nullopt, rows}, std::vector<double>{1.5, 2.0});
  EXPECT_EQ(out.data_ptr<double>()[0], -1.0);
  EXPECT_EQ(out.data_ptr<double>()[1], 3.0);
  EXPECT_EQ(out.data_ptr<double>()[2], 3.5);
  // Boxed, as a program holds them: a generic list of None and tensors, and None for the scales.
  auto op = sy::Dispatcher::singleton().findSchemaOrThrow("sytest_yaml::optional_lists", "out");
  sy::Stack stack{x, std::vector<sy::IValue>{rows, sy::IValue(), rows}, sy::IValue(), out};
  op.callBoxed(&stack);
  ASSERT_EQ(out.numel(), 4);
  EXPECT_EQ(out.data_ptr<double>()[0], 3.0);
  EXPECT_EQ(out.data_ptr<double>()[1], -1.0);
  EXPECT_EQ(out.data_ptr<double>()[3], -1.0);
  // A Tensor[] is a Tensor?[] without None; a list holding anything else is refused by element.
  sy::Stack tensors{x, std::vector<sy::Tensor>{rows}, std::vector<double>{4.0}, out};
  op.callBoxed(&tensors);
  EXPECT_EQ(out.data_ptr<double>()[1], 4.0);
  sy::Stack wrong{x, std::vector<sy::IValue>{rows, sy::IValue(int64_t{3})}, sy::IValue(), out};
  EXPECT_THAT([&] { op.callBoxed(&wrong); },
              testing::ThrowsMessage<sy::Error>(HasSubstr("a Tensor?[] holds None or tensors, but element 1 is int")));
}

// owned_ops.yaml + owned_kernels.cpp: an operator defined, bound to its CPU kernel and given a
// helper from its YAML entries alone, as the aten:: operators are from backends/devices/cpu/*.yaml.
TEST(YamlOwnedOperators, RegisterTheirDefaultKernelsOnCpuWithTheirYamlSite) {
  auto op = sy::Dispatcher::singleton().findSchemaOrThrow("sytest_owned::square", "out");
  const std::string table = op.dumpComputedTable();
  EXPECT_THAT(table, HasSubstr("CPU: kernel"));
  EXPECT_THAT(table, HasSubstr("tests/codegen/owned_ops.yaml:7"));
  EXPECT_THAT(table, ::testing::Not(HasSubstr("PartialKernels: kernel")));
}

TEST(YamlOwnedOperators, CallTheirKernelsThroughTheGeneratedHelpers) {
  sy::Tensor x = sy::full({2, 2}, 3.0);
  sy::Tensor y = sytest_owned::ops::square(x);
  EXPECT_EQ(y.data_ptr<float>()[3], 9.0f);
  sy::Tensor out = sy::empty({0});
  sy::Tensor& result = sytest_owned::ops::square_out(out, x);
  EXPECT_EQ(&result, &out);
  EXPECT_EQ(out.sizes(), x.sizes());
  EXPECT_EQ(out.data_ptr<float>()[0], 9.0f);
}

// new_operator.yaml + new_operator_kernel.cpp: one entry and one kernel make the operator's three
// forms and their helpers (NewOperator.IsOneYamlEntryAndOneKernelOfAtMostEightLines counts them).
std::vector<float> expm1Of(std::vector<float> values) {
  for (float& v : values) v = std::expm1(v);
  return values;
}

std::vector<float> floatsOf(const sy::Tensor& t) {
  const sy::Tensor dense = sy::ops::contiguous(t);
  return std::vector<float>(dense.data_ptr<float>(), dense.data_ptr<float>() + dense.numel());
}

TEST(YamlNewOperator, DefinesTheFunctionalInPlaceAndOutFormsFromOneEntry) {
  sy::Dispatcher& d = sy::Dispatcher::singleton();
  EXPECT_EQ(d.findSchemaOrThrow("sytest_new::expm1", "").schema().toString(), "sytest_new::expm1(Tensor self) -> Tensor");
  EXPECT_EQ(d.findSchemaOrThrow("sytest_new::expm1_", "").schema().toString(),
            "sytest_new::expm1_(Tensor(a!) self) -> Tensor(a!)");
  EXPECT_EQ(d.findSchemaOrThrow("sytest_new::expm1", "out").schema().toString(),
            "sytest_new::expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  // Each is registered on the CPU key from the entry's YAML lines.
  EXPECT_THAT(d.findSchemaOrThrow("sytest_new::expm1_", "").dumpComputedTable(), HasSubstr("tests/codegen/new_operator.yaml:8"));
}

TEST(YamlNewOperator, ComputesEachFormWithTheOneKernel) {
  const std::vector<float> values = {-2.0f, -1e-4f, 0.0f, 0.5f, 3.0f};
  const sy::Tensor x = sy::tensor<float>(values, {5});
  EXPECT_EQ(floatsOf(sytest_new::ops::expm1(x)), expm1Of(values));
  // An integral input computes in Float, as every floating unary operator does.
  EXPECT_EQ(sytest_new::ops::expm1(sy::tensor<int64_t>({0, 1}, {2})).scalar_type(), sy::ScalarType::Float);
  sy::Tensor out = sy::empty({0});
  sy::Tensor& written = sytest_new::ops::expm1_out(out, x);
  EXPECT_EQ(&written, &out);
  EXPECT_EQ(floatsOf(out), expm1Of(values));
  sy::Tensor y = sy::ops::clone(x);
  sy::Tensor& in_place = sytest_new::ops::expm1_(y);
  EXPECT_EQ(&in_place, &y);
  EXPECT_EQ(floatsOf(y), expm1Of(values));
}

TEST(YamlNewOperator, NamesTheFormTheCallerCalledInItsErrors) {
  sy::Tensor counts = sy::tensor<int64_t>({1, 2}, {2});
  sy::Tensor int_out = sy::empty({2}, sy::ScalarType::Long);
  auto messageOf = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const sy::Error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_THAT(messageOf([&] { sytest_new::ops::expm1_(counts); }),
              HasSubstr("sytest_new::expm1_: result type Float can't be cast to the desired output type Long"));
  EXPECT_THAT(messageOf([&] { sytest_new::ops::expm1_out(int_out, counts); }),
              HasSubstr("sytest_new::expm1.out: result type Float can't be cast to the desired output type Long"));
}

}  // namespace
