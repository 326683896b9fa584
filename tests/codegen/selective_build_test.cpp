// Selective build from a program file: the operators and kernel keys a .pte's calls need, the
// kernels kept for them, and the build errors when a kernel the program needs is not there. The
// programs are written with ProgramBuilder into a temporary directory, as the loader's tests do.
#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/codegen/emit.h"
#include "switchyard/codegen/kernel_yaml.h"
#include "switchyard/codegen/program_operators.h"
#include "switchyard/program/testing/program_builder.h"

namespace sy::codegen {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

class SelectiveBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sy_selective_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir_);
    schemas_.emplace("aten::add.out",
                     parseSchema("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"));
    schemas_.emplace("aten::mul.out", parseSchema("aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string writeFile(const std::string& name, const std::vector<uint8_t>& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
  }
  std::string writeYaml(const std::string& yaml) {
    const std::string path = (dir_ / "selective_kernels.yaml").string();
    std::ofstream(path) << yaml;
    return path;
  }

  // sum = a + c on contiguous 2x3 Float tensors; prod = d * d on 2x3 Double tensors of dim order (1, 0).
  std::string addThenMulProgram() {
    sy::testing::ProgramBuilder b;
    const int a = b.plannedTensor(ScalarType::Float, {2, 3}, 1, 0);
    const int c = b.plannedTensor(ScalarType::Float, {2, 3}, 1, 32);
    const int sum = b.plannedTensor(ScalarType::Float, {2, 3}, 1, 64);
    const int d = b.plannedTensor(ScalarType::Double, {2, 3}, 1, 96, {1, 0});
    const int prod = b.plannedTensor(ScalarType::Double, {2, 3}, 1, 160, {1, 0});
    const int alpha = b.intValue(1);
    const int add = b.op("aten::add", "out");
    const int mul = b.op("aten::mul", "out");
    b.kernelCall(add, {a, c, alpha, sum, sum});
    b.kernelCall(mul, {d, d, prod, prod});
    b.inputs({a, c, d}).outputs({sum, prod}).bufferSizes({0, 224});
    return writeFile("add_mul.pte", b.finish());
  }

  std::filesystem::path dir_;
  SchemaIndex schemas_;
};

TEST_F(SelectiveBuild, SelectsTheOperatorsAProgramCallsWithTheKernelKeysOfItsCalls) {
  OperatorSelection selection;
  selection.include_all = false;
  const std::string path = addThenMulProgram();
  selectProgramOperators(path, schemas_, selection);
  EXPECT_THAT(selection.operators, ElementsAre("aten::add.out", "aten::mul.out"));
  // The results after the arguments are not part of the key; the Scalar alpha is no tensor.
  EXPECT_THAT(selection.kernel_keys["aten::add.out"], ElementsAre("v1/6;0,1|6;0,1|6;0,1"));
  EXPECT_THAT(selection.kernel_keys["aten::mul.out"], ElementsAre("v1/7;1,0|7;1,0|7;1,0"));
  EXPECT_THAT(selection.programs, ElementsAre(path));

  // The selection file keeps the keys (as ExecuTorch's et_kernel_metadata) and the programs.
  const std::string yaml = (dir_ / "selected_operators.yaml").string();
  writeSelection(yaml, selection);
  const OperatorSelection read = readSelection(yaml);
  EXPECT_FALSE(read.include_all);
  EXPECT_EQ(read.operators, selection.operators);
  EXPECT_EQ(read.kernel_keys, selection.kernel_keys);
  EXPECT_EQ(read.programs, selection.programs);
}

TEST_F(SelectiveBuild, RefusesAProgramCallingAnOperatorNoSchemaDefinesOrADamagedFile) {
  sy::testing::ProgramBuilder b;
  const int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  b.kernelCall(b.op("custom::frobnicate", "out"), {x, x});
  b.inputs({x}).outputs({x}).bufferSizes({0, 8});
  const std::string unknown = writeFile("unknown.pte", b.finish());
  OperatorSelection selection;
  try {
    selectProgramOperators(unknown, schemas_, selection);
    FAIL() << "expected an error";
  } catch (const CodegenError& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown.pte: error: selective build: method 'forward' instruction 0 calls "
                                    "custom::frobnicate.out, which no schema defines"));
  }
  std::vector<uint8_t> bytes = sy::testing::ProgramBuilder().finish();
  bytes.resize(bytes.size() / 2);
  const std::string truncated = writeFile("truncated.pte", bytes);
  try {
    selectProgramOperators(truncated, schemas_, selection);
    FAIL() << "expected an error";
  } catch (const CodegenError& e) {
    EXPECT_THAT(e.what(), HasSubstr("truncated.pte: error: not a program selective build can read"));
  }
  EXPECT_THROW(selectProgramOperators((dir_ / "absent.pte").string(), schemas_, selection), CodegenError);
}

constexpr const char* kMulKernels =
    "- op: mul.out\n"
    "  type_alias:\n    T0: [Float, Double]\n"
    "  dim_order_alias:\n    D0: [0, 1]\n"
    "  kernels:\n"
    "    - arg_meta:\n        self: [T0, D0]\n        other: [T0, D0]\n        out: [T0, D0]\n"
    "      kernel_name: sel::mul_out_contiguous\n";

