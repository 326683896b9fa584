// _pdist_forward and _cdist_forward through the dispatcher: each p (0, 1, 2, inf, general) against
// distances written out by hand, batch broadcasting, strided inputs, errors.
#include <cmath>
#include <cstdint>
#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::iota;
using sy::testing::valuesOf;

// Rows (0, 0), (3, 4), (3, 0).
Tensor pairwiseRows() { return tensor<double>({0, 0, 3, 4, 3, 0}, {3, 2}); }

TEST(Pdist, GivesTheDistanceOfEachRowPairForEachP) {
  EXPECT_THAT(valuesOf<double>(ops::_pdist_forward(pairwiseRows())), ElementsAre(5, 3, 4));
  EXPECT_THAT(valuesOf<double>(ops::_pdist_forward(pairwiseRows(), 1)), ElementsAre(7, 3, 4));
  EXPECT_THAT(valuesOf<double>(ops::_pdist_forward(pairwiseRows(), 0)), ElementsAre(2, 1, 1));
  EXPECT_THAT(valuesOf<double>(ops::_pdist_forward(pairwiseRows(), std::numeric_limits<double>::infinity())),
              ElementsAre(4, 3, 4));
  EXPECT_THAT(valuesOf<double>(ops::_pdist_forward(pairwiseRows(), 3)),
              ElementsAre(DoubleNear(std::cbrt(91.0), 1e-12), DoubleNear(3, 1e-12), DoubleNear(4, 1e-12)));
  EXPECT_EQ(ops::_pdist_forward(iota({1, 3})).numel(), 0);
}

TEST(Pdist, ReadsATransposedSelf) {
  const Tensor columns = ops::transpose(tensor<float>({0, 3, 3, 0, 4, 0}, {2, 3}), 0, 1);  // pairwiseRows as Float
  EXPECT_THAT(valuesOf<float>(ops::_pdist_forward(columns)), ElementsAre(5, 3, 4));
}

TEST(Pdist, RefusesNonMatricesIntegralSelvesAndNegativeP) {
  EXPECT_THAT(errorMessageOf([&] { ops::_pdist_forward(iota({3})); }),
              HasSubstr("aten::_pdist_forward: pdist only supports 2D tensors, got: 1D"));
  EXPECT_THAT(errorMessageOf([&] { ops::_pdist_forward(iota<int64_t>({2, 2})); }),
              HasSubstr("argument 'self' has dtype Long"));
  EXPECT_THAT(errorMessageOf([&] { ops::_pdist_forward(iota({2, 2}), -1); }),
              HasSubstr("pdist only supports non-negative p values (got -1)"));
}

TEST(Cdist, GivesEveryRowPairOfTwoMatricesAndBroadcastsBatches) {
  const Tensor origin = tensor<double>({0, 0}, {1, 2});
  EXPECT_THAT(valuesOf<double>(ops::_cdist_forward(origin, pairwiseRows(), 2, std::nullopt)), ElementsAre(0, 5, 3));
  EXPECT_THAT(valuesOf<double>(ops::_cdist_forward(pairwiseRows(), origin, 1, 2)), ElementsAre(0, 7, 3));
  // x1 batch [2], x2 no batch: x2 is compared with both of x1's matrices.
  const Tensor batched = tensor<double>({0, 0, 1, 1}, {2, 1, 2});
  const Tensor result = ops::_cdist_forward(batched, pairwiseRows(), 0, std::nullopt);
  EXPECT_THAT(result.sizes(), ElementsAre(2, 1, 3));
  EXPECT_THAT(valuesOf<double>(result), ElementsAre(0, 2, 1, 2, 2, 2));
}

TEST(Cdist, RefusesMismatchedColumnsDtypesAndUnknownModes) {
  EXPECT_THAT(errorMessageOf([&] { ops::_cdist_forward(iota({2, 3}), iota({2, 4}), 2, std::nullopt); }),
              HasSubstr("aten::_cdist_forward: X1 and X2 must have the same number of columns. X1: 3 X2: 4"));
  EXPECT_THAT(errorMessageOf([&] { ops::_cdist_forward(iota({2, 3}), iota<double>({2, 3}), 2, std::nullopt); }),
              HasSubstr("X1 and X2 must have the same dtype, but got Float and Double"));
  EXPECT_THAT(errorMessageOf([&] { ops::_cdist_forward(iota({3}), iota({2, 3}), 2, std::nullopt); }),
              HasSubstr("cdist only supports at least 2D tensors, X1 got: 1D"));
  EXPECT_THAT(errorMessageOf([&] { ops::_cdist_forward(iota({2, 3}), iota({2, 3}), 2, 3); }),
              HasSubstr("possible modes: None, 0, 1, 2, but was: 3"));
  EXPECT_THAT(errorMessageOf([&] { ops::_cdist_forward(iota({2, 2, 3}), iota({3, 2, 3}), 2, std::nullopt); }),
              HasSubstr("cannot broadcast"));
}

}  // namespace
}  // namespace sy
