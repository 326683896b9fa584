// The `dtypes:` of a kernel YAML entry (codegen/dtype_sets.h): ExecuTorch's family names and dtype
// names become the set the generator writes beside the kernel's declaration; a bad name is an error
// at its line.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernel_yaml_test_support.h"
#include "switchyard/codegen/dtype_sets.h"
#include "switchyard/codegen/emit.h"

namespace sy::codegen {
namespace {

using ::testing::HasSubstr;

constexpr const char* kDtypeScale = "- func: my::scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)\n";
constexpr const char* kDtypeKernels = "  kernels:\n    - {arg_meta: null, kernel_name: my::scale_out}\n";

unsigned bitOf(ScalarType t) { return 1u << static_cast<int>(t); }

TEST_F(KernelYamlRules, ReadExecuTorchDtypeFamiliesAndDtypeNames) {
  KernelLibrary library = parse(std::string(kDtypeScale) + "  dtypes: FLOATHBF16\n" + kDtypeKernels);
  ASSERT_EQ(library.operators.size(), 1u);
  EXPECT_EQ(library.operators[0].dtypes, bitOf(ScalarType::Half) | bitOf(ScalarType::Float) |
                                             bitOf(ScalarType::Double) | bitOf(ScalarType::BFloat16));
  KernelLibrary listed = parse(std::string(kDtypeScale) + "  dtypes: [INT, Bool, Half]\n" + kDtypeKernels);
  EXPECT_EQ(dtypeSetText(listed.operators[0].dtypes), "Byte, Char, Short, Int, Long, Half, Bool");
  // ExecuTorch's ALL: the real dtypes, complex, quantized and bits.
  KernelLibrary all = parse(std::string(kDtypeScale) + "  dtypes: ALL\n" + kDtypeKernels);
  EXPECT_NE(all.operators[0].dtypes & bitOf(ScalarType::ComplexFloat), 0u);
  EXPECT_NE(all.operators[0].dtypes & bitOf(ScalarType::QInt8), 0u);
  EXPECT_EQ(all.operators[0].dtypes & bitOf(ScalarType::UInt16), 0u);
  KernelLibrary none = parse(std::string(kDtypeScale) + kDtypeKernels);
  EXPECT_EQ(none.operators[0].dtypes, 0u);
}

TEST_F(KernelYamlRules, WriteTheDtypeSetBesideTheKernelDeclaration) {
  KernelLibrary library = parse(std::string(kDtypeScale) + "  dtypes: [Float, Double]\n" + kDtypeKernels);
  const GeneratedFiles files = generate(library, OperatorSelection{});
  EXPECT_THAT(files.native_functions_h,
              HasSubstr("// computes Float, Double\ninline constexpr unsigned scale_out_dtypes = " +
                        std::to_string(bitOf(ScalarType::Float) | bitOf(ScalarType::Double)) + "u;\n"));
  EXPECT_THAT(generate(parse(std::string(kDtypeScale) + kDtypeKernels), OperatorSelection{}).native_functions_h,
              ::testing::Not(HasSubstr("scale_out_dtypes")));
}

TEST_F(KernelYamlRules, RecordTheDeclaredDtypesOfEachOperatorAndItsFormsForTheTools) {
  KernelLibrary library = parse("- func: my::scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)\n"
                                "  functional: true\n"
                                "  dtypes: [Float, Double]\n" + std::string(kDtypeKernels) +
                                "- func: my::shift.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                                "  kernels: [{arg_meta: null, kernel_name: my::shift_out}]\n");
  const std::string bits = std::to_string(bitOf(ScalarType::Float) | bitOf(ScalarType::Double));
  const std::string registered = generate(library, OperatorSelection{}).register_kernels_cpp;
  EXPECT_THAT(registered, HasSubstr("{\"my::scale.out\", " + bits + "u},\n    {\"my::scale\", " + bits + "u},\n};"));
  EXPECT_THAT(registered, HasSubstr("::sy::recordDeclaredDtypes(kDeclaredDtypes)"));
  EXPECT_THAT(registered, ::testing::Not(HasSubstr("\n    {\"my::shift.out\", ")));
}

TEST_F(KernelYamlRules, RequireDtypesOnEveryKernelWhenTheLibraryAsksForThem) {
  const KernelLibrary declared = parse(std::string(kDtypeScale) + "  dtypes: FLOAT\n" + kDtypeKernels);
  EXPECT_NO_THROW(requireDeclaredDtypes(declared));
  const KernelLibrary silent = parse(std::string(kDtypeScale) + kDtypeKernels);
  try {
    requireDeclaredDtypes(silent);
    ADD_FAILURE() << "an entry without dtypes passed";
  } catch (const CodegenError& e) {
    EXPECT_THAT(e.what(), HasSubstr("kernels.yaml:1: error: dtypes: my::scale.out has a kernel but no `dtypes:`"));
  }
}

TEST_F(KernelYamlRules, RejectUnknownRepeatedOrEmptyDtypes) {
  EXPECT_THAT(errorOf(std::string(kDtypeScale) + "  dtypes: REALISH\n" + kDtypeKernels),
              HasSubstr("kernels.yaml:2: error: dtypes: unknown dtype or family 'REALISH' (families: ALL, BOOL, FLOAT"));
  EXPECT_THAT(errorOf(std::string(kDtypeScale) + "  dtypes: [FLOAT, Double]\n" + kDtypeKernels),
              HasSubstr("kernels.yaml:2: error: dtypes: 'Double' repeats dtypes already named"));
  EXPECT_THAT(errorOf(std::string(kDtypeScale) + "  dtypes: []\n" + kDtypeKernels),
              HasSubstr("kernels.yaml:2: error: dtypes: names no dtype"));
  EXPECT_THAT(errorOf(std::string(kDtypeScale) + "  dtypes: [QInt8]\n" + kDtypeKernels),
              HasSubstr("unknown dtype or family 'QInt8'"));
  EXPECT_THAT(errorOf(std::string(kDtypeScale) + "  dtypes: {T: Float}\n" + kDtypeKernels),
              HasSubstr("kernels.yaml:2: error: dtypes: must be a dtype family"));
}

}  // namespace
}  // namespace sy::codegen
