// A kernel call's arguments and results against its operator's schema, checked when a method loads:
// a program cannot turn a tensor value into a number (or back) through a kernel's result.
#include <filesystem>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/match.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "program/program_test_support.h"

namespace sy {
namespace {

int64_t countProgramElements(const Tensor& self) { return self.numel(); }
Tensor twosLikeProgramTensor(const Tensor& self) { return sy::full(self.sizes(), 2.0); }

}  // namespace
}  // namespace sy

SY_LIBRARY(programresults, m) {
  m.def("programresults::count(Tensor self) -> int");
  m.def("programresults::twos(Tensor self) -> Tensor");
}
SY_LIBRARY_IMPL(programresults, CPU, m) {
  m.impl("count", SY_FN(sy::countProgramElements));
  m.impl("twos", SY_FN(sy::twosLikeProgramTensor));
}

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::ProgramBuilder;

absl::StatusOr<Method> loadResultProgram(ProgramBuilder& b) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "results.pte");
  if (!program.ok()) return program.status();
  return program->load_method("forward");
}

TEST(ProgramKernelTypes, RefusesAnIntResultWrittenIntoATensorOutput) {
  // count(x) -> int written into y, the method's Tensor output: executing it made the output an Int.
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {3}, 1, 0);
  int y = b.plannedTensor(ScalarType::Float, {3}, 1, 16);
  b.kernelCall(b.op("programresults::count", ""), {x, y}).inputs({x}).outputs({y}).bufferSizes({0, 32});
  absl::StatusOr<Method> m = loadResultProgram(b);
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument) << m.status();
  EXPECT_THAT(m.status().message(),
              HasSubstr("program 'results.pte': method 'forward': instruction 0 (programresults::count): result 0 is a "
                        "int, but the program writes it into value 1, a Tensor"));
}

TEST(ProgramKernelTypes, RefusesATensorResultWrittenIntoAnInt) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {3}, 1, 0);
  int n = b.intValue(0);
  b.kernelCall(b.op("programresults::twos", ""), {x, n}).inputs({x}).outputs({n}).bufferSizes({0, 16});
  absl::StatusOr<Method> m = loadResultProgram(b);
  EXPECT_THAT(m.status().message(),
              HasSubstr("instruction 0 (programresults::twos): result 0 is a Tensor, but the program writes it into "
                        "value 1, a int"));
}

TEST(ProgramKernelTypes, WritesResultsIntoValuesOfTheirKind) {
  // count(x) into an Int output, twos(x) into a Tensor output: both load and run.
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {3}, 1, 0);
  int y = b.plannedTensor(ScalarType::Float, {3}, 1, 16);
  int n = b.intValue(0);
  b.kernelCall(b.op("programresults::count", ""), {x, n});
  b.kernelCall(b.op("programresults::twos", ""), {x, y});
  b.inputs({x}).outputs({n, y}).bufferSizes({0, 32});
  absl::StatusOr<Method> m = loadResultProgram(b);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, sy::ones({3})).ok());
  ASSERT_TRUE(m->execute().ok());
  EXPECT_EQ(m->get_output(0).toInt(), 3);
  EXPECT_TRUE(allclose(m->get_output(1).toTensor(), sy::full({3}, 2.0)));
}

TEST(ProgramKernelTypes, LoadsEveryMethodOfTheReferenceProgramsItHasTheOperatorsFor) {
  // The type checks refuse nothing an exporter writes (None for an optional argument, int lists, a
  // Scalar given as an Int or Double, lists of tensors, results into values of their kind): every
  // method of every reference program (wild/ too) loads, unless an operator, a backend, a data file
  // or a dtype is missing.
  size_t methods = 0;
  for (const std::string& dir : {testing::referenceProgramsDir(), testing::referenceProgramsDir() + "/wild"}) {
    if (!std::filesystem::is_directory(dir)) continue;
    MethodOptions options;
    std::vector<std::string> programs;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      const std::string path = entry.path().string();
      if (entry.path().extension() == ".pte") programs.push_back(path);
      if (entry.path().extension() == ".ptd") {
        absl::StatusOr<std::shared_ptr<const DataFile>> data = DataFile::load(path);
        if (data.ok()) options.data_files.push_back(*data);
      }
    }
    for (const std::string& path : programs) {
      absl::StatusOr<Program> program = Program::load(path);
      if (!program.ok()) continue;  // the corrupt one, refused before any method is looked at
      for (const std::string& name : program->method_names()) {
        absl::StatusOr<Method> method = program->load_method(name, options);
        // Missing here: an operator, a backend, a data file, a dtype, or a backend that cannot
        // take the delegate's blob (ExecuTorch's own XNNPACK blobs are not Switchyard's format).
        const bool missing = absl::IsNotFound(method.status()) || absl::IsUnimplemented(method.status()) ||
                             absl::StrContains(method.status().message(), "failed to initialise");
        EXPECT_TRUE(method.ok() || missing) << path << ": " << method.status();
        methods += method.ok();
      }
    }
  }
  if (methods == 0) GTEST_SKIP() << "no reference program found under " << testing::referenceProgramsDir();
  RecordProperty("methods", static_cast<int>(methods));
}

}  // namespace
}  // namespace sy
