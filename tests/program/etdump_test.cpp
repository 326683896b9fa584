// Recording a method's runs as ETDump (program/etdump.h): what ExecuTorch's runtime records (a
// RunData per execute, a ProfileEvent per instruction and per delegate step, intermediate outputs
// in a debug buffer), readable with ExecuTorch's schema, and recorded without allocating.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "allocation_counter.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/etdump.h"
#include "switchyard/program/program.h"
#include "switchyard/program/schema/etdump_generated.h"
#include "switchyard/program/testing/program_builder.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using Kind = ETDumpRecorder::Event::Kind;

// y = x + x; z = -y; w = z (a move): three instructions in one chain.
Method etdumpTestMethod() {
  testing::ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int y = b.plannedTensor(ScalarType::Float, {2}, 1, 8);
  int z = b.plannedTensor(ScalarType::Float, {2}, 1, 16);
  int w = b.plannedTensor(ScalarType::Float, {2}, 1, 24);
  b.kernelCall(b.op("aten::add", "out"), {x, x, b.intValue(1), y, y});
  b.kernelCall(b.op("aten::neg", "out"), {y, z, z});
  b.moveCall(z, w);
  b.inputs({x}).outputs({w}).bufferSizes({0, 32});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  EXPECT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_TRUE(m.ok()) << m.status();
  return std::move(*m);
}

const etdump::ETDump* parsed(const std::vector<uint8_t>& bytes) {
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  EXPECT_TRUE(etdump::VerifySizePrefixedETDumpBuffer(verifier));
  return etdump::GetSizePrefixedETDump(bytes.data());
}

