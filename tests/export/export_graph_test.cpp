// The graph IR: building graphs by hand, the printer, inspect_node, and the errors for graphs that
// do not hold together.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/export/exported_program.h"
#include "switchyard/export/graph_printer.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy::export_ {
namespace {

using ::testing::HasSubstr;
using sy::testing::errorMessageOf;

OperatorHandle op(const char* name, const char* overload) {
  return Dispatcher::singleton().findSchemaOrThrow(name, overload);
}

// y = relu(x + w), with w a parameter; the add node carries a source location.
Graph smallGraph() {
  Graph g;
  const TensorMeta f23{ScalarType::Float, {2, 3}};
  ValueId x = g.addPlaceholder("x", InputKind::User, "", f23);
  ValueId w = g.addPlaceholder("w", InputKind::Parameter, "layer.w", f23);
  NodeMeta meta;
  meta.stack = {{"model.cpp", 10, "forward"}, {"model.cpp", 12, "forward"}};
  NodeId add = g.addCall(op("aten::add", "Tensor"),
                         {NodeArgument::ofValue(x), NodeArgument::ofValue(w), NodeArgument::ofConstant(IValue(1))}, {f23},
                         meta);
  NodeId relu = g.addCall(op("aten::relu", ""), {NodeArgument::ofValue(g.node(add).outputs[0])}, {f23}, {});
  g.setOutputs({g.node(relu).outputs[0]});
  return g;
}

TEST(ExportGraph, PrintsOneLinePerNodeWithTypesArgumentsAndSourceLines) {
  EXPECT_EQ(toString(smallGraph()),
            "graph():\n"
            "    %x : Float[2, 3] = placeholder[user input]\n"
            "    %w : Float[2, 3] = placeholder[parameter 'layer.w']\n"
            "    %add : Float[2, 3] = aten::add.Tensor(%x, %w, 1)  # model.cpp:12 (in forward)\n"
            "    %relu : Float[2, 3] = aten::relu(%add)\n"
            "    return (%relu)\n");
}

TEST(ExportGraph, GivesCallNodesDebugHandlesFromOneInOrder) {
  Graph g = smallGraph();
  EXPECT_EQ(g.node(*g.findNode("add")).meta.debug_handle, 1);
  EXPECT_EQ(g.node(*g.findNode("relu")).meta.debug_handle, 2);
  EXPECT_EQ(g.findByDebugHandle(2), g.findNode("relu"));
  EXPECT_EQ(g.node(*g.findNode("x")).meta.debug_handle, 0);
}

TEST(ExportGraph, InspectNodePointsAtTheNodeAndShowsItsMetadataAndStack) {
  Graph g = smallGraph();
  g.mutableNode(*g.findNode("add")).meta.delegation_tag = "tag0";
  const std::string text = inspect_node(g, "add");
  EXPECT_THAT(text, HasSubstr("    %w : Float[2, 3]"));
  EXPECT_THAT(text, HasSubstr("--> %add : Float[2, 3] = aten::add.Tensor(%x, %w, 1)  [tag tag0]  # model.cpp:12"));
  EXPECT_THAT(text, HasSubstr("node 'add': call_function\n"));
  EXPECT_THAT(text, HasSubstr("  schema: aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"));
  EXPECT_THAT(text, HasSubstr("  debug handle: 1\n"));
  EXPECT_THAT(text, HasSubstr("  delegation tag: tag0\n"));
  EXPECT_THAT(text, HasSubstr("  source: model.cpp:12 (in forward)\n"));
  EXPECT_THAT(text, HasSubstr("  stack (outermost first):\n    model.cpp:10 (in forward)\n    model.cpp:12 (in forward)\n"));
  EXPECT_THAT(text, HasSubstr("  users: relu\n"));
}

TEST(ExportGraph, InspectNodeOfANodeWithoutSourceSaysSo) {
  EXPECT_THAT(inspect_node(smallGraph(), "relu"), HasSubstr("  source: unknown (made outside every SourceScope)\n"));
}

TEST(ExportGraph, InspectNodeOfAnUnknownNameListsTheNodes) {
  Graph g = smallGraph();
  EXPECT_EQ(errorMessageOf([&] { inspect_node(g, "conv"); }),
            "inspect_node: the graph has no node called 'conv'; its nodes are x, w, add, relu, output");
  EXPECT_THAT(errorMessageOf([&] { inspect_node(g, NodeId{17}); }), HasSubstr("node 17 is out of range"));
}

TEST(ExportGraph, KeepsPlaceholdersFirstWhenOneIsAddedLater) {
  Graph g = smallGraph();
  ValueId c = g.addPlaceholder("_tensor_constant0", InputKind::Constant, "_tensor_constant0", {ScalarType::Float, {3}});
  ValueId x2 = g.addPlaceholder("x", InputKind::User, "", {ScalarType::Float, {3}});
  std::vector<std::string> names;
  for (const Node& n : g.nodes()) names.push_back(n.name);
  EXPECT_EQ(names, (std::vector<std::string>{"x", "x_1", "w", "_tensor_constant0", "add", "relu", "output"}));
  EXPECT_EQ(g.node(g.producer(c)).name, "_tensor_constant0");
  EXPECT_EQ(g.node(g.producer(x2)).name, "x_1");
  EXPECT_EQ(g.node(g.producer(g.outputs()[0])).name, "relu");
  g.validate();
}

TEST(ExportGraph, RefusesACallWhoseArgumentsDoNotFitTheSchema) {
  Graph g;
  ValueId x = g.addPlaceholder("x", InputKind::User, "", {ScalarType::Float, {2}});
  EXPECT_THAT(errorMessageOf([&] { g.addCall(op("aten::relu", ""), {}, {{ScalarType::Float, {2}}}, {}); }),
              HasSubstr("a call of aten::relu has 0 arguments, but its schema takes 1"));
  EXPECT_THAT(errorMessageOf([&] { g.addCall(op("aten::relu", ""), {NodeArgument::ofValue(x + 5)}, {{ScalarType::Float, {2}}}, {}); }),
              HasSubstr("a call of aten::relu reads value 5, but the graph has 1 values"));
}

TEST(ExportGraph, ValidateRefusesAGraphWithoutOutput) {
  Graph g;
  g.addPlaceholder("x", InputKind::User, "", {ScalarType::Float, {2}});
  EXPECT_EQ(errorMessageOf([&] { g.validate(); }), "the graph has no output node");
}

TEST(ExportedProgram, RefusesAParameterPlaceholderWithoutItsTensor) {
  EXPECT_EQ(errorMessageOf([&] { ExportedProgram(smallGraph(), {}); }),
            "parameter placeholder 'w' stands for 'layer.w', which the program's state does not hold");
  EXPECT_EQ(errorMessageOf([&] { ExportedProgram(smallGraph(), {{"layer.w", sy::zeros({3})}}); }),
            "parameter 'layer.w' is a Float[3] tensor, but its placeholder 'w' is Float[2, 3]");
}

TEST(ExportedProgram, RunsItsGraphThroughTheDispatcher) {
  ExportedProgram ep(smallGraph(), {{"layer.w", sy::tensor<float>({-1, -1, -1, 1, 1, 1}, {2, 3})}});
  std::vector<Tensor> out = ep.run({sy::tensor<float>({0, 1, 2, 3, 4, 5}, {2, 3})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(sy::testing::doublesOf(out[0]), (std::vector<double>{0, 0, 1, 4, 5, 6}));
  EXPECT_EQ(errorMessageOf([&] { ep.run({sy::zeros({3})}); }),
            "ExportedProgram::run: input 0 ('x') must be Float[2, 3], but is Float[3]");
}

}  // namespace
}  // namespace sy::export_
