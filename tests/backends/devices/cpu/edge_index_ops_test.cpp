// gather, scatter (value form) and scalar_tensor through the dispatcher, out= and functional:
// results against hand-written references, every dtype, strided inputs, aliasing outs, and the
// argument checks (an index that is not Long, out of range, of the wrong shape) with the promise
// that a rejected call leaves `out` as it was.
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
using sy::testing::raisesError;
using sy::testing::iota;
using sy::testing::valuesOf;
using sy::testing::viewOf;

Tensor longs(std::vector<int64_t> values, std::vector<int64_t> sizes) { return tensor<int64_t>(values, sizes); }

// ---- gather -------------------------------------------------------------------------------------

TEST(Gather, PicksAlongDimOneTheColumnEachIndexNames) {
  const Tensor x = tensor<float>({1, 2, 3, 4}, {2, 2});
  const Tensor r = ops::gather(x, 1, longs({0, 0, 1, 0}, {2, 2}));
  EXPECT_THAT(r.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(1, 1, 4, 3));
}

TEST(Gather, PicksAlongDimZeroTheRowEachIndexNames) {
  const Tensor x = tensor<float>({1, 2, 3, 4, 5, 6}, {3, 2});
  EXPECT_THAT(valuesOf<float>(ops::gather(x, 0, longs({2, 0}, {1, 2}))), ElementsAre(5, 2));
  EXPECT_THAT(valuesOf<float>(ops::gather(x, -2, longs({1, 1, 0, 2}, {2, 2}))), ElementsAre(3, 4, 1, 6));
}

TEST(Gather, AnIndexSmallerThanSelfReadsItsCorner) {
  // index (2, 1) over self (2, 3): row i gives self[i][index[i][0]].
  const Tensor x = iota({2, 3});
  EXPECT_THAT(valuesOf<float>(ops::gather(x, 1, longs({2, 0}, {2, 1}))), ElementsAre(2, 3));
}

TEST(Gather, KeepsEveryDtype) {
  const Tensor index = longs({1, 0}, {2});
  EXPECT_THAT(valuesOf<int64_t>(ops::gather(tensor<int64_t>({10, 20}), 0, index)), ElementsAre(20, 10));
  EXPECT_THAT(valuesOf<int32_t>(ops::gather(tensor<int32_t>({-1, 5}), 0, index)), ElementsAre(5, -1));
  EXPECT_THAT(valuesOf<double>(ops::gather(tensor<double>({.25, .5}), 0, index)), ElementsAre(.5, .25));
  EXPECT_THAT(valuesOf<bool>(ops::gather(tensor<bool>({true, false}), 0, index)), ElementsAre(false, true));
}

TEST(Gather, ReadsStridedSelfAndIndex) {
  const Tensor base = iota({2, 3});              // [[0, 1, 2], [3, 4, 5]]
  const Tensor t = viewOf(base, {3, 2}, {1, 3});  // its transpose: [[0, 3], [1, 4], [2, 5]]
  const Tensor index_base = longs({1, 9, 0, 9, 1, 9}, {6});
  const Tensor index = viewOf(index_base, {3, 1}, {2, 1});  // [[1], [0], [1]]
  EXPECT_THAT(valuesOf<float>(ops::gather(t, 1, index)), ElementsAre(3, 1, 5));
}

TEST(Gather, ZeroDimSelfAndIndex) {
  const Tensor r = ops::gather(sy::full({}, 7.0), 0, sy::full({}, int64_t{0}, ScalarType::Long));
  EXPECT_EQ(r.dim(), 0);
  EXPECT_EQ(r.item<float>(), 7);
}

TEST(GatherOut, ResizesOutAndCanReadFromItsOwnOut) {
  Tensor out = sy::empty({0});
  ops::gather_out(out, tensor<float>({1, 2, 3}), 0, longs({2, 2, 0, 1}, {4}));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(3, 3, 1, 2));
  Tensor x = tensor<float>({1, 2, 3});
  ops::gather_out(x, x, 0, longs({2, 1, 0}, {3}));  // reads x before writing it
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(3, 2, 1));
}

TEST(GatherOut, RejectsAnIndexThatIsNotLongOrOutOfRangeLeavingOutAlone) {
  Tensor out = tensor<float>({9, 9});
  const Tensor x = tensor<float>({1, 2});
  EXPECT_TRUE(raisesError([&] { ops::gather_out(out, x, 0, tensor<int32_t>({0, 1})); }, ErrorKind::Type,
                          "aten::gather.out: expected 'index' to have dtype Long but got Int"));
  EXPECT_TRUE(raisesError([&] { ops::gather_out(out, x, 0, longs({0, 2}, {2})); }, ErrorKind::Index,
                          "aten::gather.out: index 2 is out of bounds for dimension 0 with size 2"));
  EXPECT_THAT(errorMessageOf([&] { ops::gather_out(out, x, 0, longs({-1, 0}, {2})); }),
              HasSubstr("index -1 is out of bounds for dimension 0 with size 2"));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(9, 9));
}

