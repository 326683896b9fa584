// Delegates at run time: a test backend registered statically, initialised when a method loads,
// run by DelegateCall through the dispatcher, destroyed once when the method goes.
#include <cstring>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/delegate/backend_registry.h"
#include "switchyard/delegate/delegate_call.h"
#include "switchyard/fallback/profiler.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::ProgramBuilder;

// Scales its input by the float in its processed blob, plus the "bias" compile spec when given:
// args are (input, output).
struct ScaleGraph {
  float scale = 0;
  float bias = 0;
};

class ScaleBackend final : public BackendInterface {
 public:
  bool is_available() const override { return available; }
  absl::StatusOr<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                                       absl::Span<const CompileSpec> specs) const override {
    ++inits;
    last_method = std::string(context.method_name);
    if (processed->size() != sizeof(float)) {
      return absl::InvalidArgumentError(sy::str("expected a 4-byte blob, got ", processed->size()));
    }
    auto* graph = new ScaleGraph();
    std::memcpy(&graph->scale, processed->data(), sizeof(float));
    for (const CompileSpec& spec : specs) {
      if (spec.key == "bias" && spec.value.size() == sizeof(float)) std::memcpy(&graph->bias, spec.value.data(), 4);
    }
    if (keep_processed) kept = std::move(*processed);
    return graph;
  }
  absl::Status execute(BackendExecutionContext& context, DelegateHandle* handle, absl::Span<IValue*> args) const override {
    ++executions;
    if (args.size() != 2 || !args[0]->isTensor() || !args[1]->isTensor()) {
      return absl::InvalidArgumentError("expected (input, output) tensors");
    }
    const auto* graph = static_cast<const ScaleGraph*>(handle);
    if (graph->scale < 0) return absl::FailedPreconditionError("negative scales are not supported");
    const Tensor& in = args[0]->toTensor();
    const Tensor& out = args[1]->toTensor();
    for (int64_t i = 0; i < in.numel(); ++i) out.data_ptr<float>()[i] = in.data_ptr<float>()[i] * graph->scale + graph->bias;
    return absl::OkStatus();
  }
  void destroy(DelegateHandle* handle) const override {
    ++destroys;
    delete static_cast<ScaleGraph*>(handle);
  }

  mutable int inits = 0, executions = 0, destroys = 0;
  mutable std::string last_method;
  mutable FreeableBuffer kept;
  bool available = true;
  bool keep_processed = false;
};

ScaleBackend scale_backend;
const absl::Status registered = register_backend({"ScaleBackend", &scale_backend});

std::vector<uint8_t> floatBytes(float f) {
  std::vector<uint8_t> bytes(4);
  std::memcpy(bytes.data(), &f, 4);
  return bytes;
}

std::vector<uint8_t> delegatedProgram(const std::string& backend, float scale, bool in_segment = false,
                                      std::vector<std::pair<std::string, std::vector<uint8_t>>> specs = {}) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {3}, 1, 0);
  int y = b.plannedTensor(ScalarType::Float, {3}, 1, 16);
  int d = b.delegate(backend, floatBytes(scale), std::move(specs), in_segment);
  b.delegateCall(d, {x, y}).inputs({x}).outputs({y}).bufferSizes({0, 32});
  return b.finish();
}

void resetCounts() {
  scale_backend.inits = scale_backend.executions = scale_backend.destroys = 0;
  scale_backend.available = true;
  scale_backend.keep_processed = false;
  scale_backend.kept = FreeableBuffer();
}

TEST(DelegateRuntime, RegistersStaticallyAndRefusesADuplicateName) {
  ASSERT_TRUE(registered.ok()) << registered;
  EXPECT_EQ(get_backend_class("ScaleBackend"), &scale_backend);
  EXPECT_EQ(get_backend_class("NoSuchBackend"), nullptr);
  absl::Status again = register_backend({"ScaleBackend", &scale_backend});
  EXPECT_EQ(again.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(again.message(), HasSubstr("a backend named 'ScaleBackend' is already registered"));
  EXPECT_THAT(registered_backend_names(), ::testing::Contains("ScaleBackend"));
}

TEST(DelegateRuntime, RunsADelegateCallEndToEnd) {
  resetCounts();
  for (bool in_segment : {false, true}) {
    absl::StatusOr<Program> program = Program::loadFromBuffer(delegatedProgram("ScaleBackend", 2.5f, in_segment));
    ASSERT_TRUE(program.ok()) << program.status();
    {
      absl::StatusOr<Method> m = program->load_method("forward");
      ASSERT_TRUE(m.ok()) << m.status();
      ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2, -4}, {3})).ok());
      ASSERT_TRUE(m->execute().ok());
      ASSERT_TRUE(m->execute().ok());
      const Tensor& y = m->get_output(0).toTensor();
      EXPECT_EQ(std::vector<float>(y.data_ptr<float>(), y.data_ptr<float>() + 3), (std::vector<float>{2.5f, 5, -10}));
    }
  }
  EXPECT_EQ(scale_backend.inits, 2);
  EXPECT_EQ(scale_backend.executions, 4);
  EXPECT_EQ(scale_backend.destroys, 2);
  EXPECT_EQ(scale_backend.last_method, "forward");
}

TEST(DelegateRuntime, PassesCompileSpecsToInit) {
  resetCounts();
  absl::StatusOr<Program> program = Program::loadFromBuffer(delegatedProgram("ScaleBackend", 1, false, {{"bias", floatBytes(0.5f)}}));
  ASSERT_TRUE(program.ok());
  absl::StatusOr<MethodMeta> meta = program->method_meta("forward");
  ASSERT_EQ(meta->delegates.size(), 1u);
  EXPECT_EQ(meta->delegates[0].backend, "ScaleBackend");
  EXPECT_EQ(meta->delegates[0].processed_size, 4u);
  EXPECT_EQ(meta->delegates[0].compile_specs[0].key, "bias");
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2, 3}, {3})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(m->get_output(0).toTensor().data_ptr<float>()[2], 3.5f);
}