TEST_F(SelectiveBuild, KeepsOnlyTheKernelsTheProgramsKeysResolveTo) {
  KernelLibrary library;
  parseKernelYaml(writeYaml(std::string(kMulKernels) + "    - arg_meta: null\n      kernel_name: sel::mul_out\n"), schemas_, library);
  OperatorSelection selection;
  selection.include_all = false;
  selection.operators = {"aten::mul.out"};
  // The Float contiguous call has its exact kernel; the Double call has none and takes the default.
  selection.kernel_keys["aten::mul.out"] = {"v1/6;0,1|6;0,1|6;0,1"};
  const KernelLibrary exact = selectedKernels(library, selection);
  ASSERT_EQ(exact.operators.size(), 1u);
  ASSERT_EQ(exact.operators[0].kernels.size(), 1u);
  EXPECT_EQ(exact.operators[0].kernels[0].key.toString(), "v1/6;0,1|6;0,1|6;0,1");
  const std::string registered = generate(library, selection).register_kernels_cpp;
  EXPECT_THAT(registered, HasSubstr("sel::native::mul_out_contiguous"));
  EXPECT_THAT(registered, Not(HasSubstr("sel::native::mul_out)")));
  EXPECT_THAT(registered, HasSubstr("{\"v1/6;0,1|6;0,1|6;0,1\"}"));
  EXPECT_THAT(registered, Not(HasSubstr("v1/7;")));  // no Double key

  selection.kernel_keys["aten::mul.out"] = {"v1/7;1,0|7;1,0|7;1,0"};
  const KernelLibrary fallback = selectedKernels(library, selection);
  ASSERT_EQ(fallback.operators[0].kernels.size(), 1u);
  EXPECT_TRUE(fallback.operators[0].kernels[0].key.isDefault());

  // A key none of this library's kernels serves is left to aten::mul.out's own (portable) kernel.
  KernelLibrary partial;
  parseKernelYaml(writeYaml(kMulKernels), schemas_, partial);
  selection.kernel_keys["aten::mul.out"] = {"v1/3;0|3;0|3;0"};
  const KernelLibrary none = selectedKernels(partial, selection);
  ASSERT_EQ(none.operators.size(), 1u);
  EXPECT_TRUE(none.operators[0].kernels.empty());
  EXPECT_THAT(generate(partial, selection).register_kernels_cpp, Not(HasSubstr("registerKernel")));

  // Named without a program, an operator keeps every kernel.
  selection.kernel_keys.clear();
  EXPECT_EQ(selectedKernels(library, selection).operators[0].kernels.size(), 3u);
}

TEST_F(SelectiveBuild, FailsAtBuildTimeNamingTheOperatorKeyAndYamlWhenNoKernelServesAProgramsCall) {
  // The library owning aten::mul.out has a kernel for contiguous Float only, and no default.
  KernelLibrary library;
  library.dispatch_key = "CPU";
  const std::string yaml = writeYaml(
      "- func: aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  type_alias:\n    T0: [Float]\n"
      "  dim_order_alias:\n    D0: [0, 1]\n"
      "  kernels:\n"
      "    - arg_meta:\n        self: [T0, D0]\n        other: [T0, D0]\n        out: [T0, D0]\n"
      "      kernel_name: sel::mul_out_contiguous\n");
  parseKernelYaml(yaml, SchemaIndex{}, library);
  OperatorSelection selection;
  selection.include_all = false;
  selection.operators = {"aten::mul.out"};
  selection.kernel_keys["aten::mul.out"] = {"v1/3;0|3;0|3;0"};
  selection.programs = {"model.pte"};
  try {
    generate(library, selection);
    FAIL() << "expected an error";
  } catch (const CodegenError& e) {
    EXPECT_THAT(e.what(), HasSubstr(yaml + ":1: error: selective build: model.pte calls aten::mul.out with kernel key "
                                           "v1/3;0|3;0|3;0 (Int, dim order 0; Int, dim order 0; Int, dim order 0), which no "
                                           "kernel here has and aten::mul.out has no default kernel"));
    EXPECT_THAT(e.what(), HasSubstr("v1/6;0,1|6;0,1|6;0,1 -> sel::native::mul_out_contiguous (" + yaml + ":11)"));
  }
}

TEST_F(SelectiveBuild, FailsWhenAProgramCallsAnOperatorOfTheOwnedNamespaceThatNoYamlDefines) {
  KernelLibrary library;
  library.dispatch_key = "CPU";
  const std::string yaml = writeYaml(
      "- func: aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  kernels: [{arg_meta: null, kernel_name: sel::mul_out}]\n");
  parseKernelYaml(yaml, SchemaIndex{}, library);
  OperatorSelection selection;
  selection.include_all = false;
  selection.operators = {"aten::mul.out", "aten::add.out", "custom::scale.out"};
  selection.kernel_keys["aten::mul.out"] = {"v1/6;0|6;0|6;0"};
  selection.kernel_keys["custom::scale.out"] = {"v1/6;0|6;0"};
  selection.programs = {"model.pte"};
  // custom:: is not this library's namespace: another library provides it.
  EXPECT_THAT(generate(library, selection).register_operators_cpp, HasSubstr("::sy::withContext<&::sel::native::mul_out, "));
  selection.kernel_keys["aten::add.out"] = {"v1/6;0|6;0|6;0"};
  try {
    generate(library, selection);
    FAIL() << "expected an error";
  } catch (const CodegenError& e) {
    EXPECT_THAT(e.what(), HasSubstr("model.pte: error: selective build: the program calls aten::add.out (kernel key "
                                    "v1/6;0|6;0|6;0 (Float, dim order 0; Float, dim order 0; Float, dim order 0)), which "
                                    "none of the kernel YAML files (" + yaml + ") defines"));
  }
}

}  // namespace
}  // namespace sy::codegen