TEST(GatherOut, RejectsShapesAndDimsThatDoNotFit) {
  Tensor out = sy::empty({0});
  const Tensor x = iota({2, 3});
  EXPECT_THAT(errorMessageOf([&] { ops::gather_out(out, x, 1, longs({0, 1}, {2})); }),
              HasSubstr("index tensor must have the same number of dimensions as self tensor (self is 2-D, index is "
                        "1-D)"));
  EXPECT_THAT(errorMessageOf([&] { ops::gather_out(out, x, 1, longs({0, 0, 0}, {3, 1})); }),
              HasSubstr("size does not match at dimension 0: expected index (3, 1) to be no larger than self (2, 3) "
                        "apart from dimension 1"));
  EXPECT_THAT(errorMessageOf([&] { ops::gather_out(out, x, 2, longs({0}, {1, 1})); }),
              HasSubstr("dimension out of range for argument 'dim' (expected to be in range of [-2, 1], but got 2)"));
  Tensor long_out = sy::empty({0}, ScalarType::Long);
  EXPECT_THAT(errorMessageOf([&] { ops::gather_out(long_out, x, 1, longs({0}, {1, 1})); }),
              HasSubstr("aten::gather.out: expected 'out' to have self's dtype Float but got Long"));
}

// ---- scatter.value --------------------------------------------------------------------------------

TEST(Scatter, WritesTheValueWhereEachIndexPoints) {
  const Tensor x = sy::zeros({2, 3});
  const Tensor r = ops::scatter(x, 1, longs({0, 2, 1, 1}, {2, 2}), 5);
  EXPECT_THAT(valuesOf<float>(r), ElementsAre(5, 0, 5, 0, 5, 0));
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(0, 0, 0, 0, 0, 0));  // self is not written
  const Tensor rows = ops::scatter(iota({3, 2}), 0, longs({2, 0}, {1, 2}), -1);
  EXPECT_THAT(valuesOf<float>(rows), ElementsAre(0, -1, 2, 3, -1, 5));
}

TEST(Scatter, ConvertsTheValueToSelfsDtype) {
  EXPECT_THAT(valuesOf<int64_t>(ops::scatter(tensor<int64_t>({1, 2, 3}), 0, longs({1}, {1}), 7)),
              ElementsAre(1, 7, 3));
  EXPECT_THAT(valuesOf<bool>(ops::scatter(tensor<bool>({false, false}), 0, longs({0}, {1}), 1)),
              ElementsAre(true, false));
}

TEST(ScatterOut, IntoSelfUpdatesItInPlace) {
  Tensor x = tensor<float>({1, 2, 3, 4}, {2, 2});
  ops::scatter_out(x, x, 1, longs({1, 0}, {2, 1}), 0);
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(1, 0, 0, 4));
}

TEST(ScatterOut, AnIndexOutOfRangeLeavesOutAsItWas) {
  Tensor x = tensor<float>({1, 2, 3});
  EXPECT_THAT(errorMessageOf([&] { ops::scatter_out(x, x, 0, longs({0, 3}, {2}), 9); }),
              HasSubstr("aten::scatter.value_out: index 3 is out of bounds for dimension 0 with size 3"));
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(1, 2, 3));
}

TEST(ScatterOut, RejectsAWrongIndexDtypeAndOutDtype) {
  Tensor out = sy::empty({0});
  EXPECT_THAT(errorMessageOf([&] { ops::scatter_out(out, iota({3}), 0, tensor<float>({0}), 1); }),
              HasSubstr("aten::scatter.value_out: expected 'index' to have dtype Long but got Float"));
  Tensor int_out = sy::empty({0}, ScalarType::Int);
  EXPECT_THAT(errorMessageOf([&] { ops::scatter_out(int_out, iota({3}), 0, longs({0}, {1}), 1); }),
              HasSubstr("expected 'out' to have self's dtype Float but got Int"));
}

// ---- scalar_tensor --------------------------------------------------------------------------------

TEST(ScalarTensor, IsAZeroDimFloatByDefault) {
  const Tensor t = ops::scalar_tensor(3);
  EXPECT_EQ(t.dim(), 0);
  EXPECT_EQ(t.scalar_type(), ScalarType::Float);
  EXPECT_EQ(t.item<float>(), 3);
  EXPECT_EQ(ops::scalar_tensor(2.5, TensorOptions(ScalarType::Double)).item<double>(), 2.5);
}

TEST(ScalarTensorOut, FillsOutInItsDtypeAndMakesItZeroDim) {
  Tensor out = sy::empty({2, 2}, ScalarType::Long);
  ops::scalar_tensor_out(out, 7);
  EXPECT_EQ(out.dim(), 0);
  EXPECT_EQ(out.item<int64_t>(), 7);
}

TEST(ScalarTensorOut, RejectsAValueOutOfOutsRange) {
  Tensor out = sy::empty({}, ScalarType::Int);
  EXPECT_THAT(errorMessageOf([&] { ops::scalar_tensor_out(out, int64_t{3000000000}); }),
              HasSubstr("aten::scalar_tensor.out: value 3000000000 cannot be converted to type Int without overflow"));
}

}  // namespace
}  // namespace sy
