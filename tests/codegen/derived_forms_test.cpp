// The forms an out-variant entry derives (`functional:`, `inplace:`; codegen/derived_forms.h): their
// names and schemas, their registrations and helpers, the rules a wrong key breaks, selective
// builds, and the target the fixture new_operator.yaml meets.
#include <cctype>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernel_yaml_test_support.h"
#include "switchyard/codegen/derived_forms.h"
#include "switchyard/codegen/emit.h"
#include "switchyard/codegen/program_operators.h"

namespace sy::codegen {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kExpm1 =
    "- func: expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  functional: true\n"
    "  inplace: true\n"
    "  kernels: [{arg_meta: null, kernel_name: sy::cpu::expm1_out}]\n";

TEST(DerivedForms, TakeTheirOverloadFromTheOutVariantsAsPyTorchNamesThem) {
  EXPECT_EQ(derivedOverloadName("out"), "");
  EXPECT_EQ(derivedOverloadName("Scalar_out"), "Scalar");
  EXPECT_EQ(derivedOverloadName("Tensor_mode_out"), "Tensor_mode");
  EXPECT_EQ(derivedOverloadName("values"), std::nullopt);
  EXPECT_EQ(derivedOverloadName("_out"), std::nullopt);
}

TEST_F(OwnedOperatorYaml, DeriveTheFunctionalAndInPlaceFormsOfAnOutEntry) {
  GeneratedFiles files = generate(parse(kExpm1), OperatorSelection{});
  const std::string& cpp = files.register_operators_cpp;
  EXPECT_THAT(cpp, HasSubstr("m.def(\"aten::expm1(Tensor self) -> Tensor\", ::sy::SourceLocation{\"kernels.yaml\", 2});"));
  EXPECT_THAT(cpp, HasSubstr("m.def(\"aten::expm1_(Tensor(a!) self) -> Tensor(a!)\", ::sy::SourceLocation{\"kernels.yaml\", 3});"));
  // One kernel, three registrations, each with its own context.
  EXPECT_THAT(cpp, HasSubstr("m.impl(\"aten::expm1.out\", ::sy::withContext<&::sy::cpu::native::expm1_out, "
                             "&kContext_aten__expm1_out>(), ::sy::SourceLocation{\"kernels.yaml\", 4});"));
  EXPECT_THAT(cpp, HasSubstr("m.impl(\"aten::expm1\", ::sy::functionalKernel<&::sy::cpu::native::expm1_out, "
                             "&kContext_aten__expm1, 1>(), ::sy::SourceLocation{\"kernels.yaml\", 2});"));
  EXPECT_THAT(cpp, HasSubstr("m.impl(\"aten::expm1_\", ::sy::inPlaceKernel<&::sy::cpu::native::expm1_out, "
                             "&kContext_aten__expm1_>(), ::sy::SourceLocation{\"kernels.yaml\", 3});"));
  EXPECT_THAT(cpp, HasSubstr("kContext_aten__expm1{\"aten::expm1\", ::sy::OutputForm::Functional};"));
  EXPECT_THAT(cpp, HasSubstr("kContext_aten__expm1_{\"aten::expm1_\", ::sy::OutputForm::InPlace};"));
  EXPECT_THAT(files.native_functions_h,
              HasSubstr("// aten::expm1.out, aten::expm1, aten::expm1_ (kernels.yaml:4)\n"
                        "SY_NATIVE_KERNEL ::sy::Tensor& expm1_out(const ::sy::Tensor& self, ::sy::Tensor& out, "
                        "const ::sy::KernelContext& ctx);"));
  EXPECT_THAT(files.functions_h, HasSubstr("::sy::Tensor expm1(const ::sy::Tensor& self);"));
  EXPECT_THAT(files.functions_h, HasSubstr("::sy::Tensor& expm1_(::sy::Tensor& self);"));
  EXPECT_THAT(files.functions_h, HasSubstr("::sy::Tensor& expm1_out(::sy::Tensor& out, const ::sy::Tensor& self);"));
}

TEST_F(OwnedOperatorYaml, SpellOutAFormNameTheRuleCannotDerive) {
  const KernelLibrary library =
      parse("- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)\n"
            "  functional: add.Tensor\n"
            "  inplace: add_.Tensor\n"
            "  cpp_no_default_args: [alpha]\n"
            "  kernels: [{arg_meta: null, kernel_name: sy::cpu::add_out_cpu}]\n"
            "- func: max_pool.out(Tensor self, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))\n"
            "  functional: true\n"
            "  kernels: [{arg_meta: null, kernel_name: sy::cpu::max_pool_out_cpu}]\n");
  ASSERT_EQ(library.operators.size(), 2u);
  std::vector<std::string> forms;
  for (const DerivedForm& form : library.operators[0].derived) forms.push_back(form.schema.toString());
  EXPECT_THAT(forms, ElementsAre("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
                                 "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"));
  // A derived form keeps the entry's cpp_no_default_args.
  const GeneratedFiles files = generate(library, OperatorSelection{});
  EXPECT_THAT(files.functions_h,
              HasSubstr("::sy::Tensor add(const ::sy::Tensor& self, const ::sy::Tensor& other, const ::sy::Scalar& alpha);"));
  // Two out arguments: the functional form returns two fresh tensors.
  EXPECT_EQ(library.operators[1].derived.at(0).schema.toString(), "aten::max_pool(Tensor self) -> (Tensor, Tensor)");
  EXPECT_THAT(files.register_operators_cpp, HasSubstr("::sy::functionalKernel<&::sy::cpu::native::max_pool_out_cpu, "
                                                      "&kContext_aten__max_pool, 2>()"));
}

TEST_F(OwnedOperatorYaml, RefuseAFormTheEntryCannotDerive) {
  EXPECT_THAT(errorOf("- func: abs(Tensor self) -> Tensor\n  functional: true\n"),
              HasSubstr("kernels.yaml:2: error: derived forms: aten::abs derives forms only as an out variant, but its last "
                        "argument is not a kwarg-only written tensor"));
  EXPECT_THAT(errorOf("- func: div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> "
                      "Tensor(a!)\n  functional: true\n"),
              HasSubstr("kernels.yaml:2: error: functional: the overload of aten::div.out_mode is not `out` or "
                        "`<name>_out`, so the form's name cannot be derived: write it, e.g. `functional: div.<overload>`"));
  EXPECT_THAT(errorOf("- func: where.self_out(Tensor condition, Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                      "  inplace: true\n"),
              HasSubstr("an in-place form writes its first argument, which must be `Tensor self`"));
  EXPECT_THAT(errorOf("- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  inplace: abs.x\n"),
              HasSubstr("kernels.yaml:2: error: inplace: an in-place form's name ends in '_' (abs.x does not)"));
  EXPECT_THAT(errorOf("- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  functional: other::abs\n"),
              HasSubstr("kernels.yaml:2: error: functional: a derived form lives in its out variant's namespace (aten), "
                        "not other::abs"));
  EXPECT_THAT(errorOf("- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  functional: false\n"),
              HasSubstr("kernels.yaml:2: error: functional: write the key only for a form aten::abs.out has"));
  EXPECT_THAT(errorOf(std::string(kExpm1) + "- func: expm1(Tensor self) -> Tensor\n"),
              HasSubstr("kernels.yaml:5: error: duplicate operator: aten::expm1 also has an entry at kernels.yaml:2"));
}

constexpr const char* kUnbindCopy =
    "- func: unbind_copy.int_out(Tensor self, int dim=0, *, Tensor(a!)[] out) -> ()\n"
    "  functional: unbind_copy.int\n"
    "  functional_outs: sy::cpu::unbind_copy_int_outs\n"
    "  kernels: [{arg_meta: null, kernel_name: sy::cpu::unbind_copy_int_out_cpu}]\n";

TEST_F(OwnedOperatorYaml, DeriveTheFunctionalFormOfAListOutEntryFromTheFunctionThatCreatesItsOuts) {
  const KernelLibrary library = parse(kUnbindCopy);
  ASSERT_EQ(library.operators.at(0).derived.size(), 1u);
  const DerivedForm& form = library.operators[0].derived[0];
  EXPECT_EQ(form.schema.toString(), "aten::unbind_copy.int(Tensor self, int dim=0) -> Tensor[]");
  ASSERT_TRUE(form.outs_function.has_value());
  EXPECT_EQ(form.outs_function->qualifiedName(), "sy::cpu::native::unbind_copy_int_outs");
  const GeneratedFiles files = generate(library, OperatorSelection{});
  EXPECT_THAT(files.register_operators_cpp,
              HasSubstr("m.impl(\"aten::unbind_copy.int\", ::sy::functionalListKernel<&::sy::cpu::native::unbind_copy_int_out_cpu, "
                        "&kContext_aten__unbind_copy_int, &::sy::cpu::native::unbind_copy_int_outs>(), "
                        "::sy::SourceLocation{\"kernels.yaml\", 2});"));
  EXPECT_THAT(files.native_functions_h,
              HasSubstr("// the outs of aten::unbind_copy.int (kernels.yaml:3)\nSY_NATIVE_KERNEL ::std::vector<::sy::Tensor> "
                        "unbind_copy_int_outs(const ::sy::Tensor& self, int64_t dim, const ::sy::KernelContext& ctx);"));
  // The helper returns the list it owns, not a view of it.
  EXPECT_THAT(files.functions_h, HasSubstr("::std::vector<::sy::Tensor> unbind_copy(const ::sy::Tensor& self, int64_t dim = 0);"));
}

TEST_F(OwnedOperatorYaml, RefuseAListOutFormWithoutTheFunctionThatCreatesItsOuts) {
  const std::string list_out = "- func: unbind_copy.int_out(Tensor self, int dim=0, *, Tensor(a!)[] out) -> ()\n";
  EXPECT_THAT(errorOf(list_out + "  functional: unbind_copy.int\n"),
              HasSubstr("kernels.yaml:2: error: functional_outs: aten::unbind_copy.int_out writes a list of outs whose "
                        "length only its inputs tell, so its functional form needs a function that creates them: add "
                        "`functional_outs: <namespace>::<function>`"));
  EXPECT_THAT(errorOf(list_out + "  functional_outs: sy::cpu::unbind_outs\n"),
              HasSubstr("kernels.yaml:2: error: functional_outs: names the function that creates the functional form's "
                        "outs, but the entry asks for no `functional:` form"));
  EXPECT_THAT(errorOf(list_out + "  functional: unbind_copy.int\n  functional_outs: 3 things\n"),
              HasSubstr("kernels.yaml:3: error: functional_outs: '3 things' is not a C++ function name"));
  EXPECT_THAT(errorOf(list_out + "  inplace: unbind_copy_.int\n"),
              HasSubstr("kernels.yaml:2: error: inplace: aten::unbind_copy.int_out: an in-place form needs an out variant "
                        "with one out tensor; this one writes a list of them"));
  EXPECT_THAT(errorOf("- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  functional: true\n"
                      "  functional_outs: sy::cpu::abs_outs\n"),
              HasSubstr("kernels.yaml:3: error: functional_outs: aten::abs.out does not write a list of outs"));
  EXPECT_THAT(errorOf("- func: chunks.out(Tensor self, *, Tensor(a!)[] out, Tensor(b!) extra) -> ()\n  functional: true\n"),
              HasSubstr("its out argument 'out' is not a Tensor (a list of outs must be the only out argument"));
}

// A kernel library's `op:` entry gives the forms of an existing out variant its kernel, as partial
// kernels with the out variant's keys less the out arguments' metas.
TEST_F(KernelYamlRules, GiveTheExistingFormsOfAnOpEntryItsKernelWithTheirKeys) {
  existing_.emplace("aten::mul.Tensor", parseSchema("aten::mul.Tensor(Tensor self, Tensor other) -> Tensor"));
  existing_.emplace("aten::mul_.Tensor", parseSchema("aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)"));
  const GeneratedFiles files = generate(parse("- op: mul.out\n"
                                              "  functional: mul.Tensor\n"
                                              "  inplace: mul_.Tensor\n"
                                              "  kernels:\n"
                                              "    - arg_meta: {self: [T0, D0], other: [T0, D0], out: [T0, D0]}\n"
                                              "      kernel_name: my::mul_out\n"
                                              "  type_alias: {T0: [Float]}\n"
                                              "  dim_order_alias: {D0: [[0]]}\n"),
                                        OperatorSelection{});
  EXPECT_THAT(files.register_schema_cpp, Not(HasSubstr("m.def")));
  EXPECT_THAT(files.register_kernels_cpp, HasSubstr("kKeys[] = {\"v1/6;0|6;0|6;0\"};\n      registerForKeys(handles, "
                                                    "::sy::OperatorName{\"aten::mul\", \"out\"}"));
  EXPECT_THAT(files.register_kernels_cpp, HasSubstr("kKeys[] = {\"v1/6;0|6;0\"};\n      registerForKeys(handles, "
                                                    "::sy::OperatorName{\"aten::mul\", \"Tensor\"}"));
  EXPECT_THAT(files.register_kernels_cpp, HasSubstr("::sy::inPlaceKernelPointer<&::my::native::mul_out, "
                                                    "&kContext_aten__mul__Tensor>()"));
  EXPECT_THAT(errorOf("- op: mul.out\n  functional: mul.Scalar\n  kernels: [{arg_meta: null, kernel_name: my::mul_out}]\n"),
              HasSubstr("kernels.yaml:2: error: unknown operator: aten::mul.Scalar is not an existing operator"));
  existing_.emplace("aten::mul.Scalar", parseSchema("aten::mul.Scalar(Tensor self, Scalar other) -> Tensor"));
  EXPECT_THAT(errorOf("- op: mul.out\n  functional: mul.Scalar\n  kernels: [{arg_meta: null, kernel_name: my::mul_out}]\n"),
              HasSubstr("kernels.yaml:2: error: derived form: aten::mul.Scalar is `aten::mul.Scalar(Tensor self, Scalar "
                        "other) -> Tensor`, not the form of aten::mul.out"));
}

// Selecting any form of an entry keeps the entry; a YAML file lists its derived forms among its operators.
TEST_F(OwnedOperatorYaml, KeepAnEntryWhenOneOfItsFormsIsSelected) {
  const KernelLibrary library = parse(kExpm1);
  OperatorSelection selection;
  selection.include_all = false;
  selection.operators = {"aten::expm1_"};
  EXPECT_THAT(generate(library, selection).register_operators_cpp, HasSubstr("m.impl(\"aten::expm1_\""));
  selection.operators = {"aten::abs"};
  EXPECT_THAT(generate(library, selection).register_operators_cpp, Not(HasSubstr("expm1")));
  EXPECT_THAT(operatorNamesIn(write(kExpm1)), ElementsAre("aten::expm1.out", "aten::expm1", "aten::expm1_"));
}

// The issue's target: a new elementwise operator is one YAML entry plus one kernel of at most eight
// lines, in two files (tests/codegen/new_operator.yaml and new_operator_kernel.cpp, which
// YamlNewOperator in codegen_library_test.cpp builds and calls).
TEST_F(OwnedOperatorYaml, NewOperatorIsOneYamlEntryAndOneKernelOfAtMostEightLines) {
  const std::string dir = std::string(SWITCHYARD_SOURCE_DIR) + "/tests/codegen/";
  KernelLibrary library = empty();
  parseKernelYaml(dir + "new_operator.yaml", SchemaIndex{}, library);
  ASSERT_EQ(library.operators.size(), 1u);
  ASSERT_EQ(library.operators[0].derived.size(), 2u);
  EXPECT_EQ(library.operators[0].kernels.size(), 1u);
  std::ifstream kernel(dir + "new_operator_kernel.cpp");
  ASSERT_TRUE(kernel.good());
  // The kernel file's code: everything but blank lines, comments, includes and namespace lines.
  int code_lines = 0;
  std::string text;
  for (std::string line; std::getline(kernel, line);) {
    const size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos || line.compare(first, 2, "//") == 0 || line.compare(first, 1, "#") == 0 ||
        line.compare(first, 9, "namespace") == 0 || line.compare(first, 3, "}  ") == 0) {
      continue;
    }
    ++code_lines;
    text += line + "\n";
  }
  EXPECT_LE(code_lines, 8) << text;
}

}  // namespace
}  // namespace sy::codegen
