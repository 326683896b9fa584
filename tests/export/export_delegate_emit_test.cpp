// Lowered programs saved as program files: BackendDelegate entries with their blobs (in segments or
// inline) and compile specs, DelegateCall instructions, and the debug-handle maps in the stack
// traces, so a loaded program's delegate error names the original operators.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

#include "export/export_delegate_support.h"
#include "switchyard/export/emit.h"
#include "switchyard/export/lowering.h"
#include "switchyard/export/partitioners.h"
#include "switchyard/program/schema/program_generated.h"
#include "test_support.h"

namespace sy::export_ {
namespace {

using ::testing::HasSubstr;
using sy::testing::AddSinReluMul;
using sy::testing::expectCloseTo;
using sy::testing::recordingDemo;
using sy::testing::runProgram;
using sy::testing::SharedConstant;

OperatorSupportPartitioner addMulSin(DelegationSpec spec) {
  return OperatorSupportPartitioner(std::move(spec),
                                    OperatorSupportPartitioner::byOperatorNames({"aten::add", "aten::mul", "aten::sin"}));
}

template <class Model>
ExportedProgram lowered(const Model& model, DelegationSpec spec = {"BackendWithCompilerDemo", {}}) {
  return to_backend(capture(model.model(), {Model::exampleInput()}, model.parameters()), addMulSin(std::move(spec)));
}

template <class Model>
void expectRoundTripMatchesEager(const Model& model, const EmitOptions& options) {
  absl::StatusOr<EmittedProgram> file = emitProgram(lowered(model), "forward", options);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->methods[0].delegates, 2u);
  for (uint32_t seed : {1u, 2u}) {
    const Tensor x = Model::exampleInput(seed);
    std::vector<Tensor> got = runProgram(file->bytes, "forward", {x});
    ASSERT_EQ(got.size(), 1u);
    expectCloseTo(got[0], model.forward(x));
  }
}

TEST(ExportDelegates, APartlyLoweredModelSavedLoadedAndRunMatchesEagerWithBlobsInSegments) {
  expectRoundTripMatchesEager(AddSinReluMul(), EmitOptions{true});
  expectRoundTripMatchesEager(SharedConstant(), EmitOptions{true});
}

TEST(ExportDelegates, APartlyLoweredModelSavedLoadedAndRunMatchesEagerWithBlobsInline) {
  expectRoundTripMatchesEager(AddSinReluMul(), EmitOptions{false});
  expectRoundTripMatchesEager(SharedConstant(), EmitOptions{false});
}

TEST(ExportDelegates, WritesBackendDelegatesWithCompileSpecsAndDelegateCallsBetweenPortableKernels) {
  SharedConstant model;
  ExportedProgram program = lowered(model, {"BackendWithCompilerDemo", {CompileSpec::ofString("max_value", "3")}});
  absl::StatusOr<EmittedProgram> file = emitProgram(program);
  ASSERT_TRUE(file.ok()) << file.status();
  const pte::Program* root = pte::GetProgram(file->bytes.data());
  const pte::ExecutionPlan* plan = root->execution_plan()->Get(0);
  ASSERT_EQ(plan->delegates()->size(), 2u);
  for (uint32_t i = 0; i < 2; ++i) {
    const pte::BackendDelegate* d = plan->delegates()->Get(i);
    EXPECT_EQ(d->id()->str(), "BackendWithCompilerDemo");
    EXPECT_EQ(d->processed()->location(), pte::DataLocation::SEGMENT);
    ASSERT_EQ(d->compile_specs()->size(), 1u);
    EXPECT_EQ(d->compile_specs()->Get(0)->key()->str(), "max_value");
    EXPECT_EQ(std::string(d->compile_specs()->Get(0)->value()->begin(), d->compile_specs()->Get(0)->value()->end()), "3");
  }
  std::vector<std::string> kinds;
  for (const pte::Instruction* ins : *plan->chains()->Get(0)->instructions()) {
    kinds.push_back(ins->instr_args_type() == pte::InstructionArguments::DelegateCall
                        ? sy::str("delegate ", ins->instr_args_as_DelegateCall()->delegate_index())
                        : plan->operators()->Get(static_cast<uint32_t>(ins->instr_args_as_KernelCall()->op_index()))->name()->str());
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"delegate 0", "aten::relu", "aten::relu", "delegate 1"}));
  // Only p is a program constant: c went into both blobs.
  EXPECT_EQ(file->methods[0].constants, 1u);
  EXPECT_EQ(file->constant_bytes, 16u);
  const Tensor x = SharedConstant::exampleInput(9);
  expectCloseTo(runProgram(file->bytes, "forward", {x})[0], model.forward(x));
}