TEST(ETDump, RecordsEachRunAndEachInstructionAsExecuTorchNamesThem) {
  Method m = etdumpTestMethod();
  ETDumpRecorder recorder;
  ASSERT_TRUE(m.set_event_tracer(&recorder).ok());
  ASSERT_TRUE(m.set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  ASSERT_TRUE(m.execute().ok());
  ASSERT_TRUE(m.execute().ok());
  EXPECT_EQ(recorder.runs(), 2u);
  const std::vector<uint8_t> bytes = recorder.etdump();
  const etdump::ETDump* dump = parsed(bytes);
  ASSERT_EQ(dump->run_data()->size(), 2u);
  for (const etdump::RunData* run : *dump->run_data()) {
    EXPECT_EQ(run->name()->str(), "Execute");
    std::vector<std::string> names;
    std::vector<int> instructions;
    for (const etdump::Event* e : *run->events()) {
      ASSERT_NE(e->profile_event(), nullptr);
      names.push_back(e->profile_event()->name()->str());
      instructions.push_back(e->profile_event()->instruction_id());
      EXPECT_LE(e->profile_event()->start_time(), e->profile_event()->end_time());
      EXPECT_EQ(e->profile_event()->chain_index(), 0);
    }
    EXPECT_THAT(names, ElementsAre("OPERATOR_CALL", "OPERATOR_CALL", "MOVE_CALL", "Method::execute"));
    EXPECT_THAT(instructions, ElementsAre(0, 1, 2, -1));
  }
  // Detached, the method records nothing more.
  ASSERT_TRUE(m.set_event_tracer(nullptr).ok());
  ASSERT_TRUE(m.execute().ok());
  EXPECT_EQ(recorder.runs(), 2u);
}

TEST(ETDump, KeepsIntermediateOutputsInADebugBuffer) {
  Method m = etdumpTestMethod();
  ETDumpRecorder recorder({.debug_buffer_bytes = 1024});
  ASSERT_TRUE(m.set_event_tracer(&recorder).ok());
  ASSERT_TRUE(m.set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  ASSERT_TRUE(m.execute().ok());
  std::vector<std::vector<float>> values;
  std::vector<std::string> names;
  for (const ETDumpRecorder::Event& e : recorder.events()) {
    if (e.kind != Kind::Output) continue;
    std::vector<float> v(2);
    std::memcpy(v.data(), recorder.debug_buffer().data() + e.debug_offset, 8);
    values.push_back(v);
    names.push_back(e.method_output ? "output" : recorder.names()[e.name]);
  }
  EXPECT_THAT(names, ElementsAre("aten::add.out", "aten::neg.out", "output"));
  EXPECT_EQ(values, (std::vector<std::vector<float>>{{2, 4}, {-2, -4}, {-2, -4}}));
  const std::vector<uint8_t> bytes = recorder.etdump();
  const etdump::RunData* run = parsed(bytes)->run_data()->Get(0);
  const etdump::DebugEvent* neg = nullptr;
  const etdump::DebugEvent* output = nullptr;
  for (const etdump::Event* e : *run->events()) {
    if (e->debug_event() == nullptr) continue;
    if (e->debug_event()->instruction_id() == 1) neg = e->debug_event();
    if (e->debug_event()->debug_entry()->output() != nullptr) output = e->debug_event();
  }
  ASSERT_NE(neg, nullptr);
  EXPECT_EQ(neg->name()->str(), "aten::neg.out");
  const etdump::Tensor* t = neg->debug_entry()->tensor();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->scalar_type(), pte::ScalarType::FLOAT);
  EXPECT_THAT(std::vector<int64_t>(t->sizes()->begin(), t->sizes()->end()), ElementsAre(2));
  EXPECT_THAT(std::vector<int64_t>(t->strides()->begin(), t->strides()->end()), ElementsAre(1));
  float first;
  std::memcpy(&first, recorder.debug_buffer().data() + t->offset(), 4);
  EXPECT_EQ(first, -2);
  ASSERT_NE(output, nullptr);
  EXPECT_TRUE(output->debug_entry()->output()->bool_val());
}

TEST(ETDump, RecordingAllocatesNothingWhileTheMethodRuns) {
  Method m = etdumpTestMethod();
  ETDumpRecorder recorder({.max_events = 1000, .debug_buffer_bytes = 1 << 16});
  ASSERT_TRUE(m.set_event_tracer(&recorder).ok());
  ASSERT_TRUE(m.set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  ASSERT_TRUE(m.execute().ok());
  EXPECT_EQ(testing::allocationsDuring([&] {
              for (int i = 0; i < 20; ++i) {
                if (!m.execute().ok()) std::abort();
              }
            }),
            0);
  EXPECT_EQ(recorder.runs(), 21u);
  EXPECT_EQ(recorder.dropped_events(), 0u);
}

TEST(ETDump, AFullRecorderDropsEventsAndCountsThem) {
  Method m = etdumpTestMethod();
  ETDumpRecorder recorder({.max_events = 6});
  ASSERT_TRUE(m.set_event_tracer(&recorder).ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(m.execute().ok());
  EXPECT_EQ(recorder.events().size(), 6u);
  EXPECT_EQ(recorder.dropped_events(), 6u);  // 4 events a run, 12 in all
  EXPECT_EQ(parsed(recorder.etdump())->run_data()->size(), 2u);
}

// A delegate that reports two steps by debug handle and one by name, and one intermediate output.
class StepReportingBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }
  absl::StatusOr<DelegateHandle*> init(BackendInitContext&, FreeableBuffer*, absl::Span<const CompileSpec>) const override {
    return nullptr;
  }
  absl::Status execute(BackendExecutionContext& context, DelegateHandle*, absl::Span<IValue*> args) const override {
    args[1]->toTensor().copy_(args[0]->toTensor());
    if (EventTracer* tracer = context.event_tracer) {
      tracer->log_profiling_delegate({}, 7, 100, 200);
      tracer->log_profiling_delegate({}, 8, 200, 300);
      tracer->log_profiling_delegate("pack weights", -1, 300, 400);
      tracer->log_intermediate_output_delegate({}, 8, args[1]->toTensor());
    }
    return absl::OkStatus();
  }
};
StepReportingBackend step_reporting_backend;
const absl::Status step_reporting_registered = register_backend({"StepReportingBackend", &step_reporting_backend});

TEST(ETDump, RecordsTheStepsADelegateReportsUnderItsCall) {
  ASSERT_TRUE(step_reporting_registered.ok()) << step_reporting_registered;
  testing::ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int y = b.plannedTensor(ScalarType::Float, {2}, 1, 8);
  int z = b.plannedTensor(ScalarType::Float, {2}, 1, 16);
  b.kernelCall(b.op("aten::neg", "out"), {x, y, y});
  b.delegateCall(b.delegate("StepReportingBackend", {}), {y, z});
  b.inputs({x}).outputs({z}).bufferSizes({0, 24});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ETDumpRecorder recorder({.debug_buffer_bytes = 256});
  ASSERT_TRUE(m->set_event_tracer(&recorder).ok());
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  ASSERT_TRUE(m->execute().ok());
  const std::vector<uint8_t> bytes = recorder.etdump();
  std::vector<std::string> seen;
  for (const etdump::Event* e : *parsed(bytes)->run_data()->Get(0)->events()) {
    if (const etdump::ProfileEvent* p = e->profile_event()) {
      seen.push_back(sy::str(p->name() ? p->name()->str() : "", "@", p->instruction_id(), "#", p->delegate_debug_id_int(),
                             p->delegate_debug_id_str() ? "'" + p->delegate_debug_id_str()->str() + "'" : ""));
    } else if (const etdump::DebugEvent* d = e->debug_event()) {
      seen.push_back(sy::str("debug@", d->instruction_id(), "#", d->delegate_debug_id_int()));
    }
  }
  // A delegate's steps come before its DELEGATE_CALL, which ends after them.
  EXPECT_THAT(seen, ElementsAre("OPERATOR_CALL@0#-1", "debug@0#-1", "@1#7", "@1#8", "@1#-1'pack weights'", "debug@1#8",
                                "DELEGATE_CALL@1#-1", "debug@-1#-1", "Method::execute@-1#-1"));
}

}  // namespace
}  // namespace sy
