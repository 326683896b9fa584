// Errors keep their kind at every boundary of a program's life (See Note [An error keeps its kind
// across every boundary], core/error_status.h): a kernel's error through Method::execute, a
// delegate's status through execute and through load_method, a method's missing operators and
// backends through load_method, and each through the command line's exit status.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "switchyard/core/error_status.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/etdump.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "switchyard/switchyard.h"
#include "tools/cli_test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::ProgramBuilder;

// What error_kinds::raise.out raises for each `kind` argument.
enum RaisedKind : int64_t { kRaiseGeneric, kRaiseIndex, kRaiseValue, kRaiseType, kRaiseNotImplemented, kRaiseLogicError, kRaiseBadAlloc };

Tensor& raiseKindOut(const Tensor& self, int64_t kind, Tensor& out) {
  switch (kind) {
    case kRaiseGeneric: SY_ERROR("error_kinds::raise: a generic check failed");
    case kRaiseIndex: SY_ERROR_KIND(Index, "error_kinds::raise: dimension 7 out of range");
    case kRaiseValue: SY_ERROR_KIND(Value, "error_kinds::raise: a value out of its domain");
    case kRaiseType: SY_ERROR_KIND(Type, "error_kinds::raise: expected Float but got Long");
    case kRaiseNotImplemented: SY_ERROR_KIND(NotImplemented, "error_kinds::raise: no kernel for Half");
    case kRaiseLogicError: throw std::logic_error("an invariant of the kernel broke");
    case kRaiseBadAlloc: throw std::bad_alloc();
    default: break;
  }
  out.copy_(self);
  return out;
}

SY_LIBRARY(error_kinds, m) { m.def("raise.out(Tensor self, int kind, *, Tensor(a!) out) -> Tensor(a!)"); }
SY_LIBRARY_IMPL(error_kinds, CPU, m) { m.impl("raise.out", &raiseKindOut); }

// forward(x: Float[2]) = error_kinds::raise(x, kind).
std::vector<uint8_t> raisingProgram(int64_t kind) {
  ProgramBuilder b;
  const int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  const int y = b.plannedTensor(ScalarType::Float, {2}, 1, 16);
  b.kernelCall(b.op("error_kinds::raise", "out"), {x, b.intValue(kind), y, y});
  b.inputs({x}).outputs({y}).bufferSizes({0, 32});
  return b.finish();
}

// Runs the raising program; with `recorder`, with that recorder attached (the recorded loop).
absl::Status executeRaising(int64_t kind, ETDumpRecorder* recorder = nullptr) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(raisingProgram(kind), "kinds.pte");
  if (!program.ok()) return program.status();
  absl::StatusOr<Method> method = program->load_method("forward");
  if (!method.ok()) return method.status();
  if (recorder != nullptr) {
    if (absl::Status s = method->set_event_tracer(recorder); !s.ok()) return s;
  }
  if (absl::Status s = method->set_input(0, tensor(std::vector<float>{1, 2}, {2})); !s.ok()) return s;
  return method->execute();
}

TEST(ErrorKindBoundaries, AKernelsErrorLeavesExecuteWithTheCodeAndKindOfItsKind) {
  struct Case {
    int64_t raise;
    absl::StatusCode code;
    ErrorKind kind;
  };
  for (const Case& c : {Case{kRaiseGeneric, absl::StatusCode::kInvalidArgument, ErrorKind::Generic},
                        Case{kRaiseIndex, absl::StatusCode::kOutOfRange, ErrorKind::Index},
                        Case{kRaiseValue, absl::StatusCode::kInvalidArgument, ErrorKind::Value},
                        Case{kRaiseType, absl::StatusCode::kInvalidArgument, ErrorKind::Type},
                        Case{kRaiseNotImplemented, absl::StatusCode::kUnimplemented, ErrorKind::NotImplemented}}) {
    const absl::Status status = executeRaising(c.raise);
    EXPECT_EQ(status.code(), c.code) << status;
    EXPECT_EQ(errorKindOf(status), c.kind) << status;
    EXPECT_THAT(status.message(), HasSubstr("program 'kinds.pte': method 'forward': instruction 0 (error_kinds::raise.out) failed: error_kinds::raise: "));
  }
}

TEST(ErrorKindBoundaries, AKernelsErrorKeepsItsKindWhenARecorderIsAttached) {
  // The recorded loop (program/method_recorded.cpp) once turned every error into an internal one.
  ETDumpRecorder recorder;
  const absl::Status status = executeRaising(kRaiseIndex, &recorder);
  EXPECT_EQ(status.code(), absl::StatusCode::kOutOfRange) << status;
  EXPECT_EQ(errorKindOf(status), ErrorKind::Index) << status;
  EXPECT_THAT(status.message(), HasSubstr("instruction 0 (error_kinds::raise.out) failed: error_kinds::raise: dimension 7"));
  EXPECT_EQ(recorder.runs(), 1u);
  EXPECT_TRUE(executeRaising(-1, &recorder).ok());
}