TEST(ExportDelegates, StoresAModuleTwoMethodsShareOnce) {
  ExportedProgram program = lowered(AddSinReluMul());
  absl::StatusOr<EmittedProgram> file = emitProgram({{"forward", &program}, {"again", &program}});
  ASSERT_TRUE(file.ok()) << file.status();
  const pte::Program* root = pte::GetProgram(file->bytes.data());
  // The two blobs (w went into the first), then the empty constant segment: no program constants.
  EXPECT_EQ(root->segments()->size(), 3u);
  EXPECT_EQ(root->segments()->Get(2)->size(), 0u);
  EXPECT_EQ(root->execution_plan()->Get(1)->delegates()->Get(1)->processed()->index(), 1u);
  const Tensor x = AddSinReluMul::exampleInput(4);
  expectCloseTo(runProgram(file->bytes, "again", {x})[0], AddSinReluMul().forward(x));
}

// Loads and runs `bytes`, expecting execute to fail; its message.
std::string executeError(const std::vector<uint8_t>& bytes, const Tensor& x) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(bytes, "lowered.pte");
  EXPECT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->set_input(0, x).ok());
  absl::Status s = m->execute();
  EXPECT_FALSE(s.ok());
  return std::string(s.message());
}

TEST(ExportDelegates, ADelegateErrorInALoadedProgramNamesTheOriginalOperatorAndItsSourceLine) {
  AddSinReluMul model;
  ExportedProgram ep = capture(model.model(), {AddSinReluMul::exampleInput()}, model.parameters());
  absl::StatusOr<EmittedProgram> file = emitProgram(to_backend(ep, addMulSin({"BackendWithCompilerDemo", {}})));
  ASSERT_TRUE(file.ok()) << file.status();
  const std::string add_at = ep.graph().node(*ep.graph().findNode("add")).meta.location()->str();
  Tensor x = ops::clone(AddSinReluMul::exampleInput());
  x.data_ptr<float>()[0] = INFINITY;
  const std::string message = executeError(file->bytes, x);
  EXPECT_THAT(message, HasSubstr("program 'lowered.pte': method 'forward': instruction 0 (delegate 0, backend "
                                 "'BackendWithCompilerDemo') failed: "));
  EXPECT_THAT(message, HasSubstr("add made a non-finite value (inf) at element 0; the delegate's debug handle 1 is "
                                 "aten::add.Tensor (node 'add') at " + add_at));
  // The stack trace of the delegate call: one frame per (debug handle, node).
  const pte::Chain* chain = pte::GetProgram(file->bytes.data())->execution_plan()->Get(0)->chains()->Get(0);
  const pte::FrameList* frames = chain->stacktrace()->Get(0);
  ASSERT_EQ(frames->items()->size(), 2u);
  EXPECT_EQ(frames->items()->Get(1)->context()->str(), "delegate debug handle 2: aten::sin (node 'sin')");
}

TEST(ExportDelegates, DestroysEachDelegateOnceWithTheHandleInitReturned) {
  absl::StatusOr<EmittedProgram> file = emitProgram(lowered(AddSinReluMul(), {"RecordingDemo", {}}));
  ASSERT_TRUE(file.ok()) << file.status();
  recordingDemo().reset();
  {
    absl::StatusOr<Program> program = Program::loadFromBuffer(file->bytes);
    ASSERT_TRUE(program.ok()) << program.status();
    absl::StatusOr<Method> m = program->load_method("forward");
    ASSERT_TRUE(m.ok()) << m.status();
    ASSERT_TRUE(m->set_input(0, AddSinReluMul::exampleInput()).ok());
    ASSERT_TRUE(m->execute().ok());
    ASSERT_TRUE(m->execute().ok());
    EXPECT_EQ(recordingDemo().initialised.size(), 2u);
    EXPECT_TRUE(recordingDemo().destroyed.empty());
  }
  EXPECT_EQ(recordingDemo().executions, 4);
  std::vector<DelegateHandle*> destroyed = recordingDemo().destroyed;
  std::vector<DelegateHandle*> initialised = recordingDemo().initialised;
  std::sort(destroyed.begin(), destroyed.end());
  std::sort(initialised.begin(), initialised.end());
  EXPECT_EQ(destroyed, initialised);
}

