// cat and clone (functional and out= forms) through the dispatcher. Expected concatenations are
// built here by naive loops over the inputs' row-major elements.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/devices/cpu/kernels.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using sy::testing::errorMessageOf;
using sy::testing::iota;
using sy::testing::valuesOf;

// The concatenation of two 2-D tensors' elements along `dim`, by index arithmetic.
std::vector<float> naiveCat2d(const Tensor& a, const Tensor& b, int64_t dim) {
  const std::vector<float> fa = valuesOf<float>(a), fb = valuesOf<float>(b);
  std::vector<float> out;
  if (dim == 0) {
    out.insert(out.end(), fa.begin(), fa.end());
    out.insert(out.end(), fb.begin(), fb.end());
    return out;
  }
  for (int64_t r = 0; r < a.size(0); ++r) {
    for (int64_t c = 0; c < a.size(1); ++c) out.push_back(fa[r * a.size(1) + c]);
    for (int64_t c = 0; c < b.size(1); ++c) out.push_back(fb[r * b.size(1) + c]);
  }
  return out;
}

// Counts aten::empty.memory_format calls on the CPU while alive (the kernel underneath still runs).
int g_empty_calls = 0;
Tensor countingEmpty(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                     std::optional<Device> device, std::optional<bool> pin_memory,
                     std::optional<MemoryFormat> memory_format, const KernelContext& ctx) {
  ++g_empty_calls;
  return cpu::empty_memory_format_cpu(size, dtype, layout, device, pin_memory, memory_format, ctx);
}
constexpr KernelContext kCountingEmpty{"aten::empty.memory_format", OutputForm::Functional};

// ---- cat -----------------------------------------------------------------------------------------

TEST(CatValues, ConcatenatesAlongEachDimension) {
  Tensor a = iota({2, 3}), b = iota({2, 2}, 100), c = iota({1, 3}, 50);
  Tensor along1 = ops::cat({a, b}, 1);
  EXPECT_THAT(along1.sizes(), ElementsAre(2, 5));
  EXPECT_THAT(valuesOf<float>(along1), ElementsAreArray(naiveCat2d(a, b, 1)));
  Tensor along0 = ops::cat({a, c});
  EXPECT_THAT(along0.sizes(), ElementsAre(3, 3));
  EXPECT_THAT(valuesOf<float>(along0), ElementsAreArray(naiveCat2d(a, c, 0)));
}

TEST(CatValues, NegativeDimWrapsAndThreeInputsConcatenateInOrder) {
  Tensor out = ops::cat({iota({2, 1}), iota({2, 1}, 10), iota({2, 1}, 20)}, -1);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 10, 20, 1, 11, 21));
}

TEST(CatValues, NonContiguousInputsAreReadThroughTheirStrides) {
  Tensor transposed = ops::transpose(iota({3, 2}), 0, 1);             // [2, 3]: [[0, 2, 4], [1, 3, 5]]
  Tensor expanded = ops::expand(iota({1, 3}, 7), {2, 3});             // [[7, 8, 9], [7, 8, 9]]
  Tensor sliced = ops::slice(iota({2, 6}, 20), 1, 0, std::nullopt, 2);  // [[20, 22, 24], [26, 28, 30]]
  Tensor out = ops::cat({transposed, expanded, sliced}, 0);
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 2, 4, 1, 3, 5, 7, 8, 9, 7, 8, 9, 20, 22, 24, 26, 28, 30));
}

TEST(CatValues, NanAndInfinityPassThroughUnchangedAndPromoted) {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor out = ops::cat({tensor<float>({std::nanf(""), -inf}), tensor<double>({inf})});
  const std::vector<double> values = valuesOf<double>(out);
  EXPECT_TRUE(std::isnan(values[0]));
  EXPECT_EQ(values[1], -std::numeric_limits<double>::infinity());
  EXPECT_EQ(values[2], std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(valuesOf<float>(ops::clone(tensor<float>({std::nanf("")})))[0]));
}

TEST(CatDtypes, PromotesAcrossInputs) {
  Tensor ints = tensor<int32_t>({1, 2}), floats = tensor<float>({0.5f}), longs = tensor<int64_t>({7});
  Tensor bools = tensor<bool>({true});
  Tensor f = ops::cat({ints, floats});
  EXPECT_THAT(valuesOf<float>(f), ElementsAre(1, 2, 0.5f));
  EXPECT_THAT(valuesOf<int64_t>(ops::cat({ints, longs, bools})), ElementsAre(1, 2, 7, 1));
  EXPECT_THAT(valuesOf<double>(ops::cat({longs, tensor<double>({0.25})})), ElementsAre(7, 0.25));
  EXPECT_THAT(valuesOf<bool>(ops::cat({bools, tensor<bool>({false})})), ElementsAre(true, false));
}

