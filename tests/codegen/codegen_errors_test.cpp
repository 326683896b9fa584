// The generator's rules: each broken one is an error naming the rule and the YAML file and line.
// The YAML is written to a temporary directory and parsed as switchyard_codegen parses it.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernel_yaml_test_support.h"
#include "switchyard/codegen/emit.h"

namespace sy::codegen {
namespace {

using ::testing::HasSubstr;

constexpr const char* kScale = "- func: my::scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)\n";

TEST_F(KernelYamlRules, ExpandEveryAliasCombinationInArgumentOrder) {
  KernelLibrary library = parse(std::string(kScale) +
                                "  type_alias:\n    T0: [Double, Float]\n"
                                "  dim_order_alias:\n    D0: [0, 1, 2, 3]\n    D1: [[0, 1], [1, 0]]\n"
                                "  kernels:\n"
                                "    - arg_meta:\n        out: [T0, D1]\n        self: [T0, D0]\n"
                                "      kernel_name: my::scale_out_typed\n"
                                "    - arg_meta: null\n      kernel_name: my::scale_out\n");
  ASSERT_EQ(library.operators.size(), 1u);
  std::vector<std::string> keys;
  for (const Kernel& k : library.operators[0].kernels) keys.push_back(k.key.toString());
  EXPECT_THAT(keys, ::testing::ElementsAre("v1/7;0,1,2,3|7;0,1", "v1/7;0,1,2,3|7;1,0", "v1/6;0,1,2,3|6;0,1",
                                           "v1/6;0,1,2,3|6;1,0", "default"));
  EXPECT_EQ(library.operators[0].kernels[0].qualifiedName(), "my::native::scale_out_typed");
  EXPECT_EQ(library.operators[0].kernels[0].site.line, 11);
}

TEST_F(KernelYamlRules, GenerateKernelDeclarationsWithTheCpuKernelsTypes) {
  KernelLibrary library = parse(std::string(kScale) + "  kernels:\n    - arg_meta: null\n      kernel_name: my::scale_out\n");
  GeneratedFiles files = generate(library, OperatorSelection{});
  EXPECT_THAT(files.native_functions_h, HasSubstr("namespace my::native {"));
  EXPECT_THAT(files.native_functions_h,
              HasSubstr("::sy::Tensor& scale_out(const ::sy::Tensor& self, double factor, ::sy::Tensor& out, "
                        "const ::sy::KernelContext& ctx);"));
  EXPECT_THAT(files.register_schema_cpp, HasSubstr("SY_LIBRARY_FRAGMENT(my, m)"));
  EXPECT_THAT(files.register_kernels_cpp, HasSubstr("kKeys[] = {\"default\"}"));
  EXPECT_THAT(files.functions_h, HasSubstr("::sy::Tensor& scale_out(::sy::Tensor& out, const ::sy::Tensor& self, double factor);"));
  OperatorSelection none;
  none.include_all = false;
  EXPECT_THAT(generate(library, none).register_kernels_cpp, ::testing::Not(HasSubstr("scale_out")));
}

TEST_F(KernelYamlRules, RequireOutVariants) {
  EXPECT_THAT(errorOf("# comment\n- func: my::scale(Tensor self) -> Tensor\n  kernels: [{arg_meta: null, kernel_name: my::scale}]\n"),
              HasSubstr("kernels.yaml:2: error: out variants only: my::scale must take its result as the last argument"));
  EXPECT_THAT(errorOf("- func: my::scale.out(Tensor self, Tensor(a!) out) -> Tensor(a!)\n"
                      "  kernels: [{arg_meta: null, kernel_name: my::scale_out}]\n"),
              HasSubstr("kernels.yaml:1: error: out variants only"));
}

TEST_F(KernelYamlRules, RequireTensorOrNothingReturned) {
  EXPECT_THAT(errorOf("- func: my::count.out(Tensor self, *, Tensor(a!) out) -> int\n"
                      "  kernels: [{arg_meta: null, kernel_name: my::count_out}]\n"),
              HasSubstr("kernels.yaml:1: error: returns Tensor or (): my::count.out returns (int)"));
  EXPECT_EQ(errorOf("- func: my::fill.out(Tensor self, *, Tensor(a!) out) -> ()\n"
                    "  kernels: [{arg_meta: null, kernel_name: my::fill_out}]\n"),
            "");
}

TEST_F(KernelYamlRules, RejectArgumentTypesKernelsCannotTake) {
  EXPECT_THAT(errorOf("- func: my::f.out(Tensor self, Layout l, *, Tensor(a!) out) -> Tensor(a!)\n"
                      "  kernels: [{arg_meta: null, kernel_name: my::f_out}]\n"),
              HasSubstr("kernels.yaml:1: error: argument type: my::f.out argument 'l' has type Layout"));
  EXPECT_THAT(errorOf("- func: my::f.out(Tensor self, Scalar[] s, *, Tensor(a!) out) -> Tensor(a!)\n"
                      "  kernels: [{arg_meta: null, kernel_name: my::f_out}]\n"),
              HasSubstr("argument 's' has type Scalar[]"));
}

TEST_F(KernelYamlRules, ReportUnknownTypesAsSchemaErrors) {
  EXPECT_THAT(errorOf("\n- func: my::f.out(Tensor self, Widget w, *, Tensor(a!) out) -> Tensor(a!)\n"
                      "  kernels: [{arg_meta: null, kernel_name: my::f_out}]\n"),
              HasSubstr("kernels.yaml:2: error: schema: "));
}

TEST_F(KernelYamlRules, RejectUndefinedAliases) {
  EXPECT_THAT(errorOf(std::string(kScale) + "  type_alias:\n    T0: [Float]\n  dim_order_alias:\n    D0: [0]\n"
                                            "  kernels:\n    - arg_meta:\n        self: [T1, D0]\n        out: [T0, D0]\n"
                                            "      kernel_name: my::scale_out\n"),
              HasSubstr("kernels.yaml:8: error: undefined alias: type alias T1 (for 'self') is not defined"));
  EXPECT_THAT(errorOf(std::string(kScale) + "  type_alias:\n    T0: [Float]\n"
                                            "  kernels:\n    - arg_meta:\n        self: [T0, D0]\n        out: [T0, D0]\n"
                                            "      kernel_name: my::scale_out\n"),
              HasSubstr("kernels.yaml:6: error: undefined alias: dim order alias D0 (for 'self')"));
}

TEST_F(KernelYamlRules, RejectDuplicateKernelKeys) {
  EXPECT_THAT(errorOf(std::string(kScale) + "  type_alias:\n    T0: [Float, Double]\n    T1: [Double]\n"
                                            "  dim_order_alias:\n    D0: [0]\n  kernels:\n"
                                            "    - arg_meta: {self: [T0, D0], out: [T0, D0]}\n      kernel_name: my::a\n"
                                            "    - arg_meta: {self: [T1, D0], out: [T1, D0]}\n      kernel_name: my::b\n"),
              HasSubstr("kernels.yaml:11: error: duplicate kernel key: my::scale.out key v1/7;0|7;0 (my::native::b) is "
                        "already bound to my::native::a at "));
  EXPECT_THAT(errorOf(std::string(kScale) + "  kernels:\n    - {arg_meta: null, kernel_name: my::a}\n"
                                            "    - {arg_meta: null, kernel_name: my::b}\n"),
              HasSubstr("kernels.yaml:4: error: duplicate kernel key: my::scale.out key default"));
}

TEST_F(KernelYamlRules, RejectUnknownDtypesAndBadDimOrders) {
  EXPECT_THAT(errorOf(std::string(kScale) + "  type_alias:\n    T0: [Float, Quaternion]\n  kernels:\n    - {arg_meta: null, kernel_name: my::a}\n"),
              HasSubstr("kernels.yaml:3: error: type_alias: unknown dtype 'Quaternion' in T0"));
  EXPECT_THAT(errorOf(std::string(kScale) + "  dim_order_alias:\n    D0: [0, 2]\n  kernels:\n    - {arg_meta: null, kernel_name: my::a}\n"),
              HasSubstr("kernels.yaml:3: error: dim_order_alias: D0 is not a permutation"));
}

TEST_F(KernelYamlRules, RequireArgMetaForEveryTensorArgumentAndOnlyThose) {
  const std::string aliases = "  type_alias:\n    T0: [Float]\n  dim_order_alias:\n    D0: [0]\n  kernels:\n";
  EXPECT_THAT(errorOf(std::string(kScale) + aliases + "    - arg_meta:\n        self: [T0, D0]\n      kernel_name: my::a\n"),
              HasSubstr("kernels.yaml:8: error: arg_meta: gives no [type, dim order] for Tensor argument 'out'"));
  EXPECT_THAT(errorOf(std::string(kScale) + aliases +
                      "    - arg_meta:\n        self: [T0, D0]\n        factor: [T0, D0]\n        out: [T0, D0]\n      kernel_name: my::a\n"),
              HasSubstr("kernels.yaml:9: error: arg_meta: 'factor' of my::scale.out is float"));
}

TEST_F(KernelYamlRules, ResolveOpEntriesAgainstExistingOperators) {
  EXPECT_EQ(errorOf("- op: mul.out\n  kernels: [{arg_meta: null, kernel_name: my::mul_out}]\n"), "");
  EXPECT_THAT(errorOf("- op: mull.out\n  kernels: [{arg_meta: null, kernel_name: my::mul_out}]\n"),
              HasSubstr("kernels.yaml:1: error: unknown operator: aten::mull.out is not an existing operator"));
  EXPECT_THAT(errorOf("- func: mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"
                      "  kernels: [{arg_meta: null, kernel_name: my::mul_out}]\n"),
              HasSubstr("error: duplicate operator: aten::mul.out already exists"));
}

TEST_F(KernelYamlRules, RejectUnknownFieldsAndBadKernelNames) {
  EXPECT_THAT(errorOf(std::string(kScale) + "  kernel:\n    - {arg_meta: null, kernel_name: my::a}\n"),
              HasSubstr("kernels.yaml:2: error: unknown field: 'kernel'"));
  EXPECT_THAT(errorOf(std::string(kScale) + "  kernels:\n    - {arg_meta: null, kernel_name: 'my::scale-out'}\n"),
              HasSubstr("kernels.yaml:3: error: kernel_name: 'my::scale-out' is not a C++ function name"));
}

TEST_F(KernelYamlRules, ReportYamlSyntaxErrorsWithTheLine) {
  EXPECT_THAT(errorOf("- op: mul.out\n  kernels: [{arg_meta: null\n"), HasSubstr("kernels.yaml:3: error: YAML syntax"));
}

constexpr const char* kAbs =
    "# The unary operators.\n"
    "- func: abs(Tensor self) -> Tensor\n"
    "  kernels: [{arg_meta: null, kernel_name: sy::cpu::abs_cpu}]\n"
    "- func: abs_(Tensor(a!) self) -> Tensor(a!)\n"
    "  kernels: [{arg_meta: null, kernel_name: sy::cpu::abs_inplace_cpu}]\n"
    "- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  kernels: [{arg_meta: null, kernel_name: sy::cpu::abs_out_cpu}]\n";

TEST_F(OwnedOperatorYaml, RegistersDefaultKernelsOnTheKeyWithTheYamlLine) {
  GeneratedFiles files = generate(parse(kAbs), OperatorSelection{});
  EXPECT_TRUE(files.owns_operators);
  EXPECT_THAT(files.register_operators_cpp,
              HasSubstr("m.def(\"aten::abs_(Tensor(a!) self) -> Tensor(a!)\", ::sy::SourceLocation{\"kernels.yaml\", 4});"));
  EXPECT_THAT(files.register_operators_cpp,
              HasSubstr("SY_LIBRARY_IMPL(aten, CPU, m) {\n"
                        "  m.impl(\"aten::abs\", ::sy::withContext<&::sy::cpu::native::abs_cpu, &kContext_aten__abs>(), "
                        "::sy::SourceLocation{\"kernels.yaml\", 3});"));
  // The context names the operator and the form the kernel runs in (dispatcher/kernel_context.h).
  EXPECT_THAT(files.register_operators_cpp,
              HasSubstr("constexpr ::sy::KernelContext kContext_aten__abs_{\"aten::abs_\", ::sy::OutputForm::InPlace};"));
  // No partial kernel registry for default kernels, and one translation unit for everything.
  EXPECT_THAT(files.register_operators_cpp, ::testing::Not(HasSubstr("PartialKernelRegistry")));
  EXPECT_EQ(files.register_kernels_cpp, "");
  EXPECT_THAT(files.native_functions_h, HasSubstr("namespace sy::cpu::native {"));
  // Protected visibility: see Note [Owned kernels bind directly inside their library].
  EXPECT_THAT(files.native_functions_h,
              HasSubstr("SY_NATIVE_KERNEL ::sy::Tensor& abs_out_cpu(const ::sy::Tensor& self, ::sy::Tensor& out, "
                        "const ::sy::KernelContext& ctx);"));
}

TEST_F(OwnedOperatorYaml, NamesHelpersAsAtDoesWithCachedHandles) {
  GeneratedFiles files = generate(parse(std::string(kAbs) +
                                        "- func: clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor\n"
                                        "  cpp_no_default_args: [min]\n"
                                        "- func: clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor\n"),
                                  OperatorSelection{});
  EXPECT_THAT(files.functions_h, HasSubstr("::sy::Tensor abs(const ::sy::Tensor& self);"));
  EXPECT_THAT(files.functions_h, HasSubstr("::sy::Tensor& abs_(::sy::Tensor& self);"));
  EXPECT_THAT(files.functions_h, HasSubstr("::sy::Tensor& abs_out(::sy::Tensor& out, const ::sy::Tensor& self);"));
  EXPECT_THAT(files.functions_h, HasSubstr("::sy::Tensor clamp(const ::sy::Tensor& self, const ::std::optional<::sy::Scalar>& min, "
                                           "const ::std::optional<::sy::Scalar>& max = ::std::nullopt);"));
  EXPECT_THAT(files.functions_h, HasSubstr("::sy::Tensor clamp(const ::sy::Tensor& self, const ::std::optional<::sy::Tensor>& min = "
                                           "::std::nullopt, const ::std::optional<::sy::Tensor>& max = ::std::nullopt);"));
  // The handle is made once, at namespace scope; the helper is one call through it.
  EXPECT_THAT(files.functions_cpp, HasSubstr("const auto handle_abs_inplace = ::sy::Dispatcher::singleton().staticTypedHandle<"
                                             "::sy::Tensor&(::sy::Tensor&)>(\"aten::abs_\", \"\");"));
  EXPECT_THAT(files.functions_cpp, HasSubstr("::sy::Tensor& abs_out(::sy::Tensor& out, const ::sy::Tensor& self) { return "
                                             "handle_abs_out.call(self, out); }"));
  // Schema-only entries (kernels registered by hand) still get their helper.
  EXPECT_THAT(files.register_operators_cpp, HasSubstr("\"aten::clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor\""));
}

TEST_F(OwnedOperatorYaml, ReportBrokenRulesWithTheFileAndLine) {
  EXPECT_THAT(errorOf("\n- func: abs_(Tensor self) -> Tensor\n"),
              HasSubstr("kernels.yaml:2: error: in-place variant: aten::abs_ ends in '_', so it works in place"));
  EXPECT_THAT(errorOf("- func: abs.out(Tensor self, Tensor out) -> Tensor\n"),
              HasSubstr("kernels.yaml:1: error: out variant: aten::abs.out is named as an out variant"));
  EXPECT_THAT(errorOf("- func: abs.result(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"),
              HasSubstr("kernels.yaml:1: error: out variant: aten::abs.result writes a keyword-only argument"));
  EXPECT_THAT(errorOf("- func: clamp(Tensor self, Scalar? min=None) -> Tensor\n  cpp_no_default_args: [mn]\n"),
              HasSubstr("kernels.yaml:2: error: cpp_no_default_args: aten::clamp has no argument 'mn'"));
  EXPECT_THAT(errorOf("- func: clamp(Tensor self, Scalar? min) -> Tensor\n  cpp_no_default_args: [min]\n"),
              HasSubstr("kernels.yaml:2: error: cpp_no_default_args: 'min' of aten::clamp has no default"));
  EXPECT_THAT(errorOf(std::string(kAbs) + "- func: abs(Tensor self) -> Tensor\n"),
              HasSubstr("kernels.yaml:8: error: duplicate operator: aten::abs also has an entry at kernels.yaml:2"));
  EXPECT_THAT(errorOf("- func: abs(Tensor self) -> Tensor\n  kernels: [{arg_meta: null, kernel_name: 'sy::cpu::abs-cpu'}]\n"),
              HasSubstr("kernels.yaml:2: error: kernel_name: "));
  EXPECT_THAT(errorOf("- func: abs(Tensor self) -> Tensor\n  kernels: [{arg_meta: null, kernel_name: sy::cpu::a}, "
                      "{arg_meta: null, kernel_name: sy::cpu::b}]\n"),
              HasSubstr("kernels.yaml:2: error: duplicate kernel key: aten::abs key default"));
  // A kernel library may not define a schema-only operator.
  dispatch_key_ = "";
  EXPECT_THAT(errorOf("- func: my::f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"),
              HasSubstr("kernels.yaml:1: error: kernels: my::f.out needs `kernels:`"));
}

TEST_F(OwnedOperatorYaml, RejectHelpersCppCannotTellApart) {
  KernelLibrary library = parse("- func: fill.Scalar(Tensor self, Scalar value) -> Tensor\n"
                                "- func: fill.Value(Tensor self, Scalar value=0) -> Tensor\n");
  try {
    generate(library, OperatorSelection{});
    ADD_FAILURE() << "two helpers fill(const Tensor&, const Scalar&) were generated";
  } catch (const CodegenError& e) {
    EXPECT_THAT(e.what(), HasSubstr("kernels.yaml:2: error: helper overload: aten::fill.Value and aten::fill.Scalar "
                                    "(kernels.yaml:1) both give sy::ops::fill(const ::sy::Tensor&, const ::sy::Scalar&)"));
  }
}

// PyTorch's `manual_cpp_binding: True`: registered like any operator, but its helper is hand-written
// (so it may also resolve an overload clash such as fill's above).
TEST_F(OwnedOperatorYaml, LeaveTheHelperOfAManualCppBindingToHandWrittenCode) {
  GeneratedFiles files = generate(parse("- func: fill.Scalar(Tensor self, Scalar value) -> Tensor\n"
                                        "  kernels: [{arg_meta: null, kernel_name: sy::cpu::fill_cpu}]\n"
                                        "- func: fill.Value(Tensor self, Scalar value=0) -> Tensor\n"
                                        "  manual_cpp_binding: True\n"
                                        "  kernels: [{arg_meta: null, kernel_name: sy::cpu::fill_value_cpu}]\n"),
                                  OperatorSelection{});
  EXPECT_THAT(files.register_operators_cpp, HasSubstr("m.def(\"aten::fill.Value(Tensor self, Scalar value=0) -> Tensor\""));
  EXPECT_THAT(files.register_operators_cpp, HasSubstr("m.impl(\"aten::fill.Value\", ::sy::withContext<&::sy::cpu::native::fill_value_cpu, "));
  EXPECT_THAT(files.native_functions_h, HasSubstr("fill_value_cpu(const ::sy::Tensor& self, const ::sy::Scalar& value, const ::sy::KernelContext& ctx);"));
  EXPECT_THAT(files.functions_h, HasSubstr("::sy::Tensor fill(const ::sy::Tensor& self, const ::sy::Scalar& value);"));
  EXPECT_THAT(files.functions_h, ::testing::Not(HasSubstr("fill.Value")));
  EXPECT_THAT(files.functions_cpp, ::testing::Not(HasSubstr("handle_fill_Value")));
}

// An `int[]?` argument: the helper takes sy::OptionalIntArrayRef, as at:: takes at::OptionalIntArrayRef,
// so sum(x, {0, 1}) compiles; the handle (the kernels' signature) still gets std::optional<IntArrayRef>.
TEST_F(OwnedOperatorYaml, TakeOptionalDimListsAsOptionalIntArrayRef) {
  GeneratedFiles files = generate(parse("- func: sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False) -> Tensor\n"
                                        "  kernels: [{arg_meta: null, kernel_name: sy::cpu::sum_dim_cpu}]\n"),
                                  OperatorSelection{});
  EXPECT_THAT(files.functions_h,
              HasSubstr("::sy::Tensor sum(const ::sy::Tensor& self, ::sy::OptionalIntArrayRef dim, bool keepdim = false);"));
  EXPECT_THAT(files.functions_h, HasSubstr("#include \"switchyard/ivalue/optional_int_array_ref.h\""));
  EXPECT_THAT(files.functions_cpp, HasSubstr("staticTypedHandle<::sy::Tensor(const ::sy::Tensor&, ::std::optional<::sy::IntArrayRef>, bool)>"));
  EXPECT_THAT(files.functions_cpp, HasSubstr("return handle_sum_dim_IntList.call(self, dim.get(), keepdim); }"));
  EXPECT_THAT(files.native_functions_h,
              HasSubstr("sum_dim_cpu(const ::sy::Tensor& self, ::std::optional<::sy::IntArrayRef> dim, bool keepdim, "
                        "const ::sy::KernelContext& ctx);"));
}

TEST_F(OwnedOperatorYaml, RejectAManualCppBindingThatIsNotABooleanOrHasNoHelper) {
  EXPECT_THAT(errorOf("- func: abs(Tensor self) -> Tensor\n  manual_cpp_binding: maybe\n"),
              HasSubstr("kernels.yaml:2: error: manual_cpp_binding: expected True or False for aten::abs"));
  EXPECT_THAT(errorOf("- op: mul.out\n  manual_cpp_binding: True\n  kernels: [{arg_meta: null, kernel_name: my::mul_out}]\n"),
              HasSubstr("kernels.yaml:2: error: manual_cpp_binding: aten::mul.out is an `op:` entry"));
  EXPECT_EQ(errorOf("- func: abs(Tensor self) -> Tensor\n  manual_cpp_binding: False\n"), "");
}

}  // namespace
}  // namespace sy::codegen
