// aten::embedding and aten::embedding.out: output rows are the weight rows the indices name, for
// every weight dtype, Int and Long indices of any shape, strided tables and indices, and the
// errors (out-of-range indices named by value and position). Copies are exact.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;
using sy::testing::valuesOf;
using sy::testing::viewOf;

// A 4 x 3 table whose row r is [10r, 10r + 1, 10r + 2].
template <class T = float>
Tensor table() {
  std::vector<T> values;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 3; ++c) values.push_back(static_cast<T>(10 * r + c));
  }
  return tensor<T>(values, {4, 3});
}

TEST(Embedding, PicksRowsInIndexOrder) {
  Tensor y = ops::embedding(table(), tensor<int64_t>({2, 0, 2, 3}));
  EXPECT_THAT(y.sizes(), ElementsAre(4, 3));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(20, 21, 22, 0, 1, 2, 20, 21, 22, 30, 31, 32));
}

TEST(Embedding, IndexShapeGainsTheEmbeddingDimension) {
  Tensor y = ops::embedding(table(), tensor<int64_t>({1, 2, 3, 0}, {2, 1, 2}));
  EXPECT_THAT(y.sizes(), ElementsAre(2, 1, 2, 3));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(10, 11, 12, 20, 21, 22, 30, 31, 32, 0, 1, 2));
}

TEST(Embedding, ZeroDimIndexGivesOneRow) {
  Tensor y = ops::embedding(table(), full({}, 3, ScalarType::Long));
  EXPECT_THAT(y.sizes(), ElementsAre(3));
  EXPECT_THAT(valuesOf<float>(y), ElementsAre(30, 31, 32));
}

TEST(Embedding, EmptyIndicesGiveNoRows) {
  EXPECT_THAT(ops::embedding(table(), empty({0}, ScalarType::Long)).sizes(), ElementsAre(0, 3));
  EXPECT_THAT(ops::embedding(table(), empty({2, 0}, ScalarType::Int)).sizes(), ElementsAre(2, 0, 3));
}

TEST(Embedding, IntIndicesWorkLikeLongIndices) {
  EXPECT_EQ(valuesOf<float>(ops::embedding(table(), tensor<int32_t>({3, 1}))),
            valuesOf<float>(ops::embedding(table(), tensor<int64_t>({3, 1}))));
}

TEST(Embedding, EveryWeightDtypeIsCopiedExactly) {
  const Tensor ids = tensor<int64_t>({1, 3});
  EXPECT_THAT(valuesOf<double>(ops::embedding(table<double>(), ids)), ElementsAre(10, 11, 12, 30, 31, 32));
  EXPECT_THAT(valuesOf<int32_t>(ops::embedding(table<int32_t>(), ids)), ElementsAre(10, 11, 12, 30, 31, 32));
  EXPECT_THAT(valuesOf<int64_t>(ops::embedding(table<int64_t>(), ids)), ElementsAre(10, 11, 12, 30, 31, 32));
  Tensor flags = tensor<bool>({true, false, false, true}, {2, 2});
  EXPECT_THAT(valuesOf<bool>(ops::embedding(flags, tensor<int64_t>({1, 0}))),
              ElementsAre(false, true, true, false));
}

TEST(Embedding, NanAndInfinityRowsAreCopiedVerbatim) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Tensor weight = tensor<float>({nan, -inf, 1, 2}, {2, 2});
  std::vector<float> y = valuesOf<float>(ops::embedding(weight, tensor<int64_t>({0})));
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(y[1], -inf);
}

TEST(Embedding, PaddingIdxDoesNotChangeTheForwardResult) {
  // padding_idx only stops gradients; the forward still returns that row.
  EXPECT_THAT(valuesOf<float>(ops::embedding(table(), tensor<int64_t>({0, 1}), /*padding_idx=*/0)),
              ElementsAre(0, 1, 2, 10, 11, 12));
}

