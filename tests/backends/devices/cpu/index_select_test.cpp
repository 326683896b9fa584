// index_select through the dispatcher: rows or columns picked by a Long or Int index, negative
// dims, transposed self, a 0-dim self, and its errors. (The PyTorch oracle, conformance/oracle/,
// compares every dtype, shape and layout with PyTorch itself.)
//
// References: the selected entries of small iota tensors, written out by hand.
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::iota;
using sy::testing::valuesOf;

TEST(IndexSelect, PicksRowsOrColumnsInIndexOrderRepeatsIncluded) {
  const Tensor x = iota({3, 4});  // 0..11, rows of 4
  const Tensor rows = ops::index_select(x, 0, tensor<int64_t>({2, 0, 2}));
  EXPECT_THAT(rows.sizes(), ElementsAre(3, 4));
  EXPECT_THAT(valuesOf<float>(rows), ElementsAre(8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11));
  const Tensor columns = ops::index_select(x, -1, tensor<int32_t>({3, 1}));
  EXPECT_THAT(valuesOf<float>(columns), ElementsAre(3, 1, 7, 5, 11, 9));
}

TEST(IndexSelect, ReadsATransposedSelfThroughItsStrides) {
  const Tensor t = ops::transpose(iota({3, 2}), 0, 1);  // [2, 3]: 0 2 4 / 1 3 5
  Tensor out = sy::empty({0});
  ops::index_select_out(out, t, 1, tensor<int64_t>({2, 0}));
  EXPECT_THAT(out.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(4, 0, 5, 1));
}

// Found by the PyTorch oracle: the result of a 0-dim self is 0-dim even for a 1-D index.
TEST(IndexSelect, AZeroDimSelfTakesItsOneEntryAndStaysZeroDim) {
  const Tensor s = sy::full({}, 7.0);
  EXPECT_EQ(ops::index_select(s, 0, tensor<int64_t>({0})).dim(), 0);
  EXPECT_EQ(ops::index_select(s, -1, sy::full({}, 0, ScalarType::Long)).dim(), 0);
}

TEST(IndexSelect, RefusesOutOfRangeFloatingAndMatrixIndicesNamingThem) {
  const Tensor x = iota({3, 4});
  EXPECT_THAT(errorMessageOf([&] { ops::index_select(x, 0, tensor<int64_t>({3})); }),
              HasSubstr("aten::index_select: index out of range in self: index 3 is out of bounds for dimension 0 "
                        "with size 3"));
  EXPECT_THAT(errorMessageOf([&] { ops::index_select(x, 0, tensor<int64_t>({-1})); }), HasSubstr("index -1"));
  EXPECT_THAT(errorMessageOf([&] { ops::index_select(x, 0, tensor<float>({0})); }),
              HasSubstr("Expected dtype int32 or int64 for index"));
  EXPECT_THAT(errorMessageOf([&] { ops::index_select(x, 0, sy::zeros({2, 2}, ScalarType::Long)); }),
              HasSubstr("Index is supposed to be a vector"));
  EXPECT_THAT(errorMessageOf([&] { ops::index_select(x, 2, tensor<int64_t>({0})); }), HasSubstr("out of range"));
}

}  // namespace
}  // namespace sy
