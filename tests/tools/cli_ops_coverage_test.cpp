// `switchyard ops --coverage FILE.yaml`: which operators of a kernel YAML file (ExecuTorch's
// functions.yaml format, a user's custom_ops.yaml) this build registers, and which it lacks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tools/cli_test_support.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace sy::testing::cli;

TEST(CliOpsCoverage, SaysWhichOperatorsAreRegisteredAndWhichAreMissing) {
  const std::string yaml = writeTemp("coverage.yaml",
                                     "# ExecuTorch's format: op: for existing operators, func: for new ones\n"
                                     "- op: acos.out\n"
                                     "  kernels:\n"
                                     "    - arg_meta: null\n"
                                     "      kernel_name: torch::executor::acos_out\n"
                                     "- op: _cdist_forward_never_registered.out\n"
                                     "  kernels:\n"
                                     "    - arg_meta: null\n"
                                     "      kernel_name: torch::executor::cdist_out\n"
                                     "- func: quantized_decomposed::quantize_per_tensor.out(Tensor input, float scale, int "
                                     "zero_point, int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out) -> "
                                     "Tensor(a!)\n"
                                     "  variants: function\n"
                                     "- func: custom::frobnicate.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n");
  Result r = runCli("ops --coverage " + yaml);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Operators of " + yaml + " in this build:\n"));
  EXPECT_THAT(r.out, HasSubstr("  registered  aten::acos.out                                 here: Byte, Char, Short, "
                               "Int, Long, Half, Float, Double, Bool, BFloat16\n"));
  EXPECT_THAT(r.out, HasSubstr("  missing     aten::_cdist_forward_never_registered.out\n"));
  EXPECT_THAT(r.out, HasSubstr("  registered  quantized_decomposed::quantize_per_tensor.out  here: Float, Double\n"));
  EXPECT_THAT(r.out, HasSubstr("  missing     custom::frobnicate.out\n"));
  EXPECT_THAT(r.out, HasSubstr("missing (2): aten::_cdist_forward_never_registered.out, custom::frobnicate.out\n"));
  EXPECT_THAT(r.out, ::testing::EndsWith("2 of 4 registered\n"));
}

TEST(CliOpsCoverage, ShowsTheDtypesAnEntrysTypeAliasesDeclare) {
  const std::string yaml = writeTemp("coverage_dtypes.yaml",
                                     "- op: exp.out\n"
                                     "  type_alias: &float {T0: [Float, Double]}\n"
                                     "  dim_order_alias: {D0: [[0, 1]]}\n"
                                     "  kernels:\n"
                                     "    - arg_meta: {self: [T0, D0], out: [T0, D0]}\n"
                                     "      kernel_name: my::exp_out\n"
                                     "- op: exp.out\n"
                                     "  type_alias: {T0: [Int]}\n"
                                     "- op: missing_here.out\n"
                                     "  type_alias: {T0: [Long], T1: [Long, Bool]}\n");
  Result r = runCli("ops --coverage " + yaml);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("  registered  aten::exp.out           dtypes: Float, Double  here: Byte, Char, Short, "
                               "Int, Long, Half, Float, Double, Bool, BFloat16\n"));
  EXPECT_THAT(r.out, HasSubstr("  missing     aten::missing_here.out  dtypes: Long, Bool\n"));
  // An operator named twice is counted once.
  EXPECT_THAT(r.out, ::testing::EndsWith("1 of 2 registered\n"));
}

TEST(CliOpsCoverage, NamesTheFilesDtypesAnOperatorsKernelHereLacks) {
  // _softmax's kernel YAML declares FLOATHBF16 (reduction_ops.yaml); the file asks for Int too.
  const std::string yaml = writeTemp("coverage_lacks.yaml",
                                     "- op: _softmax.out\n"
                                     "  type_alias: {T0: [Float, Int]}\n"
                                     "- op: acos.out\n");
  Result r = runCli("ops --coverage " + yaml);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("  registered  aten::_softmax.out  dtypes: Float, Int  here: Half, Float, Double, BFloat16  "
                               "lacks: Int\n"));
  EXPECT_THAT(r.out, HasSubstr("  registered  aten::acos.out      here: Byte, Char,"));
  EXPECT_THAT(r.out, HasSubstr("registered without some of the file's dtypes (1): aten::_softmax.out\n"));
  EXPECT_THAT(r.out, ::testing::EndsWith("2 of 2 registered\n"));
}

TEST(CliOpsCoverage, AnEmptyFileNamesNoOperators) {
  Result r = runCli("ops --coverage " + writeTemp("coverage_empty.yaml", "# nothing yet\n"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::EndsWith("0 of 0 registered\n"));
}

TEST(CliOpsCoverage, BadInputIsAnErrorNamingTheFileAndTheEntry) {
  expectOneLineError(runCli("ops --coverage /nonexistent/functions.yaml"), "cannot open /nonexistent/functions.yaml");
  expectOneLineError(runCli("ops --coverage /tmp"), "/tmp is a directory, not a kernel YAML file");
  const std::string malformed = writeTemp("coverage_malformed.yaml", "- op: add.out\n  kernels: [unclosed\n");
  expectOneLineError(runCli("ops --coverage " + malformed), malformed + ":");
  expectOneLineError(runCli("ops --coverage " + malformed), "not valid YAML");
  const std::string map = writeTemp("coverage_map.yaml", "op: add.out\n");
  expectOneLineError(runCli("ops --coverage " + map), "its top level is not a list");
  const std::string nameless = writeTemp("coverage_nameless.yaml",
                                         "- op: add.out\n"
                                         "- kernels:\n"
                                         "    - arg_meta: null\n");
  expectOneLineError(runCli("ops --coverage " + nameless), nameless + ": entry 2 (line 2) has neither `op:` nor `func:`");
  const std::string scalar = writeTemp("coverage_scalar.yaml", "- op: add.out\n- just a string\n");
  expectOneLineError(runCli("ops --coverage " + scalar), scalar + ": entry 2 (line 2) is not a map");
  const std::string alias = writeTemp("coverage_alias.yaml", "- op: add.out\n  type_alias: {T0: Float}\n");
  expectOneLineError(runCli("ops --coverage " + alias), "entry 1 (line 1): type_alias T0 is not a list of dtypes");
  expectOneLineError(runCli("ops --coverage " + writeTemp("coverage_ok.yaml", "- op: add.out\n") + " aten::add"),
                     "ops --coverage takes no operator name");
}

TEST(CliOpsCoverage, TheHelpTextDescribesIt) {
  Result r = runCli("ops --help");
  ASSERT_EQ(r.status, 0);
  EXPECT_THAT(r.out, HasSubstr("switchyard ops --coverage FILE.yaml"));
  EXPECT_THAT(r.out, HasSubstr("\"N of M registered\""));
  EXPECT_THAT(r.out, HasSubstr("--coverage (default: \"\")"));
  EXPECT_THAT(r.out, Not(HasSubstr("--calls")));
}

}  // namespace
