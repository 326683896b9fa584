// A program's own named data as the API lists it (Program::named_data; `switchyard inspect`
// prints it): every key in file order with the size of its blob, and a readable error for a key
// whose segment the file does not have.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "program/program_test_support.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"

namespace sy {
namespace {

using ::testing::HasSubstr;

TEST(ProgramNamedData, ListsEveryKeyWithTheSizeOfItsBlob) {
  testing::ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {1}, 1, 0);
  b.inputs({x}).outputs({x}).bufferSizes({0, 8});
  b.namedData("weights", std::vector<uint8_t>(100, 1)).namedData("scale", std::vector<uint8_t>(4, 2));
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  const std::vector<NamedDataInfo> named = program->named_data();
  ASSERT_EQ(named.size(), 2u);
  EXPECT_EQ(named[0].key, "weights");
  EXPECT_EQ(named[0].size, 100u);
  EXPECT_EQ(named[1].key, "scale");
  EXPECT_EQ(named[1].size, 4u);
  EXPECT_EQ(named[1].error, "");
}

TEST(ProgramNamedData, APublishedXnnpackProgramKeepsItsWeightsThere) {
  SY_REFERENCE_PROGRAM_OR_SKIP(path, "wild/djl-executorch-engine__lin129.pte");
  absl::StatusOr<Program> program = Program::load(path);
  ASSERT_TRUE(program.ok()) << program.status();
  const std::vector<NamedDataInfo> named = program->named_data();
  ASSERT_EQ(named.size(), 2u);
  // The 129 x 64 float weights and the 64 float biases, under their SHA-256 keys.
  EXPECT_EQ(named[0].key, "79ecd561afb8dfd3b2e68da7b144ddea395854ffdd7632674ebf0d8da8a2b4c9");
  EXPECT_EQ(named[0].size, 33024u);
  EXPECT_EQ(named[1].size, 256u);
}

}  // namespace
}  // namespace sy
