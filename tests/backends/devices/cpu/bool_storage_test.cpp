// Bool tensors whose bytes are other than 0 and 1 (planned memory a program shares with a Float, a
// caller's buffer): every kernel reads a nonzero byte as true (See Note [Bool elements are read as
// bytes]). Before, a byte of 128 converted to 128.0, summed as 128 and compared unequal to true.
#include <cstring>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ops/binary_ops.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/index_ops.h"
#include "switchyard/ops/reduction_ops.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::doublesOf;

// A Bool tensor holding exactly `bytes`.
Tensor boolWithBytes(const std::vector<uint8_t>& bytes) {
  Tensor t = sy::empty({static_cast<int64_t>(bytes.size())}, ScalarType::Bool);
  std::memcpy(t.data_ptr(), bytes.data(), bytes.size());
  return t;
}

const std::vector<uint8_t> kBoolBytes = {0, 1, 2, 128, 255};

TEST(BoolStorage, ConvertsEveryNonzeroByteToOne) {
  const Tensor b = boolWithBytes(kBoolBytes);
  EXPECT_THAT(doublesOf(ops::_to_copy(b, ScalarType::Float)), ElementsAre(0, 1, 1, 1, 1));
  EXPECT_THAT(doublesOf(ops::_to_copy(b, ScalarType::Long)), ElementsAre(0, 1, 1, 1, 1));
  EXPECT_EQ(boolWithBytes({128}).item<int64_t>(), 1);
  EXPECT_EQ(boolWithBytes({128}).item<double>(), 1.0);
}

TEST(BoolStorage, CountsEveryNonzeroByteOnceInASum) {
  EXPECT_EQ(ops::sum(boolWithBytes(kBoolBytes)).item<int64_t>(), 4);
  EXPECT_EQ(ops::amax(boolWithBytes({0, 128}), {0}).item<int64_t>(), 1);
}

TEST(BoolStorage, ComparesEveryNonzeroByteEqualToTrue) {
  const Tensor trues = sy::full({5}, true, ScalarType::Bool);
  EXPECT_THAT(doublesOf(ops::eq(boolWithBytes(kBoolBytes), trues)), ElementsAre(0, 1, 1, 1, 1));
  EXPECT_TRUE(allclose(boolWithBytes({128, 2}), sy::full({2}, true, ScalarType::Bool)));
  // Every true is the same maximum: the first one wins.
  EXPECT_EQ(ops::argmax(boolWithBytes({0, 2, 255, 1})).item<int64_t>(), 1);
}

TEST(BoolStorage, SelectsWithEveryNonzeroByteInWhere) {
  const Tensor picked = ops::where(boolWithBytes(kBoolBytes), sy::ones({5}), sy::zeros({5}));
  EXPECT_THAT(doublesOf(picked), ElementsAre(0, 1, 1, 1, 1));
}

TEST(BoolStorage, GathersAndPrintsNonzeroBytesAsTrue) {
  const Tensor gathered = ops::gather(boolWithBytes({128, 0}), 0, sy::tensor<int64_t>({0, 1, 0}, {3}));
  EXPECT_THAT(doublesOf(ops::_to_copy(gathered, ScalarType::Long)), ElementsAre(1, 0, 1));
  EXPECT_THAT(boolWithBytes({128, 0}).toString(), HasSubstr("True, False"));
}

TEST(BoolStorage, ReadsABoolThatSharesAFloatsPlannedBytesAsNonzeroBytes) {
  // c (Bool[8]) is planned over the bytes of x (Float[2]), so the Float's bytes 0x80, 0x3f and
  // 0xc0 are Bool elements; _to_copy.out and where.self_out read them as true.
  testing::ProgramBuilder b;
  const int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  const int c = b.plannedTensor(ScalarType::Bool, {8}, 1, 0);
  const int as_float = b.plannedTensor(ScalarType::Float, {8}, 1, 16);
  const int picked = b.plannedTensor(ScalarType::Float, {8}, 1, 48);
  const int ones = b.constantTensor<float>(ScalarType::Float, {8}, std::vector<float>(8, 1.0f));
  const int zeros = b.constantTensor<float>(ScalarType::Float, {8}, std::vector<float>(8, 0.0f));
  b.kernelCall(b.op("aten::_to_copy", "out"), {c, b.boolValue(false), b.noneValue(), as_float, as_float});
  b.kernelCall(b.op("aten::where", "self_out"), {c, ones, zeros, picked, picked});
  b.inputs({x}).outputs({as_float, picked}).bufferSizes({0, 80});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "shared_bool.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, sy::tensor<float>({1.0f, -2.0f}, {2})).ok());  // bytes 00 00 80 3f, 00 00 00 c0
  ASSERT_TRUE(m->execute().ok());
  EXPECT_THAT(doublesOf(m->get_output(0).toTensor()), ElementsAre(0, 0, 1, 1, 0, 0, 0, 1));
  EXPECT_THAT(doublesOf(m->get_output(1).toTensor()), ElementsAre(0, 0, 1, 1, 0, 0, 0, 1));
}

}  // namespace
}  // namespace sy
