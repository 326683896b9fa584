// `switchyard inspect --format dot` (tools/switchyard/graph_dot.h): one graph for the whole
// program, a cluster per method, so `| dot -Tsvg` writes one valid SVG; external (.ptd) parameters
// drawn as nodes of their own; and each edge starting where its value is written, by the operator's
// schema, not at the first instruction that names it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tools/cli_test_support.h"
#include "program/program_test_support.h"
#include "switchyard/program/program.h"
#include "switchyard/tools/switchyard/graph_dot.h"

namespace sy::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

size_t countInDot(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::vector<MethodMeta> methodMetasOf(const Program& program) {
  std::vector<MethodMeta> methods;
  for (const std::string& name : program.method_names()) methods.push_back(*program.method_meta(name));
  return methods;
}

TEST(CliGraphDot, AProgramOfSeveralMethodsIsOneGraphWithAClusterPerMethod) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor_training.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  const std::vector<MethodMeta> methods = methodMetasOf(*program);
  ASSERT_EQ(methods.size(), 4u);
  const std::string dot = methodsToDot(methods, "xor_training.pte");
  EXPECT_EQ(countInDot(dot, "digraph "), 1u);
  EXPECT_THAT(dot, ::testing::StartsWith("digraph \"xor_training.pte\" {\n"));
  EXPECT_EQ(countInDot(dot, "subgraph cluster_method_"), 4u);
  EXPECT_THAT(dot, HasSubstr("label=\"method '__et_training_fqn_forward'\""));
  // Node ids are the method's own: forward's first instruction and another method's cannot clash.
  EXPECT_THAT(dot, HasSubstr("  m0_i0 [label=\"aten::permute_copy.out"));
  EXPECT_EQ(countInDot(dot, "{"), countInDot(dot, "}"));
  EXPECT_THAT(dot, ::testing::EndsWith("}\n"));
}

TEST(CliGraphDot, ExternalParametersAreDrawnAndReadNotWrittenByTheirFirstReader) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor_training.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  const std::string dot = methodsToDot({*program->method_meta("forward")}, "xor_training.pte");
  // %0 is net.linear.weight: planned memory loaded from the .ptd, read by permute_copy (instruction
  // 0) and returned as output 6. It was drawn as written by permute_copy: "i0 -> out6".
  EXPECT_THAT(dot, HasSubstr("  v0 [shape=cylinder, style=filled, fillcolor=\"#fff4cc\", fontsize=8, "
                             "label=\"parameter 'net.linear.weight' (.ptd)\\n%0 Float[10, 2]\"];"));
  EXPECT_THAT(dot, HasSubstr("  v0 -> i0 [label=\"%0 Float[10, 2] planned\"];"));
  EXPECT_THAT(dot, HasSubstr("  v0 -> out6;"));
  EXPECT_THAT(dot, Not(HasSubstr("  i0 -> out6;")));
  EXPECT_THAT(dot, HasSubstr("parameter 'net.linear2.bias' (.ptd)"));
  // permute_copy writes %7, which addmm (instruction 1) reads.
  EXPECT_THAT(dot, HasSubstr("  i0 -> i1 [label=\"%7 Float[2, 10] planned\"];"));
}

TEST(CliGraphDot, InspectPrintsOneGraphOrTheOneMethodAsked) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "xor_training.pte");
  using sy::testing::cli::runCli;
  sy::testing::cli::Result all = runCli("inspect " + path + " --format dot");
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(countInDot(all.out, "digraph "), 1u);
  sy::testing::cli::Result one = runCli("inspect " + path + " --format dot --method forward");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_THAT(one.out, ::testing::StartsWith("digraph \"forward\" {\n"));
  EXPECT_THAT(one.out, Not(HasSubstr("cluster_method_")));
  sy::testing::cli::Result text = runCli("inspect " + path + " --method forward");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("1 method(s): forward"));
  sy::testing::cli::expectOneLineError(runCli("inspect " + path + " --method nope"), "has no method 'nope'");
}

}  // namespace
}  // namespace sy::cli