TEST(ErrorKindBoundaries, AKernelsOtherExceptionIsAnInternalErrorAndOutOfMemoryIsResourceExhausted) {
  const absl::Status bug = executeRaising(kRaiseLogicError);
  EXPECT_EQ(bug.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(bug.message(), HasSubstr("failed: internal error, please report it: an invariant of the kernel broke"));
  EXPECT_EQ(executeRaising(kRaiseBadAlloc).code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(executeRaising(-1).ok());
}

// Returns from init and execute the status codes its blob names: blob[0] for init, blob[1] for
// execute (0 = OK).
class CodedStatusBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }
  absl::StatusOr<DelegateHandle*> init(BackendInitContext&, FreeableBuffer* processed,
                                       absl::Span<const CompileSpec>) const override {
    const auto* blob = static_cast<const uint8_t*>(processed->data());
    if (processed->size() != 2) return absl::InvalidArgumentError("expected a 2-byte blob");
    if (blob[0] != 0) return absl::Status(static_cast<absl::StatusCode>(blob[0]), "init refused");
    return new uint8_t(blob[1]);
  }
  absl::Status execute(BackendExecutionContext&, DelegateHandle* handle, absl::Span<IValue*>) const override {
    const uint8_t code = *static_cast<const uint8_t*>(handle);
    if (code == 0) return absl::OkStatus();
    return absl::Status(static_cast<absl::StatusCode>(code), "execute refused");
  }
  void destroy(DelegateHandle* handle) const override { delete static_cast<uint8_t*>(handle); }
};

CodedStatusBackend coded_status_backend;
const absl::Status coded_status_registered = register_backend({"CodedStatusBackend", &coded_status_backend});

std::vector<uint8_t> codedDelegateProgram(absl::StatusCode init, absl::StatusCode execute,
                                          const std::string& backend = "CodedStatusBackend") {
  ProgramBuilder b;
  const int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  const int d = b.delegate(backend, {static_cast<uint8_t>(init), static_cast<uint8_t>(execute)});
  b.delegateCall(d, {x}).inputs({x}).outputs({x}).bufferSizes({0, 16});
  return b.finish();
}

TEST(ErrorKindBoundaries, ADelegatesStatusCodeReachesTheCallerOfExecuteAndOfLoadMethod) {
  ASSERT_TRUE(coded_status_registered.ok()) << coded_status_registered;
  for (absl::StatusCode code : {absl::StatusCode::kDataLoss, absl::StatusCode::kInvalidArgument,
                                absl::StatusCode::kUnimplemented, absl::StatusCode::kResourceExhausted,
                                absl::StatusCode::kInternal}) {
    absl::StatusOr<Program> program = Program::loadFromBuffer(codedDelegateProgram(absl::StatusCode::kOk, code), "d.pte");
    ASSERT_TRUE(program.ok()) << program.status();
    absl::StatusOr<Method> method = program->load_method("forward");
    ASSERT_TRUE(method.ok()) << method.status();
    ASSERT_TRUE(method->set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
    const absl::Status executed = method->execute();
    EXPECT_EQ(executed.code(), code) << executed;
    EXPECT_THAT(executed.message(), HasSubstr("delegate 0 of method 'forward' failed in its backend's execute: "));
    EXPECT_THAT(executed.message(), HasSubstr("execute refused"));

    absl::StatusOr<Program> refusing = Program::loadFromBuffer(codedDelegateProgram(code, absl::StatusCode::kOk), "d.pte");
    ASSERT_TRUE(refusing.ok()) << refusing.status();
    const absl::Status loaded = refusing->load_method("forward").status();
    EXPECT_EQ(loaded.code(), code) << loaded;
    EXPECT_THAT(loaded.message(), HasSubstr("failed to initialise: init refused"));
  }
}

TEST(ErrorKindBoundaries, AMethodsMissingOperatorsAndBackendsAreUnimplementedNotInvalidInput) {
  ProgramBuilder b;
  const int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  b.kernelCall(b.op("error_kinds::no_such_operator", "out"), {x, x});
  b.inputs({x}).outputs({x}).bufferSizes({0, 16});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "missing.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  const absl::Status missing_operator = program->load_method("forward").status();
  EXPECT_EQ(missing_operator.code(), absl::StatusCode::kUnimplemented) << missing_operator;
  EXPECT_THAT(missing_operator.message(), HasSubstr("needs 1 operator that Switchyard does not have: error_kinds::no_such_operator.out"));

  absl::StatusOr<Program> delegated = Program::loadFromBuffer(
      codedDelegateProgram(absl::StatusCode::kOk, absl::StatusCode::kOk, "NoSuchBackendForKinds"), "missing.pte");
  ASSERT_TRUE(delegated.ok()) << delegated.status();
  const absl::Status missing_backend = delegated->load_method("forward").status();
  EXPECT_EQ(missing_backend.code(), absl::StatusCode::kUnimplemented) << missing_backend;
  EXPECT_THAT(missing_backend.message(), HasSubstr("needs backend 'NoSuchBackendForKinds'"));
}

// The command line's exit status: 1 the input is at fault, 3 Switchyard lacks what the program
// needs; one line on stderr either way.
TEST(ErrorKindBoundaries, TheCommandLineExitsWithTheStatusOfTheErrorsKind) {
  namespace cli = ::sy::testing::cli;
  ProgramBuilder b;
  const int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  b.kernelCall(b.op("error_kinds::no_such_operator", "out"), {x, x});
  b.inputs({x}).outputs({x}).bufferSizes({0, 16});
  const std::vector<uint8_t> bytes = b.finish();
  const std::string missing = cli::tempPath("error_kinds_missing_operator.pte");
  std::ofstream(missing, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  cli::expectOneLineError(cli::runCli("run " + missing + " --random 0"), "that Switchyard does not have", 3);

  const std::string corrupt = cli::writeTemp("error_kinds_corrupt.pte", "not a program at all");
  cli::expectOneLineError(cli::runCli("run " + corrupt + " --random 0"), "not an ExecuTorch program", 1);
  std::remove(missing.c_str());
  std::remove(corrupt.c_str());
}

}  // namespace
}  // namespace sy
