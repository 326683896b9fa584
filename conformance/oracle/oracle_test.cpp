// The PyTorch oracle as GoogleTest tests: one test per operator of each case entry
// (Oracle/aten_add_out.AgreesWithPyTorch), the coverage check that every operator Switchyard
// registers has an entry, and the schema comparison.
#include <gtest/gtest.h>

#include "absl/strings/str_join.h"

#include <cctype>
#include <iostream>
#include <set>

#include "allocation_counter.h"
#include "switchyard/conformance/oracle/cases/cases.h"
#include "switchyard/conformance/oracle/oracle_runner.h"
#include "switchyard/conformance/oracle/random_check.h"
#include "switchyard/conformance/oracle/torch_bridge.h"
#include "switchyard/dispatcher/dispatcher.h"

namespace sy::oracle {

// How GoogleTest prints a random case (found by argument-dependent lookup).
void PrintTo(const RandomCase& c, std::ostream* os) { *os << c.op; }

namespace {

struct OpUnderTest {
  const OpCase* entry;
  std::string op;
  std::string name;  // the test's name
};

// "aten::add_.Tensor" -> "aten_add_inplace_Tensor".
std::string identifier(std::string text) {
  for (size_t at = text.find("_."); at != std::string::npos; at = text.find("_.", at)) text.replace(at, 2, "_inplace.");
  if (!text.empty() && text.back() == '_' && text.find(' ') == std::string::npos) text += "inplace";
  std::string name;
  for (char ch : text) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      name += ch;
    } else if (!name.empty() && name.back() != '_') {
      name += '_';
    }
  }
  while (!name.empty() && name.back() == '_') name.pop_back();
  return name;
}

std::vector<OpUnderTest> opsUnderTest() {
  std::vector<OpUnderTest> ops;
  std::set<std::string> names;
  for (const OpCase& entry : allCases()) {
    for (const std::string& op : entry.ops()) {
      std::string name = identifier(entry.label().empty() ? op : op + " " + entry.label());
      for (int i = 2; !names.insert(name).second; ++i) name = identifier(op + " " + entry.label()) + "_" + std::to_string(i);
      ops.push_back({&entry, op, name});
    }
  }
  return ops;
}

void PrintTo(const OpUnderTest& op, std::ostream* os) { *os << op.op; }

class Oracle : public ::testing::TestWithParam<OpUnderTest> {};

TEST_P(Oracle, AgreesWithPyTorch) {
  const Report report = runCase(*GetParam().entry, GetParam().op, oracleSeed(),
                                [](const std::function<void()>& fn) { return testing::allocationsDuring(fn); });
  std::cout << report.summary() << "\n";
  EXPECT_TRUE(report.ok()) << report.failure;
}

INSTANTIATE_TEST_SUITE_P(Operators, Oracle, ::testing::ValuesIn(opsUnderTest()),
                         [](const auto& info) { return info.param.name; });

class OracleRandom : public ::testing::TestWithParam<RandomCase> {};

TEST_P(OracleRandom, HasTheDistributionShapesAndSeedReproducibility) {
  const RandomReport report = checkRandom(GetParam());
  EXPECT_TRUE(report.ok()) << report.failure;
  if (report.ok() && !report.switchyard_ran) {
    GTEST_SKIP() << "PyTorch's side passes; Switchyard does not register " << GetParam().op << " yet";
  }
}

INSTANTIATE_TEST_SUITE_P(Operators, OracleRandom, ::testing::ValuesIn(randomCases()),
                         [](const auto& info) { return identifier(info.param.op); });

TEST(OracleSchemas, EachOperatorIsSpelledAsInPyTorchOrTheDifferenceIsDocumented) {
  std::map<std::string, std::string> documented;
  for (const SchemaDifference& d : schemaDifferences()) documented[d.op] = d.why;
  std::set<std::string> excluded;
  for (const Exclusion& e : exclusions()) excluded.insert(e.op);
  std::vector<std::string> undocumented;
  std::set<std::string> seen;
  for (const OperatorName& name : Dispatcher::singleton().getAllOpNames()) {
    const std::string op = name.toString();
    if (excluded.count(op)) continue;
    const std::string ours = Dispatcher::singleton().findSchema(name)->schema().toString();
    const std::optional<std::string> theirs = torchSchema(name);
    if (theirs && *theirs == ours) continue;
    seen.insert(op);
    const std::string difference =
        theirs ? str("\n  Switchyard:  ", ours, "\n  PyTorch 1.13: ", *theirs) : str("\n  ", ours, "\n  (not in PyTorch 1.13)");
    if (auto it = documented.find(op); it != documented.end()) {
      std::cout << op << ": " << it->second << difference << "\n";
    } else {
      undocumented.push_back(op + difference);
    }
  }
  EXPECT_TRUE(undocumented.empty()) << "schemas that differ from PyTorch 1.13's without a word in schemaDifferences():\n"
                                    << absl::StrJoin(undocumented, "\n");
  for (const auto& [op, why] : documented) {
    EXPECT_TRUE(seen.count(op)) << op << " is documented as differing from PyTorch 1.13, but no longer does";
  }
}

TEST(OracleCoverage, EveryRegisteredOperatorHasACaseOrAnExclusion) {
  std::set<std::string> covered;
  for (const OpCase& entry : allCases()) covered.insert(entry.ops().begin(), entry.ops().end());
  for (const Exclusion& e : exclusions()) covered.insert(e.op);
  for (const RandomCase& c : randomCases()) covered.insert(c.op);
  std::vector<std::string> missing;
  for (const OperatorName& name : Dispatcher::singleton().getAllOpNames()) {
    if (!covered.count(name.toString())) missing.push_back(name.toString());
  }
  EXPECT_TRUE(missing.empty()) << "operators without an oracle case (add one: see oracle_case.h): "
                               << ::testing::PrintToString(missing);
}

}  // namespace
}  // namespace sy::oracle
