// What a delegate's init gets besides its blob: the program's named data merged with the method's
// data files (BackendInitContext::named_data_map) and the caller's run-time options for its
// backend (runtime_specs), as ExecuTorch's BackendInitContext gives them.
#include <cstring>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "program/program_test_support.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::ProgramBuilder;

// Its blob is a key: init reads the float stored under that name and execute scales by it. The
// run-time option "offset" (decimal text) is added when given.
struct NamedScale {
  float scale = 0;
  float offset = 0;
};

class NamedScaleBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }
  absl::StatusOr<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                                       absl::Span<const CompileSpec>) const override {
    if (context.named_data_map == nullptr) return absl::FailedPreconditionError("no named data map");
    keys.clear();
    for (size_t i = 0; i < context.named_data_map->num_keys(); ++i) {
      keys.emplace_back(*context.named_data_map->get_key(i));
    }
    const std::string key(static_cast<const char*>(processed->data()), processed->size());
    absl::StatusOr<FreeableBuffer> data = context.named_data_map->get_data(key);
    if (!data.ok()) return data.status();
    if (data->size() < sizeof(float)) return absl::InvalidArgumentError("named data too short");
    auto* graph = new NamedScale();
    std::memcpy(&graph->scale, data->data(), sizeof(float));
    for (const CompileSpec& spec : context.runtime_specs) {
      if (spec.key == "offset") graph->offset = std::stof(std::string(spec.value.begin(), spec.value.end()));
    }
    return graph;
  }
  absl::Status execute(BackendExecutionContext&, DelegateHandle* handle, absl::Span<IValue*> args) const override {
    const auto* graph = static_cast<const NamedScale*>(handle);
    const Tensor& in = args[0]->toTensor();
    const Tensor& out = args[1]->toTensor();
    for (int64_t i = 0; i < in.numel(); ++i) out.data_ptr<float>()[i] = in.data_ptr<float>()[i] * graph->scale + graph->offset;
    return absl::OkStatus();
  }
  void destroy(DelegateHandle* handle) const override { delete static_cast<NamedScale*>(handle); }

  mutable std::vector<std::string> keys;
};

NamedScaleBackend named_scale_backend;
const absl::Status named_scale_registered = register_backend({"NamedScaleBackend", &named_scale_backend});

std::vector<uint8_t> bytesOf(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

std::vector<uint8_t> namedScaleProgram(const std::string& key, std::vector<std::pair<std::string, float>> named) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int y = b.plannedTensor(ScalarType::Float, {2}, 1, 16);
  int d = b.delegate("NamedScaleBackend", bytesOf(key));
  for (const auto& [name, value] : named) {
    std::vector<uint8_t> bytes(sizeof(float));
    std::memcpy(bytes.data(), &value, sizeof(float));
    b.namedData(name, bytes);
  }
  b.delegateCall(d, {x, y}).inputs({x}).outputs({y}).bufferSizes({0, 32});
  return b.finish();
}

std::vector<float> runNamedScale(Method& m) {
  EXPECT_TRUE(m.set_input(0, tensor(std::vector<float>{1, -2}, {2})).ok());
  absl::Status s = m.execute();
  EXPECT_TRUE(s.ok()) << s;
  const Tensor& y = m.get_output(0).toTensor();
  return std::vector<float>(y.data_ptr<float>(), y.data_ptr<float>() + 2);
}

TEST(DelegateNamedData, InitReadsWeightsByNameFromTheProgramsNamedData) {
  ASSERT_TRUE(named_scale_registered.ok()) << named_scale_registered;
  absl::StatusOr<Program> program =
      Program::loadFromBuffer(namedScaleProgram("w2", {{"w1", 3.0f}, {"w2", 0.5f}, {"w3", 7.0f}}));
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(runNamedScale(*m), (std::vector<float>{0.5f, -1.0f}));
  EXPECT_EQ(named_scale_backend.keys, (std::vector<std::string>{"w1", "w2", "w3"}));
}

TEST(DelegateNamedData, AKeyNoSourceHasIsAnInitErrorNamingIt) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(namedScaleProgram("missing", {{"w1", 3.0f}}), "scale.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(m.status().message(), HasSubstr("delegate 0 (backend 'NamedScaleBackend') failed to initialise"));
  EXPECT_THAT(m.status().message(), HasSubstr("no named data 'missing' in program 'scale.pte' or its 0 data files"));
}

TEST(DelegateNamedData, DataFilesComeAfterTheProgramsOwnNamedData) {
  SY_REFERENCE_PROGRAM_OR_SKIP(ptd, "xor.ptd");
  absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::load(ptd);
  ASSERT_TRUE(data.ok()) << data.status();
  const DataFile::Entry* bias = (*data)->find("net.linear.bias");
  ASSERT_NE(bias, nullptr);
  float first = 0;
  std::memcpy(&first, bias->bytes.data(), sizeof(float));
  MethodOptions options;
  options.data_files.push_back(*data);
  {
    // Only the data file has the key.
    absl::StatusOr<Program> program = Program::loadFromBuffer(namedScaleProgram("net.linear.bias", {{"w1", 3.0f}}));
    ASSERT_TRUE(program.ok()) << program.status();
    absl::StatusOr<Method> m = program->load_method("forward", options);
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(runNamedScale(*m), (std::vector<float>{first, -2 * first}));
    EXPECT_EQ(named_scale_backend.keys.front(), "w1");
    EXPECT_THAT(named_scale_backend.keys, ::testing::Contains("net.linear.bias"));
  }
  {
    // Both have it: the program's own wins.
    absl::StatusOr<Program> program = Program::loadFromBuffer(namedScaleProgram("net.linear.bias", {{"net.linear.bias", 4.0f}}));
    ASSERT_TRUE(program.ok()) << program.status();
    absl::StatusOr<Method> m = program->load_method("forward", options);
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(runNamedScale(*m), (std::vector<float>{4.0f, -8.0f}));
  }
}

TEST(DelegateNamedData, RuntimeSpecsForTheBackendReachItsInitAndNoOtherBackends) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(namedScaleProgram("w", {{"w", 2.0f}}));
  ASSERT_TRUE(program.ok()) << program.status();
  MethodOptions options;
  options.backend_options["NamedScaleBackend"] = {{"offset", "0.25"}};
  options.backend_options["SomeOtherBackend"] = {{"offset", "100"}};
  absl::StatusOr<Method> m = program->load_method("forward", options);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(runNamedScale(*m), (std::vector<float>{2.25f, -3.75f}));
}

}  // namespace
}  // namespace sy
