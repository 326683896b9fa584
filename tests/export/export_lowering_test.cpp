// to_backend: partitions lowered through their backend's preprocess, each replaced by one delegate
// call that runs directly from C++; and every way a partitioner's result can be refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "export/export_delegate_support.h"
#include "switchyard/export/graph_printer.h"
#include "switchyard/export/lowering.h"
#include "switchyard/export/partitioners.h"
#include "test_support.h"

namespace sy::export_ {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::AddSinReluMul;
using sy::testing::errorMessageOf;
using sy::testing::expectCloseTo;
using sy::testing::randomTensor;
using sy::testing::recordingDemo;
using sy::testing::SharedConstant;

const DelegationSpec kDemo{"BackendWithCompilerDemo", {}};
const char* const kDelegate = "higher_order::executorch_call_delegate";

template <class Model>
ExportedProgram captured(const Model& model) {
  return capture(model.model(), {Model::exampleInput()}, model.parameters());
}

OperatorSupportPartitioner addMulSinPartitioner(DelegationSpec spec = kDemo) {
  return OperatorSupportPartitioner(std::move(spec),
                                    OperatorSupportPartitioner::byOperatorNames({"aten::add", "aten::mul", "aten::sin"}));
}

// The operator names of the graph's call nodes, in order.
std::vector<std::string> callsOf(const Graph& g) {
  std::vector<std::string> out;
  for (const Node& n : g.nodes()) {
    if (n.kind == NodeKind::CallFunction) out.push_back(n.op->operator_name().toString());
  }
  return out;
}

std::vector<std::string> placeholdersOf(const Graph& g) {
  std::vector<std::string> out;
  for (const Node& n : g.nodes()) {
    if (n.kind == NodeKind::Placeholder) out.push_back(sy::str(toString(n.input_kind), " ", n.name));
  }
  return out;
}

// A copy of `program` with one node's tag set however a partitioner could, bypassing setDelegationTag.
class RawTagPartitioner final : public Partitioner {
 public:
  RawTagPartitioner(std::string node, std::string tag) : node_(std::move(node)), tag_(std::move(tag)) {}
  PartitionResult partition(const ExportedProgram& program) const override {
    Graph g = program.graph();
    g.mutableNode(*g.findNode(node_)).meta.delegation_tag = tag_;
    return PartitionResult{ExportedProgram(std::move(g), program.state(), program.lowered_modules()), {{tag_, kDemo}}};
  }

