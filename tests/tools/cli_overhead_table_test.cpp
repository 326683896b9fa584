// The overhead table of `switchyard bench` and `switchyard demo` (tools/switchyard/overhead_table.h):
// instruction counts lead, times are medians with their spread, and no row's extra over base is
// ever printed negative, however the noise falls.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/tools/switchyard/overhead_table.h"

namespace sy::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Three rows, one column: direct, base, and `extra` whose runs are `extra_ns`.
OverheadTable threeRowTable(std::vector<double> base_ns, std::vector<double> extra_ns) {
  OverheadTable t;
  t.rows = {"direct", "base", "fallthrough"};
  t.columns = {"acos.out"};
  t.ns_samples = {{{5, 5, 5, 5, 5}}, {std::move(base_ns)}, {std::move(extra_ns)}};
  return t;
}

TEST(OverheadTable, MediansAndSpreadsAreRobustToOneSlowRun) {
  EXPECT_DOUBLE_EQ(medianOf({3, 1, 2, 100, 2}), 2);
  EXPECT_DOUBLE_EQ(medianOf({1, 2, 3, 4}), 2.5);
  EXPECT_DOUBLE_EQ(spreadOf({10, 10, 10, 10, 1000}), 0);
  EXPECT_DOUBLE_EQ(spreadOf({1, 2, 3, 4, 5}), 1);  // quartiles 2 and 4
}

TEST(OverheadTable, ARowFasterThanBaseUnderLoadShowsNoNegativeExtra) {
  // Base's runs were slowed by load: the fallthrough row looks 80 ns cheaper.
  const std::string text = threeRowTable({100, 101, 99, 100, 100}, {20, 21, 19, 20, 20}).format();
  EXPECT_THAT(text, HasSubstr("fallthrough         20.0 ±0.0 (~0)"));
  EXPECT_THAT(text, Not(HasSubstr("(-")));
}

TEST(OverheadTable, AnExtraWithinTheNoiseIsShownAsAboutZero) {
  // Medians 20 and 21, each ±0.5: an extra of 1 is within the noise.
  const std::string text = threeRowTable({20, 22, 18, 20, 21}, {21, 23, 19, 21, 20}).format();
  EXPECT_THAT(text, HasSubstr("fallthrough         21.0 ±0.5 (~0)"));
}

TEST(OverheadTable, AnExtraBeyondTheNoiseIsShown) {
  const std::string text = threeRowTable({20, 20, 20, 20, 20}, {32, 33, 32, 32, 31}).format();
  EXPECT_THAT(text, HasSubstr("fallthrough         32.0 ±0.0 (+12.0)"));
  EXPECT_THAT(text, HasSubstr("base                20.0 ±0.0\n"));
}

TEST(OverheadTable, InstructionCountsLeadWithTheirExtraOverBase) {
  OverheadTable t = threeRowTable({20, 20, 20}, {20, 20, 20});
  t.instructions = std::vector<std::vector<double>>{{40}, {63}, {63}};
  const std::string text = t.format();
  EXPECT_THAT(text, HasSubstr("instructions/call   acos.out\n  direct              40\n  base                63\n"
                              "  fallthrough         63 (~0)\n"));
  EXPECT_LT(text.find("instructions/call"), text.find("ns/call"));
  t.instructions = std::nullopt;
  t.instructions_missing = "valgrind is not installed";
  EXPECT_THAT(t.format(), HasSubstr("instructions/call: not counted (valgrind is not installed)"));
}

}  // namespace
}  // namespace sy::cli
