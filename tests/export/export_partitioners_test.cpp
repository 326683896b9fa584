// The ready-made partitioners: whole program, groups of supported operators (connected, maximal,
// never leaving and re-entering themselves), explicit node groups; and the dependency analysis
// they share with to_backend.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "export/export_models.h"
#include "switchyard/export/node_dependencies.h"
#include "switchyard/export/partitioners.h"
#include "test_support.h"

namespace sy::export_ {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::randomTensor;

const DelegationSpec kDemoSpec{"BackendWithCompilerDemo", {CompileSpec::ofString("max_value", "4")}};

// The delegation tag of the node called `name`.
std::string tagOf(const PartitionResult& r, const std::string& name) {
  const Graph& g = r.tagged_exported_program.graph();
  return g.node(*g.findNode(name)).meta.delegation_tag;
}

// a = add(x, y); s = sin(a); r = relu(s); m = mul(s, r); out = add(m, x)
ExportedProgram addSinReluMul() {
  auto model = [](const std::vector<Tensor>& in) {
    Tensor s = ops::sin(ops::add(in[0], in[1]));
    return std::vector<Tensor>{ops::add(ops::mul(s, ops::relu(s)), in[0])};
  };
  return capture(model, {randomTensor({3}, 1), randomTensor({3}, 2)});
}

TEST(WholeProgramPartitioner, TagsEveryCallNodeForItsBackendAndNothingElse) {
  ExportedProgram ep = addSinReluMul();
  PartitionResult r = WholeProgramPartitioner(kDemoSpec).partition(ep);
  for (const Node& n : r.tagged_exported_program.graph().nodes()) {
    EXPECT_EQ(n.meta.delegation_tag, n.kind == NodeKind::CallFunction ? "tag0" : "") << n.name;
  }
  ASSERT_EQ(r.partition_tags.size(), 1u);
  EXPECT_EQ(r.partition_tags.at("tag0").backend_id, "BackendWithCompilerDemo");
  EXPECT_EQ(r.partition_tags.at("tag0").compile_specs, kDemoSpec.compile_specs);
  for (const Node& n : ep.graph().nodes()) EXPECT_EQ(n.meta.delegation_tag, "") << "the given program was changed";
}

TEST(OperatorSupportPartitioner, MatchesOperatorNamesWithOrWithoutTheirOverload) {
  ExportedProgram ep = addSinReluMul();
  auto by_name = OperatorSupportPartitioner::byOperatorNames({"aten::add", "aten::sin"});
  auto by_overload = OperatorSupportPartitioner::byOperatorNames({"aten::add.Scalar", "aten::mul.Tensor"});
  const Graph& g = ep.graph();
  EXPECT_TRUE(by_name(ep, *g.findNode("add")));
  EXPECT_TRUE(by_name(ep, *g.findNode("sin")));
  EXPECT_FALSE(by_name(ep, *g.findNode("mul")));
  EXPECT_FALSE(by_overload(ep, *g.findNode("add")));  // aten::add.Tensor
  EXPECT_TRUE(by_overload(ep, *g.findNode("mul")));
}

TEST(OperatorSupportPartitioner, GroupsConnectedSupportedNodesIntoOneTagEach) {
  // add -> sin are connected; relu is unsupported; mul -> add_1 are connected to sin too, but
  // merging sin with mul would leave through relu and come back, so mul and add_1 are a group of their own.
  ExportedProgram ep = addSinReluMul();
  PartitionResult r =
      OperatorSupportPartitioner(kDemoSpec, OperatorSupportPartitioner::byOperatorNames({"aten::add", "aten::sin", "aten::mul"}))
          .partition(ep);
  EXPECT_EQ(tagOf(r, "add"), "tag0");
  EXPECT_EQ(tagOf(r, "sin"), "tag0");
  EXPECT_EQ(tagOf(r, "relu"), "");
  EXPECT_EQ(tagOf(r, "mul"), "tag1");
  EXPECT_EQ(tagOf(r, "add_1"), "tag1");
  EXPECT_EQ(r.partition_tags.size(), 2u);
  EXPECT_EQ(r.partition_tags.at("tag1").backend_id, "BackendWithCompilerDemo");
}

TEST(OperatorSupportPartitioner, NeverMakesAGroupThatLeavesAndReentersItself) {
  // a = add(x, x); r = relu(a); m = mul(a, r): add and mul are adjacent, but one group would
  // have to run relu both before and after itself.
  auto model = [](const std::vector<Tensor>& in) {
    Tensor a = ops::add(in[0], in[0]);
    return std::vector<Tensor>{ops::mul(a, ops::relu(a))};
  };
  ExportedProgram ep = capture(model, {randomTensor({4}, 3)});
  PartitionResult r =
      OperatorSupportPartitioner(kDemoSpec, OperatorSupportPartitioner::byOperatorNames({"aten::add", "aten::mul"}), "demo")
          .partition(ep);
  EXPECT_EQ(tagOf(r, "add"), "demo0");
  EXPECT_EQ(tagOf(r, "mul"), "demo1");
  EXPECT_EQ(tagOf(r, "relu"), "");
}

TEST(OperatorSupportPartitioner, MergesAroundABranchWhoseOtherSideIsSupportedToo) {
  // a = add(x, x); s = sin(a); m = mul(a, s): the path from add to mul through sin stays inside.
  auto model = [](const std::vector<Tensor>& in) {
    Tensor a = ops::add(in[0], in[0]);
    return std::vector<Tensor>{ops::relu(ops::mul(a, ops::sin(a)))};
  };
  ExportedProgram ep = capture(model, {randomTensor({4}, 4)});
  PartitionResult r = OperatorSupportPartitioner(
                          kDemoSpec, OperatorSupportPartitioner::byOperatorNames({"aten::add", "aten::mul", "aten::sin"}))
                          .partition(ep);
  EXPECT_EQ(tagOf(r, "add"), "tag0");
  EXPECT_EQ(tagOf(r, "sin"), "tag0");
  EXPECT_EQ(tagOf(r, "mul"), "tag0");
  EXPECT_EQ(tagOf(r, "relu"), "");
  EXPECT_EQ(r.partition_tags.size(), 1u);
}

TEST(OperatorSupportPartitioner, TagsNothingWhenNothingIsSupported) {
  PartitionResult r =
      OperatorSupportPartitioner(kDemoSpec, [](const ExportedProgram&, NodeId) { return false; }).partition(addSinReluMul());
  EXPECT_TRUE(r.partition_tags.empty());
  for (const Node& n : r.tagged_exported_program.graph().nodes()) EXPECT_EQ(n.meta.delegation_tag, "");
}

TEST(NodeGroupsPartitioner, TagsEachGroupForItsOwnBackend) {
  NodeGroupsPartitioner p({{{"add", "sin"}, kDemoSpec}, {{"relu"}, DelegationSpec{"OtherBackend", {}}}});
  PartitionResult r = p.partition(addSinReluMul());
  EXPECT_EQ(tagOf(r, "add"), "group0");
  EXPECT_EQ(tagOf(r, "sin"), "group0");
  EXPECT_EQ(tagOf(r, "relu"), "group1");
  EXPECT_EQ(tagOf(r, "mul"), "");
  EXPECT_EQ(r.partition_tags.at("group0").backend_id, "BackendWithCompilerDemo");
  EXPECT_EQ(r.partition_tags.at("group1").backend_id, "OtherBackend");
}

TEST(NodeGroupsPartitioner, NamesAnUnknownNodeANodeInTwoGroupsAndAPlaceholder) {
  ExportedProgram ep = addSinReluMul();
  EXPECT_THAT(errorMessageOf([&] { NodeGroupsPartitioner(kDemoSpec, {{"add", "tanh"}}).partition(ep); }),
              HasSubstr("group 0 names node 'tanh', which the graph does not have"));
  EXPECT_THAT(errorMessageOf([&] { NodeGroupsPartitioner(kDemoSpec, {{"add"}, {"sin", "add"}}).partition(ep); }),
              HasSubstr("node 'add' is in two groups (group0 and group1)"));
  EXPECT_THAT(errorMessageOf([&] { NodeGroupsPartitioner(kDemoSpec, {{"input_0"}}).partition(ep); }),
              HasSubstr("only call_function nodes can be delegated, but 'input_0' is a placeholder node"));
  EXPECT_THAT(errorMessageOf([&] { NodeGroupsPartitioner(kDemoSpec, {{}}).partition(ep); }), HasSubstr("group 0 names no nodes"));
}

TEST(NodeDependencies, FindsThePathThatLeavesAGroupAndComesBack) {
  ExportedProgram ep = addSinReluMul();
  const Graph& g = ep.graph();
  NodeDependencies deps(g);
  std::vector<bool> group(g.nodes().size(), false);
  group[static_cast<size_t>(*g.findNode("sin"))] = group[static_cast<size_t>(*g.findNode("mul"))] = true;
  EXPECT_THAT(deps.pathLeavingAndReentering(group),
              ElementsAre(*g.findNode("sin"), *g.findNode("relu"), *g.findNode("mul")));
  group[static_cast<size_t>(*g.findNode("relu"))] = true;
  EXPECT_TRUE(deps.pathLeavingAndReentering(group).empty());
  EXPECT_THAT(deps.users(*g.findNode("sin")), ElementsAre(*g.findNode("relu"), *g.findNode("mul")));
  EXPECT_THAT(deps.producers(*g.findNode("mul")), ElementsAre(*g.findNode("sin"), *g.findNode("relu")));
}

}  // namespace
}  // namespace sy::export_