TEST(Embedding, TransposedTableIsReadThroughItsStrides) {
  // The transpose of a 3 x 4 tensor: logical row r is column r of the base.
  Tensor base = tensor<float>({0, 10, 20, 30, 1, 11, 21, 31, 2, 12, 22, 32}, {3, 4});
  Tensor transposed = viewOf(base, {4, 3}, {1, 4});
  EXPECT_THAT(valuesOf<float>(ops::embedding(transposed, tensor<int64_t>({3, 0}))), ElementsAre(30, 31, 32, 0, 1, 2));
}

TEST(Embedding, SlicedAndBroadcastTablesAreReadInPlace) {
  // Every other row of the table (row stride 6), and one row repeated (row stride 0).
  Tensor every_other = viewOf(table(), {2, 3}, {6, 1}, 3);  // rows 1 and 3
  EXPECT_THAT(valuesOf<float>(ops::embedding(every_other, tensor<int64_t>({1, 0}))), ElementsAre(30, 31, 32, 10, 11, 12));
  Tensor repeated = viewOf(table(), {5, 3}, {0, 1}, 6);  // row 2, five times
  EXPECT_THAT(valuesOf<float>(ops::embedding(repeated, tensor<int64_t>({4}))), ElementsAre(20, 21, 22));
}

TEST(Embedding, StridedIndicesAreReadInLogicalOrder) {
  Tensor ids = tensor<int64_t>({3, 9, 1, 9, 2, 9});
  Tensor every_other = viewOf(ids, {3}, {2});  // [3, 1, 2]
  EXPECT_THAT(valuesOf<float>(ops::embedding(table(), every_other)), ElementsAre(30, 31, 32, 10, 11, 12, 20, 21, 22));
}

TEST(Embedding, OutReturnsTheCallersTensorResizedFromTheWrongShape) {
  Tensor out = zeros({1});
  EXPECT_EQ(&ops::embedding_out(out, table(), tensor<int64_t>({2, 1})), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(20, 21, 22, 10, 11, 12));
}

TEST(Embedding, OutOfDoubleReceivesTheRowsConverted) {
  Tensor out = empty({1, 3}, ScalarType::Double);
  ops::embedding_out(out, table(), tensor<int64_t>({3}));
  EXPECT_THAT(valuesOf<double>(out), ElementsAre(30, 31, 32));
}

TEST(Embedding, OutOfRangeIndexIsNamedWithItsPosition) {
  EXPECT_TRUE(raisesError([] { ops::embedding(table(), tensor<int64_t>({0, 4, 1})); }, ErrorKind::Index,
                          "aten::embedding: index 4 at position 1 of 'indices' is out of range for 'weight' with 4 "
                          "rows (expected 0 <= index < 4)"));
}

TEST(Embedding, NegativeIndexIsRejected) {
  EXPECT_EQ(errorMessageOf([] { ops::embedding(table(), tensor<int32_t>({-1})); }),
            "aten::embedding: index -1 at position 0 of 'indices' is out of range for 'weight' with 4 rows (expected "
            "0 <= index < 4)");
}

TEST(Embedding, FailedOutCallLeavesOutUntouched) {
  Tensor out = full({2}, 7.0);
  EXPECT_EQ(errorMessageOf([&] { ops::embedding_out(out, table(), tensor<int64_t>({1, 9})); }),
            "aten::embedding.out: index 9 at position 1 of 'indices' is out of range for 'weight' with 4 rows "
            "(expected 0 <= index < 4)");
  EXPECT_THAT(out.sizes(), ElementsAre(2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(7, 7));
}

TEST(Embedding, FloatingIndicesAreRejected) {
  EXPECT_EQ(errorMessageOf([] { ops::embedding(table(), tensor<float>({1})); }),
            "aten::embedding: expected 'indices' to have dtype Long or Int but got Float");
}

TEST(Embedding, WeightMustBeTwoDimensional) {
  EXPECT_EQ(errorMessageOf([] { ops::embedding(ones({4}), tensor<int64_t>({1})); }),
            "aten::embedding: expected 'weight' to be a 2-D tensor (num_embeddings, embedding_dim) but got a 1-D "
            "tensor");
}

}  // namespace
}  // namespace sy
