// The interfaces a delegate backend's ahead-of-time half plugs into: the BackendDetails registry
// and what a partitioner may change in the program it is given.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/export/backend_details.h"
#include "switchyard/export/partitioner.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy::export_ {
namespace {

using ::testing::HasSubstr;
using sy::testing::errorMessageOf;

class NothingDetails final : public BackendDetails {
 public:
  absl::StatusOr<PreprocessResult> preprocess(const ExportedProgram&, absl::Span<const CompileSpec>) const override {
    return PreprocessResult{};
  }
};

TEST(BackendDetailsRegistry, FindsWhatWasRegisteredAndRefusesASecondUnderTheSameId) {
  static NothingDetails first, second;
  ASSERT_TRUE(registerBackendDetails("RegistryTestBackend", &first).ok());
  EXPECT_EQ(findBackendDetails("RegistryTestBackend"), &first);
  absl::Status again = registerBackendDetails("RegistryTestBackend", &second);
  EXPECT_EQ(again.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(std::string(again.message()), HasSubstr("'RegistryTestBackend' is already registered"));
  EXPECT_EQ(findBackendDetails("RegistryTestBackend"), &first);
  EXPECT_TRUE(unregisterBackendDetails("RegistryTestBackend"));
  EXPECT_EQ(findBackendDetails("RegistryTestBackend"), nullptr);
  EXPECT_FALSE(unregisterBackendDetails("RegistryTestBackend"));
}

TEST(BackendDetailsRegistry, RefusesAnEmptyIdOrNoImplementation) {
  static NothingDetails details;
  EXPECT_EQ(registerBackendDetails("", &details).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(registerBackendDetails("NoImplementation", nullptr).code(), absl::StatusCode::kInvalidArgument);
}

TEST(CompileSpec, OfStringHoldsTheTextsBytesWithoutATerminator) {
  CompileSpec spec = CompileSpec::ofString("max_value", "4");
  EXPECT_EQ(spec.key, "max_value");
  EXPECT_EQ(spec.value, std::vector<uint8_t>({'4'}));
}

// y = relu(x), tagged.
ExportedProgram taggedRelu() {
  Graph g;
  const TensorMeta f2{ScalarType::Float, {2}};
  ValueId x = g.addPlaceholder("x", InputKind::User, "", f2);
  NodeMeta meta;
  meta.delegation_tag = "old";
  NodeId relu = g.addCall(Dispatcher::singleton().findSchemaOrThrow("aten::relu", ""), {NodeArgument::ofValue(x)}, {f2},
                          meta);
  g.setOutputs({g.node(relu).outputs[0]});
  return ExportedProgram(std::move(g), {});
}

TEST(PartitionResult, CopyOfClearsEveryTagAndLeavesTheGivenProgramAlone) {
  ExportedProgram program = taggedRelu();
  PartitionResult result = PartitionResult::copyOf(program);
  EXPECT_TRUE(result.partition_tags.empty());
  EXPECT_EQ(result.tagged_exported_program.graph().node(1).meta.delegation_tag, "");
  EXPECT_EQ(program.graph().node(1).meta.delegation_tag, "old");
  result.tagged_exported_program.setDelegationTag(1, "tag0");
  EXPECT_EQ(result.tagged_exported_program.graph().node(1).meta.delegation_tag, "tag0");
}

TEST(PartitionResult, OnlyCallNodesCanBeTagged) {
  PartitionResult result = PartitionResult::copyOf(taggedRelu());
  EXPECT_THAT(errorMessageOf([&] { result.tagged_exported_program.setDelegationTag(0, "tag0"); }),
              HasSubstr("only call_function nodes can be delegated, but 'x' is a placeholder node"));
}

}  // namespace
}  // namespace sy::export_