TEST(CatEmpty, SkipsOneDimEmptyTensorsOfAnyDtypeButPromotesWithThem) {
  Tensor x = iota<int32_t>({2, 2});
  Tensor out = ops::cat({empty({0}, ScalarType::Long), x, empty({0})}, 1);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 2));
  EXPECT_EQ(out.scalar_type(), ScalarType::Float);  // Long, Int and Float promote to Float
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2, 3));
  EXPECT_THAT(ops::cat({empty({0}), empty({0})}).sizes(), ElementsAre(0));
}

TEST(CatEmpty, ZeroSizedTensorsOfTheRightRankTakePart) {
  Tensor out = ops::cat({empty({0, 3}), iota({2, 3})});
  EXPECT_THAT(out.sizes(), ElementsAre(2, 3));
  EXPECT_THAT(ops::cat({empty({2, 0}), empty({2, 0})}, 1).sizes(), ElementsAre(2, 0));
}

TEST(CatErrors, ShapeMismatchNamesTheTensorIndex) {
  EXPECT_EQ(errorMessageOf([] { ops::cat({iota({2, 3}), iota({2, 3}), iota({2, 4})}); }),
            "aten::cat: Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for "
            "tensor number 2 in the list.");
  EXPECT_EQ(errorMessageOf([] { ops::cat({iota({2, 3}), iota({3})}); }),
            "aten::cat: Tensors must have same number of dimensions: got 2 and 1 (for tensor number 1 in the list)");
}

TEST(CatErrors, RejectsEmptyListsZeroDimTensorsAndBadDims) {
  // With no tensor there is no backend to dispatch to: the dispatcher itself reports it.
  EXPECT_THAT(errorMessageOf([] { ops::cat({}); }),
              ::testing::StartsWith("Could not run 'aten::cat': the call has no tensor arguments"));
  EXPECT_EQ(errorMessageOf([] { ops::cat({iota({2}), full({}, 1.0f)}); }),
            "aten::cat: zero-dimensional tensor (at position 1) cannot be concatenated");
  EXPECT_EQ(errorMessageOf([] { ops::cat({iota({2})}, 1); }),
            "aten::cat: dimension out of range for argument 'dim' (expected to be in range of [-1, 0], but got 1)");
}

TEST(CatOut, ResizesAWronglyShapedOutAndReturnsIt) {
  Tensor out = empty({7});
  Tensor& result = ops::cat_out(out, {iota({1, 2}), iota({1, 2}, 2)}, 0);
  EXPECT_EQ(&result, &out);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2, 3));
}

TEST(CatOut, WritesIntoAWiderDtypeAndRejectsANarrowerOne) {
  Tensor wide = empty({3}, ScalarType::Double);
  ops::cat_out(wide, {tensor<int32_t>({1, 2}), tensor<int32_t>({3})});
  EXPECT_THAT(valuesOf<double>(wide), ElementsAre(1, 2, 3));
  Tensor narrow = empty({3}, ScalarType::Long);
  EXPECT_EQ(errorMessageOf([&] { ops::cat_out(narrow, {iota({2}), iota({1})}); }),
            "aten::cat.out: result type Float can't be cast to the desired output type Long");
}

