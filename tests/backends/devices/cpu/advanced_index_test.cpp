// index.Tensor and index_put through the dispatcher with their CPU kernels: what the PyTorch oracle
// does not check (Int indices, which PyTorch 1.13 refuses; error messages; aliased and strided outs;
// a boxed call as a program makes it). Expected values are hand-worked.
#include <cstdint>
#include <optional>
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

TEST(AdvancedIndex, TakesRowsWithIntAndNegativeIndices) {
  const Tensor self = iota<float>({3, 2});  // [[0, 1], [2, 3], [4, 5]]
  const Tensor picked = ops::index(self, {tensor<int32_t>({2, -3})});
  EXPECT_EQ(picked.sizes(), IntArrayRef({2, 2}));
  EXPECT_THAT(valuesOf<float>(picked), ElementsAre(4, 5, 0, 1));
}

TEST(AdvancedIndex, PutsTheBroadcastIndexShapeWhereAdjacentIndicesWereAndFirstWhenTheyAreApart) {
  const Tensor self = iota<int64_t>({2, 3, 4});
  const Tensor rows = tensor<int64_t>({0, 2});
  const Tensor adjacent = ops::index(self, {std::nullopt, rows, tensor<int64_t>({1, 3})});
  EXPECT_EQ(adjacent.sizes(), IntArrayRef({2, 2}));
  EXPECT_THAT(valuesOf<int64_t>(adjacent), ElementsAre(1, 11, 13, 23));  // self[:, [0, 2], [1, 3]]
  const Tensor apart = ops::index(self, {tensor<int64_t>({1, 0}), std::nullopt, tensor<int64_t>({3, 0})});
  EXPECT_EQ(apart.sizes(), IntArrayRef({2, 3}));
  EXPECT_THAT(valuesOf<int64_t>(apart), ElementsAre(15, 19, 23, 0, 4, 8));  // self[[1, 0], :, [3, 0]]
}

TEST(AdvancedIndex, SelectsWithABoolMaskInRowMajorOrder) {
  const Tensor self = iota<float>({2, 3});
  const Tensor mask = tensor<bool>({true, false, true, false, true, true}, {2, 3});
  EXPECT_THAT(valuesOf<float>(ops::index(self, {mask})), ElementsAre(0, 2, 4, 5));
  EXPECT_EQ(errorMessageOf([&] { ops::index(self, {tensor<bool>({true, false, true})}); }),
            "aten::index.Tensor: The shape of the mask (3,) at index 0 does not match the shape of the indexed tensor (2, 3) "
            "at index 0");
}

TEST(AdvancedIndex, RefusesOutOfBoundsTooManyAndUnbroadcastableIndicesNamingTheOperator) {
  const Tensor self = iota<float>({3, 2});
  EXPECT_EQ(errorMessageOf([&] { ops::index(self, {tensor<int64_t>({3})}); }),
            "aten::index.Tensor: index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(errorMessageOf([&] { ops::index(self, {std::nullopt, tensor<int32_t>({-3})}); }),
            "aten::index.Tensor: index -3 is out of bounds for dimension 1 with size 2");
  EXPECT_EQ(errorMessageOf([&] { ops::index(self, {std::nullopt, std::nullopt, tensor<int64_t>({0})}); }),
            "aten::index.Tensor: too many indices for tensor of dimension 2 (got 3)");
  EXPECT_THAT(errorMessageOf([&] { ops::index(self, {tensor<int64_t>({0, 1}), tensor<int64_t>({0, 1, 1})}); }),
              HasSubstr("shape mismatch: indexing tensors could not be broadcast together with shapes (2,), (3,)"));
  EXPECT_THAT(errorMessageOf([&] { ops::index(self, {tensor<float>({0})}); }),
              HasSubstr("tensors used as indices must be Long, Int or Bool tensors, but indices[0] has dtype Float"));
}

TEST(AdvancedIndex, CopiesSelfWhenEveryIndexIsNone) {
  const Tensor self = iota<float>({2, 2});
  const Tensor copy = ops::index(self, {std::nullopt, std::nullopt});
  EXPECT_FALSE(copy.is_same(self));
  EXPECT_THAT(valuesOf<float>(copy), ElementsAre(0, 1, 2, 3));
}