TEST(DelegateRuntime, DestroysEachHandleOnceEvenAfterTheMethodMoves) {
  resetCounts();
  absl::StatusOr<Program> program = Program::loadFromBuffer(delegatedProgram("ScaleBackend", 1));
  {
    absl::StatusOr<Method> m = program->load_method("forward");
    ASSERT_TRUE(m.ok());
    Method moved = std::move(*m);
    Method again = std::move(moved);
    EXPECT_EQ(scale_backend.destroys, 0);
  }
  EXPECT_EQ(scale_backend.inits, 1);
  EXPECT_EQ(scale_backend.destroys, 1);
}

TEST(DelegateRuntime, FreesTheProcessedBlobAfterInitUnlessTheBackendKeepsIt) {
  resetCounts();
  scale_backend.keep_processed = true;
  absl::StatusOr<Program> program = Program::loadFromBuffer(delegatedProgram("ScaleBackend", 4));
  {
    absl::StatusOr<Method> m = program->load_method("forward");
    ASSERT_TRUE(m.ok());
  }
  program = absl::InternalError("gone");  // the kept blob keeps the program's bytes alive
  ASSERT_FALSE(scale_backend.kept.freed());
  ASSERT_EQ(scale_backend.kept.size(), 4u);
  float scale;
  std::memcpy(&scale, scale_backend.kept.data(), 4);
  EXPECT_EQ(scale, 4.f);
  scale_backend.kept.Free();
  EXPECT_TRUE(scale_backend.kept.freed());
}

TEST(DelegateRuntime, NamesAnUnregisteredBackendAndTheRegisteredOnes) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(delegatedProgram("QnnBackend", 1), "qnn.pte");
  ASSERT_TRUE(program.ok());
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_EQ(m.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(m.status().message(),
              HasSubstr("method 'forward' needs backend 'QnnBackend' (delegate 0), which is not registered; "
                        "registered backends: "));
  EXPECT_THAT(m.status().message(), HasSubstr("ScaleBackend"));
}

TEST(DelegateRuntime, RefusesABackendThatIsNotAvailable) {
  resetCounts();
  scale_backend.available = false;
  absl::StatusOr<Program> program = Program::loadFromBuffer(delegatedProgram("ScaleBackend", 1));
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_THAT(m.status().message(),
              HasSubstr("needs backend 'ScaleBackend' (delegate 0), which is registered but not available here"));
  EXPECT_EQ(scale_backend.inits, 0);
  resetCounts();
}

TEST(DelegateRuntime, ReportsAFailedInitNamingTheDelegate) {
  resetCounts();
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {3}, 1, 0);
  b.delegateCall(b.delegate("ScaleBackend", {1, 2}), {x, x}).bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "short.pte");
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_THAT(m.status().message(), HasSubstr("program 'short.pte': method 'forward': delegate 0 (backend 'ScaleBackend') "
                                              "failed to initialise: expected a 4-byte blob, got 2"));
}

TEST(DelegateRuntime, ReportsAFailedExecuteAsTheMethodsError) {
  resetCounts();
  absl::StatusOr<Program> program = Program::loadFromBuffer(delegatedProgram("ScaleBackend", -1), "neg.pte");
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok());
  absl::Status s = m->execute();
  EXPECT_THAT(s.message(), HasSubstr("method 'forward': instruction 0 (delegate 0, backend 'ScaleBackend') failed: "));
  EXPECT_THAT(s.message(), HasSubstr("negative scales are not supported"));
}

TEST(DelegateRuntime, DelegateCallsAreOperatorCallsTheProfilerSees) {
  resetCounts();
  absl::StatusOr<Program> program = Program::loadFromBuffer(delegatedProgram("ScaleBackend", 2));
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok());
  Profile profile;
  ASSERT_TRUE(m->execute().ok());
  ASSERT_TRUE(m->execute().ok());
  ProfileReport report = profile.stop();
  // Named by backend and delegate index (See Note [Delegate calls are profiled by backend and index]).
  EXPECT_EQ(report.find("higher_order::executorch_call_delegate"), nullptr) << report.table();
  const OperatorProfile* delegate = report.find("ScaleBackend#0");
  ASSERT_NE(delegate, nullptr) << report.table();
  EXPECT_EQ(delegate->count, 2);
  EXPECT_EQ(scale_backend.executions, 2);
}

TEST(DelegateRuntime, DelegatedWorkIsOnTheProfilersTimeline) {
  resetCounts();
  absl::StatusOr<Program> program = Program::loadFromBuffer(delegatedProgram("ScaleBackend", 2));
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok());
  Profile profile;
  ASSERT_TRUE(m->execute().ok());
  const std::string trace = profile.stop().chromeTrace();
  EXPECT_THAT(trace, HasSubstr("\"name\": \"ScaleBackend#0\""));
  EXPECT_THAT(trace, HasSubstr("\"cat\": \"delegate\""));
}

TEST(DelegateRuntime, TheDelegateOperatorRefusesToRunOutsideAMethod) {
  Stack stack{IValue("ScaleBackend"), IValue(0), IValue(std::vector<Tensor>{zeros({1})})};
  try {
    delegateCallOperator().redispatchBoxed(DispatchKeySet(DispatchKey::CPU), &stack);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("runs a delegate for a Method's DelegateCall instruction; it cannot be called on its own"));
  }
}

}  // namespace
}  // namespace sy