TEST(ExportDelegates, ABlobOfAnotherVersionFailsAtInit) {
  absl::StatusOr<EmittedProgram> file = emitProgram(lowered(AddSinReluMul()));
  ASSERT_TRUE(file.ok()) << file.status();
  std::vector<uint8_t> bytes = file->bytes;
  const std::string version = "\nversion 0\n";
  auto at = std::search(bytes.begin(), bytes.end(), version.begin(), version.end());
  ASSERT_NE(at, bytes.end());
  at[9] = '7';
  absl::StatusOr<Program> program = Program::loadFromBuffer(bytes, "old.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(m.status().message(), HasSubstr("delegate 0 (backend 'BackendWithCompilerDemo') failed to initialise: "
                                              "BackendWithCompilerDemo program of version 7 is incompatible: this "
                                              "backend reads version 0"));
}

TEST(ExportDelegates, AMaxValueAboveFourFailsAtInitAndFourDoesNot) {
  AddSinReluMul model;
  absl::StatusOr<EmittedProgram> five =
      emitProgram(lowered(model, {"BackendWithCompilerDemo", {CompileSpec::ofString("max_value", "5")}}));
  ASSERT_TRUE(five.ok()) << five.status();
  absl::StatusOr<Program> program = Program::loadFromBuffer(five->bytes);
  ASSERT_TRUE(program.ok());
  EXPECT_THAT(program->load_method("forward").status().message(),
              HasSubstr("BackendWithCompilerDemo: compile spec 'max_value' is 5, larger than the 4 the backend supports"));
  ExportedProgram four = lowered(model, {"BackendWithCompilerDemo", {CompileSpec::ofString("max_value", "4")}});
  const Tensor x = AddSinReluMul::exampleInput(8);
  expectCloseTo(runProgram(emitProgram(four)->bytes, "forward", {x})[0], model.forward(x));
}

TEST(ExportDelegates, FlatcDecodesAProgramWithDelegatesAndTheSwitchyardCommandRunsIt) {
  absl::StatusOr<EmittedProgram> file = emitProgram(lowered(SharedConstant()), "forward", EmitOptions{false});
  ASSERT_TRUE(file.ok()) << file.status();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / sy::str("export_delegate_test_", ::getpid());
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / "lowered.pte";
  ASSERT_TRUE(file->save(path.string()).ok());
  const std::string json = sy::testing::flatcJson(path);
  EXPECT_THAT(json, HasSubstr("\"id\": \"BackendWithCompilerDemo\""));
  EXPECT_THAT(json, HasSubstr("\"instr_args_type\": \"DelegateCall\""));
  EXPECT_THAT(json, HasSubstr("\"backend_delegate_data\""));
  EXPECT_THAT(json, HasSubstr("delegate debug handle 1: aten::add.Tensor (node 'add')"));
  const std::string run = sy::str(SWITCHYARD_CLI_PATH, " run ", path.string(), " --random 0 > ", (dir / "run.txt").string(), " 2>&1");
  EXPECT_EQ(std::system(run.c_str()), 0) << run;
  const std::string inspect = sy::str(SWITCHYARD_CLI_PATH, " inspect ", path.string(), " --graph > ",
                                      (dir / "inspect.txt").string(), " 2>&1");
  ASSERT_EQ(std::system(inspect.c_str()), 0) << inspect;
  std::ifstream listing(dir / "inspect.txt");
  const std::string text((std::istreambuf_iterator<char>(listing)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("    0: delegate 0 (BackendWithCompilerDemo)(%0, %"));
  EXPECT_THAT(text, HasSubstr("         runs delegate debug handle 1: aten::add.Tensor (node 'add') at "
                              "tests/export/export_delegate_emit_test.cpp:"));
  EXPECT_THAT(text, HasSubstr("    1: aten::relu.out(%2, %3, %3)  # tests/export/export_delegate_emit_test.cpp:"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sy::export_