TEST(CatOut, WritesThroughATransposedOut) {
  Tensor base = empty({3, 2});
  Tensor out = ops::transpose(base, 0, 1);  // [2, 3], not contiguous
  ops::cat_out(out, {iota({1, 3}), iota({1, 3}, 3)});
  EXPECT_THAT(valuesOf<float>(out), ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_THAT(valuesOf<float>(base), ElementsAre(0, 3, 1, 4, 2, 5));
}

TEST(CatOut, AnOutThatIsAlsoAnInputReadsTheOriginalValues) {
  Tensor x = iota({2});
  ops::cat_out(x, {x, x});
  EXPECT_THAT(valuesOf<float>(x), ElementsAre(0, 1, 0, 1));
}

TEST(CatDispatch, FunctionalFormAllocatesOnceThroughTheDispatcher) {
  g_empty_calls = 0;
  Library counting(Library::Impl, "aten", DispatchKey::CPU);
  counting.impl("empty.memory_format", withContext<&countingEmpty, &kCountingEmpty>());
  ops::cat({iota({2}), iota({3})});
  EXPECT_EQ(g_empty_calls, 1);
}

TEST(CatDispatch, BoxedCallTakesATensorList) {
  Stack stack{std::vector<Tensor>{iota({1}), iota({2}, 5)}, int64_t{0}};
  Dispatcher::singleton().findSchemaOrThrow("aten::cat", "").callBoxed(stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_THAT(valuesOf<float>(stack[0].toTensor()), ElementsAre(0, 5, 6));
}

// ---- clone ---------------------------------------------------------------------------------------

TEST(CloneValues, CopiesEveryDtypeIntoNewMemory) {
  for (ScalarType dtype :
       {ScalarType::Bool, ScalarType::Int, ScalarType::Long, ScalarType::Float, ScalarType::Double}) {
    Tensor x = ops::_to_copy(iota<int64_t>({2, 3}), dtype);
    Tensor c = ops::clone(x);
    EXPECT_EQ(c.scalar_type(), dtype);
    EXPECT_NE(c.storage().get(), x.storage().get());
    EXPECT_TRUE(allclose(c, x)) << dtype;
  }
}

TEST(CloneLayout, PreservesTheStridesOfADenseTransposedTensor) {
  Tensor t = ops::transpose(iota({2, 3}), 0, 1);
  Tensor c = ops::clone(t);
  EXPECT_THAT(c.strides(), ElementsAre(1, 3));
  EXPECT_THAT(valuesOf<float>(c), ElementsAre(0, 3, 1, 4, 2, 5));
}

TEST(CloneLayout, NonDenseInputsBecomeContiguous) {
  Tensor sliced = ops::slice(iota({6}), 0, 0, std::nullopt, 2);
  EXPECT_TRUE(ops::clone(sliced).is_contiguous());
  EXPECT_THAT(valuesOf<float>(ops::clone(sliced)), ElementsAre(0, 2, 4));
  Tensor expanded = ops::expand(iota({1, 2}), {3, 2});
  EXPECT_THAT(ops::clone(expanded).strides(), ElementsAre(2, 1));
  EXPECT_THAT(valuesOf<float>(ops::clone(expanded)), ElementsAre(0, 1, 0, 1, 0, 1));
}

TEST(CloneLayout, HonoursContiguousAndChannelsLastFormats) {
  Tensor t = ops::transpose(iota({2, 3}), 0, 1);
  EXPECT_THAT(ops::clone(t, MemoryFormat::Contiguous).strides(), ElementsAre(2, 1));
  Tensor nhwc = ops::clone(iota({1, 2, 2, 2}), MemoryFormat::ChannelsLast);
  EXPECT_THAT(nhwc.strides(), ElementsAre(8, 1, 4, 2));
  EXPECT_EQ(valuesOf<float>(nhwc), valuesOf<float>(iota({1, 2, 2, 2})));
  EXPECT_EQ(errorMessageOf([] { ops::clone(iota({2, 2}), MemoryFormat::ChannelsLast); }),
            "aten::clone: memory_format ChannelsLast needs a 4-D tensor (N, C, H, W), but 'self' is 2-D");
}

TEST(CloneValues, ZeroDimAndEmptyTensors) {
  EXPECT_EQ(valuesOf<double>(ops::clone(full({}, 3.5, ScalarType::Double))), std::vector<double>{3.5});
  EXPECT_THAT(ops::clone(empty({0, 4})).sizes(), ElementsAre(0, 4));
}

TEST(CloneOut, ResizesOutConvertsItsDtypeAndReturnsIt) {
  Tensor out = empty({1}, ScalarType::Long);
  Tensor& result = ops::clone_out(out, tensor<float>({1.5f, -2.5f}));
  EXPECT_EQ(&result, &out);
  EXPECT_THAT(valuesOf<int64_t>(out), ElementsAre(1, -2));  // converted toward zero
}

TEST(CloneDispatch, FunctionalFormAllocatesOnceThroughTheDispatcher) {
  g_empty_calls = 0;
  Library counting(Library::Impl, "aten", DispatchKey::CPU);
  counting.impl("empty.memory_format", withContext<&countingEmpty, &kCountingEmpty>());
  ops::clone(ops::transpose(iota({2, 3}), 0, 1));
  EXPECT_EQ(g_empty_calls, 1);
}

}  // namespace
}  // namespace sy
