// What `gen --aten-api` writes for the library's own aten:: operators (codegen/emit_functions.cpp):
// a Tensor method for each operator whose first argument is `Tensor self`, and an _ops struct for
// each operator, as PyTorch generates at::Tensor's methods and at::_ops.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernel_yaml_test_support.h"
#include "switchyard/codegen/emit.h"

namespace sy::codegen {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr const char* kOperators =
    "- func: clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  functional: true\n"
    "  inplace: true\n"
    "  kernels: [{arg_meta: null, kernel_name: sy::cpu::clamp_out}]\n"
    "- func: where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  functional: where.self\n"
    "  kernels: [{arg_meta: null, kernel_name: sy::cpu::where_out}]\n"
    "- func: full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  kernels: [{arg_meta: null, kernel_name: sy::cpu::full_out}]\n";

TEST_F(OwnedOperatorYaml, AnOperatorOnSelfGetsATensorMethodForEachFormButItsOutVariant) {
  GeneratedFiles files = generate(parse(kOperators), OperatorSelection{}, /*aten_api=*/true);
  const std::string& methods = files.tensor_methods_h;
  EXPECT_THAT(methods, HasSubstr("  ::sy::Tensor clamp(const ::std::optional<::sy::Scalar>& min = ::std::nullopt, "
                                 "const ::std::optional<::sy::Scalar>& max = ::std::nullopt) const;\n"));
  EXPECT_THAT(methods, HasSubstr("  ::sy::Tensor& clamp_(const ::std::optional<::sy::Scalar>& min = ::std::nullopt, "
                                 "const ::std::optional<::sy::Scalar>& max = ::std::nullopt) const;\n"));
  EXPECT_THAT(methods, Not(HasSubstr("clamp_out")));
  // where's first argument is the condition, full has no tensor argument: functions only.
  EXPECT_THAT(methods, Not(HasSubstr("where")));
  EXPECT_THAT(methods, Not(HasSubstr("full")));
  // Each method is its helper with this tensor as self; in place on a copy of the handle.
  EXPECT_THAT(files.functions_cpp, HasSubstr("::sy::Tensor Tensor::clamp(const ::std::optional<::sy::Scalar>& min, "
                                             "const ::std::optional<::sy::Scalar>& max) const { "
                                             "return ::sy::ops::clamp(*this, min, max); }"));
  EXPECT_THAT(files.functions_cpp, HasSubstr("{ ::sy::Tensor self = *this; ::sy::ops::clamp_(self, min, max); "
                                             "return const_cast<::sy::Tensor&>(*this); }"));
}

TEST_F(OwnedOperatorYaml, EveryFormGetsAnOpsStructNamedAsPyTorchNamesIt) {
  GeneratedFiles files = generate(parse(kOperators), OperatorSelection{}, /*aten_api=*/true);
  const std::string& structs = files.operators_h;
  EXPECT_THAT(structs, HasSubstr("struct clamp_out : ::sy::detail::OperatorStruct<clamp_out, ::sy::Tensor&("
                                 "const ::sy::Tensor&, const ::std::optional<::sy::Scalar>&, "
                                 "const ::std::optional<::sy::Scalar>&, ::sy::Tensor&)> {\n"
                                 "  static constexpr const char* name = \"aten::clamp\";\n"
                                 "  static constexpr const char* overload_name = \"out\";\n"));
  EXPECT_THAT(structs, HasSubstr("struct clamp : "));
  EXPECT_THAT(structs, HasSubstr("struct clamp_ : "));
  EXPECT_THAT(structs, HasSubstr("struct where_self : "));
  EXPECT_THAT(structs, HasSubstr("struct full_out : "));
  EXPECT_THAT(structs, HasSubstr("static constexpr const char* schema_str = \"aten::where.self(Tensor condition, "
                                 "Tensor self, Tensor other) -> Tensor\";"));
}

TEST_F(OwnedOperatorYaml, OtherKernelLibrariesGetNoMethodsTheInstalledTensorWouldNotDeclare) {
  GeneratedFiles files = generate(parse(kOperators), OperatorSelection{});
  EXPECT_THAT(files.tensor_methods_h, IsEmpty());
  EXPECT_THAT(files.operators_h, IsEmpty());
  EXPECT_THAT(files.functions_cpp, Not(HasSubstr("Tensor::")));
}

}  // namespace
}  // namespace sy::codegen