 private:
  std::string node_, tag_;
};

// y = sin(mul(add(x, w), x)): everything the demo runs.
struct AllDemo {
  Tensor w = randomTensor({5}, 81);
  Tensor forward(const Tensor& x) const { return ops::sin(ops::mul(ops::add(x, w), x)); }
  Model model() const {
    return [this](const std::vector<Tensor>& in) { return std::vector<Tensor>{forward(in[0])}; };
  }
  std::vector<NamedTensor> parameters() const { return {{"w", w}}; }
  static Tensor exampleInput(uint32_t seed = 80) { return randomTensor({5}, seed); }
};

TEST(ToBackend, LowersAWholeProgramIntoOneDelegateCallThatRunsLikeTheModel) {
  AllDemo model;
  ExportedProgram ep = captured(model);
  ExportedProgram lowered = to_backend("BackendWithCompilerDemo", ep, {CompileSpec::ofString("max_value", "4")});
  EXPECT_EQ(callsOf(lowered.graph()), std::vector<std::string>{kDelegate});
  EXPECT_THAT(placeholdersOf(lowered.graph()), ElementsAre("user input input_0"));  // w went into the delegate
  ASSERT_EQ(lowered.lowered_modules().size(), 1u);
  const LoweredModule& m = *lowered.lowered_modules()[0];
  EXPECT_EQ(m.backend_id, "BackendWithCompilerDemo");
  EXPECT_EQ(m.compile_specs, (std::vector<CompileSpec>{CompileSpec::ofString("max_value", "4")}));
  EXPECT_EQ(callsOf(m.original_program->graph()), callsOf(ep.graph()));
  EXPECT_TRUE(m.original_program->state().at("w").is_same(model.w));
  for (uint32_t seed : {1u, 2u}) {
    const Tensor x = AllDemo::exampleInput(seed);
    expectCloseTo(lowered.run({x})[0], model.forward(x));
  }
  EXPECT_EQ(callsOf(ep.graph()), (std::vector<std::string>{"aten::add.Tensor", "aten::mul.Tensor", "aten::sin"}))
      << "the given program was changed";
}

TEST(ToBackend, APartlyLoweredModelHasNoLoweredOperatorOutsideAndOneDelegateCallPerPartition) {
  AddSinReluMul model;
  ExportedProgram ep = captured(model);
  ExportedProgram lowered = to_backend(ep, addMulSinPartitioner());
  EXPECT_EQ(callsOf(lowered.graph()), (std::vector<std::string>{kDelegate, "aten::relu", kDelegate}));
  ASSERT_EQ(lowered.lowered_modules().size(), 2u);
  EXPECT_EQ(callsOf(lowered.lowered_modules()[0]->original_program->graph()),
            (std::vector<std::string>{"aten::add.Tensor", "aten::sin"}));
  EXPECT_EQ(callsOf(lowered.lowered_modules()[1]->original_program->graph()),
            (std::vector<std::string>{"aten::mul.Tensor", "aten::add.Tensor"}));
  for (uint32_t seed : {1u, 2u}) {
    const Tensor x = AddSinReluMul::exampleInput(seed);
    expectCloseTo(lowered.run({x})[0], model.forward(x));
  }
}

TEST(ToBackend, APartitionKeepsItsNodesNamesDebugHandlesAndSourceStacks) {
  AddSinReluMul model;
  ExportedProgram ep = captured(model);
  ExportedProgram lowered = to_backend(ep, addMulSinPartitioner());
  const LoweredModule& m = *lowered.lowered_modules()[1];
  const Graph& sub = m.original_program->graph();
  EXPECT_THAT(placeholdersOf(sub), ElementsAre("user input relu", "user input input_0"));
  for (const char* name : {"mul", "add_1"}) {
    const Node& original = ep.graph().node(*ep.graph().findNode(name));
    const Node& kept = sub.node(*sub.findNode(name));
    EXPECT_EQ(kept.meta.debug_handle, original.meta.debug_handle) << name;
    ASSERT_NE(kept.meta.location(), nullptr);
    EXPECT_EQ(kept.meta.location()->line, original.meta.location()->line) << name;
    EXPECT_EQ(kept.meta.delegation_tag, "");
  }
  // The demo numbers its instructions 1, 2 and maps them to those nodes.
  EXPECT_EQ(m.debug_handle_map.at(1), std::vector<int64_t>{sub.node(*sub.findNode("mul")).meta.debug_handle});
  EXPECT_THAT(m.debugHandleSources().at(2), HasSubstr("aten::add.Tensor (node 'add_1') at tests/export/export_delegate_support.h:"));
  // The delegate calls get debug handles no node of the program had.
  for (const Node& n : lowered.graph().nodes()) {
    if (isDelegateCall(n)) EXPECT_FALSE(ep.graph().findByDebugHandle(n.meta.debug_handle).has_value());
  }
}

TEST(ToBackend, PrintsTheProgramWithEachLoweredModulesGraph) {
  ExportedProgram lowered = to_backend(captured(AddSinReluMul()), addMulSinPartitioner());
  const std::string text = toString(lowered);
  EXPECT_THAT(text, HasSubstr(" = higher_order::executorch_call_delegate('BackendWithCompilerDemo', 0, [%input_0])"));
  EXPECT_THAT(text, HasSubstr("lowered module 1: backend 'BackendWithCompilerDemo', "));
  EXPECT_THAT(text, HasSubstr("%mul : Float[2, 3] = aten::mul.Tensor(%relu, %relu)"));
}

TEST(ToBackend, NamesTheNodeOfAnOperatorTheBackendCannotPreprocess) {
  ExportedProgram ep = captured(AddSinReluMul());
  EXPECT_THAT(errorMessageOf([&] { to_backend(ep, NodeGroupsPartitioner(kDemo, {{"sin", "relu"}})); }),
              HasSubstr("to_backend: partition 'group0' (nodes sin, relu): backend 'BackendWithCompilerDemo' failed to "
                        "preprocess it: BackendWithCompilerDemo cannot lower node 'relu' (aten::relu): the backend runs "
                        "aten::add.Tensor, aten::mul.Tensor and aten::sin only"));
}

TEST(ToBackend, NamesAnUnknownBackendAndTheRegisteredOnes) {
  ExportedProgram ep = captured(AllDemo());
  const std::string message = errorMessageOf([&] { to_backend("NoSuchBackend", ep, {}); });
  EXPECT_THAT(message, HasSubstr("to_backend: partition 'tag0' (nodes add, mul, sin) is for backend 'NoSuchBackend', "
                                 "which has no ahead-of-time half registered"));
  EXPECT_THAT(message, HasSubstr("BackendWithCompilerDemo"));
}

// BackendWithCompilerDemo's preprocess under another id, with no run-time half.
class AheadOfTimeOnly final : public BackendDetails {
 public:
  absl::StatusOr<PreprocessResult> preprocess(const ExportedProgram& subprogram,
                                              absl::Span<const CompileSpec> specs) const override {
    return findBackendDetails("BackendWithCompilerDemo")->preprocess(subprogram, specs);
  }
};

TEST(ToBackend, ALoweredModuleWhoseBackendHasNoRunTimeHalfLowersButCannotRun) {
  static AheadOfTimeOnly details;
  static const bool registered = registerBackendDetails("AheadOfTimeOnly", &details).ok();
  ASSERT_TRUE(registered);
  ExportedProgram lowered = to_backend("AheadOfTimeOnly", captured(AllDemo()), {});
  EXPECT_THAT(errorMessageOf([&] { lowered.run({AllDemo::exampleInput()}); }),
              HasSubstr("delegate call 'executorch_call_delegate_0' needs backend 'AheadOfTimeOnly', whose run-time "
                        "half is not registered (sy::register_backend)"));
}

TEST(ToBackend, RefusesAPartitionerThatChangesMoreThanTags) {
  ExportedProgram ep = captured(AllDemo());
  struct Renaming final : Partitioner {
    PartitionResult partition(const ExportedProgram& program) const override {
      return PartitionResult::copyOf(captured(AddSinReluMul()));
    }
  };
  struct Rebinding final : Partitioner {
    PartitionResult partition(const ExportedProgram& program) const override {
      std::map<std::string, Tensor> state = program.state();
      state["w"] = ops::clone(state["w"]);
      return PartitionResult{ExportedProgram(program.graph(), state), {}};
    }
  };
  EXPECT_THAT(errorMessageOf([&] { to_backend(ep, Renaming()); }),
              HasSubstr("to_backend: the partitioner returned a program of 8 nodes for one of 6; a partitioner may "
                        "only set delegation tags (start from PartitionResult::copyOf)"));
  EXPECT_THAT(errorMessageOf([&] { to_backend(ep, Rebinding()); }),
              HasSubstr("to_backend: the partitioner replaced 'w' in the program's state"));
}

TEST(ToBackend, RefusesATaggedOutputNode) {
  ExportedProgram ep = captured(AllDemo());
  EXPECT_THAT(errorMessageOf([&] { to_backend(ep, RawTagPartitioner("output", "tag0")); }),
              HasSubstr("to_backend: the output node 'output' is tagged 'tag0'; the program's outputs cannot be "
                        "delegated, tag the nodes that compute them"));
}

TEST(ToBackend, RefusesATaggedUserInputAndATaggedParameter) {
  ExportedProgram ep = captured(AllDemo());
  EXPECT_THAT(errorMessageOf([&] { to_backend(ep, RawTagPartitioner("input_0", "tag0")); }),
              HasSubstr("to_backend: user input 'input_0' is tagged 'tag0'; a program's input cannot be moved into a "
                        "delegate, tag the nodes that read it"));
  EXPECT_THAT(errorMessageOf([&] { to_backend(ep, RawTagPartitioner("w", "tag0")); }),
              HasSubstr("to_backend: parameter 'w' is tagged 'tag0'; parameters and constants are not tagged"));
}

TEST(ToBackend, RefusesATagThePartitionerGaveNoBackend) {
  ExportedProgram ep = captured(AllDemo());
  struct Forgetful final : Partitioner {
    PartitionResult partition(const ExportedProgram& program) const override {
      PartitionResult r = PartitionResult::copyOf(program);
      r.tagged_exported_program.setDelegationTag(*program.graph().findNode("mul"), "lost");
      return r;
    }
  };
  EXPECT_THAT(errorMessageOf([&] { to_backend(ep, Forgetful()); }),
              HasSubstr("node 'mul' is tagged 'lost', which the partitioner's partition_tags does not name"));
}

TEST(ToBackend, RefusesAPartitionThatLeavesAndReentersItselfNamingThePath) {
  ExportedProgram ep = captured(AddSinReluMul());
  EXPECT_THAT(errorMessageOf([&] { to_backend(ep, NodeGroupsPartitioner(kDemo, {{"add", "sin", "mul"}})); }),
              HasSubstr("to_backend: partition 'group0' is not self-contained: the path sin -> relu -> mul leaves it "
                        "after 'sin' and re-enters it at 'mul' through 'relu'"));
}

TEST(ToBackend, DelegatesOwnTheConstantsTheyReadAndTheProgramKeepsThoseReadOutside) {
  SharedConstant model;
  ExportedProgram ep = captured(model);
  ExportedProgram lowered = to_backend(ep, addMulSinPartitioner());
  EXPECT_EQ(callsOf(lowered.graph()), (std::vector<std::string>{kDelegate, "aten::relu", "aten::relu", kDelegate}));
  // c is read by both partitions only: each delegate owns a copy, the program none. p is read by
  // relu_1 too: the second delegate owns it and the program keeps it.
  EXPECT_THAT(placeholdersOf(lowered.graph()), ElementsAre("user input input_0", "parameter p"));
  ASSERT_EQ(lowered.lowered_modules().size(), 2u);
  EXPECT_THAT(placeholdersOf(lowered.lowered_modules()[0]->original_program->graph()),
              ElementsAre("user input input_0", "constant _tensor_constant0"));
  EXPECT_THAT(placeholdersOf(lowered.lowered_modules()[1]->original_program->graph()),
              ElementsAre("user input relu", "user input relu_1", "parameter p", "constant _tensor_constant0"));
  EXPECT_EQ(lowered.state().count("_tensor_constant0"), 0u);
  EXPECT_TRUE(lowered.state().at("p").is_same(model.p));
  // The demo bakes what it owns into its blob.
  const std::vector<uint8_t>& blob = lowered.lowered_modules()[0]->processed_bytes;
  EXPECT_THAT(std::string(blob.begin(), blob.end()), HasSubstr("constants 1 1 0.5 -1 2 0.25"));
  const Tensor x = SharedConstant::exampleInput(3);
  expectCloseTo(lowered.run({x})[0], model.forward(x));
}

TEST(ToBackend, LowersForTwoBackendsOnePartitionerAfterTheOtherAndTheOrderMatters) {
  AddSinReluMul model;
  ExportedProgram ep = captured(model);
  OperatorSupportPartitioner sin_only({"RecordingDemo", {}}, OperatorSupportPartitioner::byOperatorNames({"aten::sin"}));
  recordingDemo().reset();
  ExportedProgram sin_first = to_backend(to_backend(ep, sin_only), addMulSinPartitioner());
  EXPECT_EQ(recordingDemo().preprocessed, 1);
  EXPECT_EQ(callsOf(sin_first.graph()), (std::vector<std::string>{kDelegate, kDelegate, "aten::relu", kDelegate}));
  std::vector<std::string> backends;
  for (const auto& m : sin_first.lowered_modules()) backends.push_back(m->backend_id);
  EXPECT_THAT(backends, ElementsAre("RecordingDemo", "BackendWithCompilerDemo", "BackendWithCompilerDemo"));

  recordingDemo().reset();
  ExportedProgram demo_first = to_backend(to_backend(ep, addMulSinPartitioner()), sin_only);
  EXPECT_EQ(recordingDemo().preprocessed, 0) << "the demo took sin first; nothing was left for the second backend";
  EXPECT_EQ(demo_first.lowered_modules().size(), 2u);

  const Tensor x = AddSinReluMul::exampleInput(5);
  expectCloseTo(sin_first.run({x})[0], model.forward(x));
  expectCloseTo(demo_first.run({x})[0], model.forward(x));
  EXPECT_EQ(recordingDemo().executions, 1);
}

TEST(ToBackend, LowersForTwoBackendsWithOnePartitioner) {
  AddSinReluMul model;
  ExportedProgram ep = captured(model);
  NodeGroupsPartitioner two({{{"add", "sin"}, kDemo}, {{"mul", "add_1"}, {"RecordingDemo", {}}}});
  ExportedProgram lowered = to_backend(ep, two);
  ASSERT_EQ(lowered.lowered_modules().size(), 2u);
  EXPECT_EQ(lowered.lowered_modules()[0]->backend_id, "BackendWithCompilerDemo");
  EXPECT_EQ(lowered.lowered_modules()[1]->backend_id, "RecordingDemo");
  const Tensor x = AddSinReluMul::exampleInput(6);
  expectCloseTo(lowered.run({x})[0], model.forward(x));
}

// x with an infinity: add(x, w), the demo's instruction 1 in the first partition, is not finite.
Tensor inputWithInfinity() {
  Tensor x = ops::clone(AddSinReluMul::exampleInput());
  x.data_ptr<float>()[0] = INFINITY;
  return x;
}

TEST(ToBackend, RunningALoweredModuleDestroysItOnceWithTheHandleInitReturned) {
  AddSinReluMul model;
  ExportedProgram lowered = to_backend(captured(model), addMulSinPartitioner({"RecordingDemo", {}}));
  recordingDemo().reset();
  lowered.run({AddSinReluMul::exampleInput()});
  ASSERT_EQ(recordingDemo().initialised.size(), 2u);
  EXPECT_EQ(recordingDemo().destroyed, recordingDemo().initialised);
  // Also when execute fails (the second delegate never runs).
  recordingDemo().reset();
  EXPECT_THAT(errorMessageOf([&] { lowered.run({inputWithInfinity()}); }), HasSubstr("non-finite"));
  ASSERT_EQ(recordingDemo().initialised.size(), 1u);
  EXPECT_EQ(recordingDemo().destroyed, recordingDemo().initialised);
}

TEST(ToBackend, ADelegateErrorNamesTheOriginalOperatorAndItsSourceLine) {
  AddSinReluMul model;
  ExportedProgram ep = captured(model);
  ExportedProgram lowered = to_backend(ep, addMulSinPartitioner());
  const std::string add_at = ep.graph().node(*ep.graph().findNode("add")).meta.location()->str();
  EXPECT_THAT(add_at, HasSubstr("tests/export/export_delegate_support.h:"));
  const std::string message = errorMessageOf([&] { lowered.run({inputWithInfinity()}); });
  EXPECT_THAT(message, HasSubstr("delegate call 'executorch_call_delegate_0': delegate 0 of method 'ExportedProgram::run' "
                                 "failed in its backend's execute: OUT_OF_RANGE: BackendWithCompilerDemo: add made a "
                                 "non-finite value (inf) at element 0"));
  EXPECT_THAT(message, HasSubstr("; the delegate's debug handle 1 is aten::add.Tensor (node 'add') at " + add_at));
}

}  // namespace
}  // namespace sy::export_