TEST(AdvancedIndex, WritesAStridedOutAndAnOutThatIsSelf) {
  Tensor self = iota<int32_t>({4});
  Tensor base = zeros({2, 2}, ScalarType::Int);
  Tensor column = sy::testing::viewOf(base, {2}, {2});  // strided: every other element
  ops::index_out(column, self, {tensor<int64_t>({3, 1})});
  EXPECT_THAT(valuesOf<int32_t>(base), ElementsAre(3, 0, 1, 0));
  ops::index_out(self, self, {tensor<int64_t>({2, 2, 0})});  // out is self: read before resized
  EXPECT_THAT(valuesOf<int32_t>(self), ElementsAre(2, 2, 0));
}

TEST(AdvancedIndexPut, WritesOrAddsBroadcastValuesAndAddsRepeatedIndicesUp) {
  const Tensor self = zeros({2, 3});
  const Tensor cols = tensor<int64_t>({0, 2, 0});
  const Tensor written = ops::index_put(self, {std::nullopt, tensor<int64_t>({2, 0})}, tensor<float>({7, 8}));
  EXPECT_THAT(valuesOf<float>(written), ElementsAre(8, 0, 7, 8, 0, 7));
  const Tensor added = ops::index_put(self, {std::nullopt, cols}, ones({1}), true);
  EXPECT_THAT(valuesOf<float>(added), ElementsAre(2, 0, 1, 2, 0, 1));
  EXPECT_THAT(valuesOf<float>(self), ElementsAre(0, 0, 0, 0, 0, 0));  // out of place leaves self alone
}

TEST(AdvancedIndexPut, InPlaceWritesSelfAsAKvCacheUpdateDoes) {
  Tensor cache = zeros({1, 4, 2});  // [batch, positions, features]
  const Tensor positions = tensor<int64_t>({2});
  const Tensor step = tensor<float>({5, 6}, {1, 1, 2});
  EXPECT_EQ(&ops::index_put_(cache, {std::nullopt, positions}, step), &cache);
  EXPECT_THAT(valuesOf<float>(cache), ElementsAre(0, 0, 0, 0, 5, 6, 0, 0));
}

TEST(AdvancedIndexPut, RefusesValuesOfAnotherDtypeOrShapeBeforeWriting) {
  Tensor self = zeros({2, 3});
  EXPECT_EQ(errorMessageOf([&] { ops::index_put_(self, {tensor<int64_t>({0})}, tensor<double>({1, 2, 3})); }),
            "aten::index_put_: Index put requires the source and destination dtypes match, got Float for the destination "
            "and Double for the source.");
  Tensor out = tensor<float>({4, 4, 4, 4, 4, 4}, {2, 3});
  EXPECT_EQ(errorMessageOf([&] { ops::index_put_out(out, self, {tensor<int64_t>({0, 1})}, ones({2})); }),
            "aten::index_put.out: shape mismatch: value tensor of shape (2,) cannot be broadcast to indexing result of "
            "shape (2, 3)");
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(4, 4, 4, 4, 4, 4));
}

TEST(AdvancedIndexPut, ReadsIndicesAndValuesThatShareSelfsMemoryBeforeWriting) {
  Tensor self = tensor<int64_t>({1, 0, 5});
  const Tensor first_two = sy::testing::viewOf(self, {2}, {1});
  const Tensor last_two = sy::testing::viewOf(self, {2}, {1}, 1);
  ops::index_put_(self, {first_two}, last_two);  // self[[1, 0]] = [0, 5]
  EXPECT_THAT(valuesOf<int64_t>(self), ElementsAre(5, 0, 5));
}

TEST(AdvancedIndexPut, RunsBoxedWithNoneInTheIndexListAsAProgramCallsIt) {
  auto op = Dispatcher::singleton().findSchemaOrThrow("aten::index_put", "out");
  const Tensor self = zeros({2, 2});
  Tensor out = empty({0});
  Stack stack{self, std::vector<IValue>{IValue(), tensor<int64_t>({1})}, tensor<float>({3}), true, out};
  op.callBoxed(&stack);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 3, 0, 3));
}

}  // namespace
}  // namespace sy
