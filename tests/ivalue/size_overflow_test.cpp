// Sizes whose element count, stride or byte count does not fit in 64 bits are refused with a
// clear error wherever they enter: resizing, allocation, views, zero tensors, out= outputs and the
// Accel allocator. None of them may wrap around to a small allocation and then be written past.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "switchyard/backends/devices/accel/accel_allocator.h"
#include "switchyard/backends/devices/accel/accel_tensor.h"
#include "switchyard/backends/devices/zero/zero_tensor.h"
#include "switchyard/ivalue/checked_size.h"
#include "switchyard/ivalue/wrap_dim.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using ::testing::HasSubstr;
using sy::Tensor;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;
namespace ops = sy::ops;

constexpr int64_t kHuge = (int64_t{1} << 62) + 1;  // elements fit in int64_t, their bytes do not
constexpr int64_t k2To32 = int64_t{1} << 32;       // two of these overflow int64_t as a product
constexpr int64_t k2To40 = int64_t{1} << 40;

TEST(SizeOverflow, ResizeRefusesASizeWhoseByteCountOverflowsAndLeavesTheTensorAsItWas) {
  Tensor t = sy::ones({1});
  EXPECT_THAT(errorMessageOf([&] { t.resize_({kHuge}); }), HasSubstr("more bytes than can be addressed"));
  EXPECT_EQ(t.sizes(), sy::IntArrayRef({1}));
  EXPECT_EQ(valuesOf<float>(t), std::vector<float>({1.0f}));
}

TEST(SizeOverflow, ResizeRefusesSizesWhoseElementCountOverflows) {
  Tensor t = sy::ones({1});
  EXPECT_THAT(errorMessageOf([&] { t.resize_({k2To32, k2To32}); }), HasSubstr("too many elements"));
  EXPECT_EQ(t.numel(), 1);
}

TEST(SizeOverflow, ResizeRefusesAnOffsetPlusSizeThatOverflows) {
  Tensor base = sy::ones({4});
  Tensor view = sy::testing::viewOf(base, {1}, {1}, /*storage_offset=*/3);
  EXPECT_THAT(errorMessageOf([&] { view.resize_({INT64_MAX - 1}); }), HasSubstr("resize_"));
  EXPECT_EQ(view.numel(), 1);
}

TEST(SizeOverflow, EmptyRefusesSizesWhoseElementCountOverflows) {
  EXPECT_THAT(errorMessageOf([&] { sy::empty({k2To32, k2To32}); }), HasSubstr("empty: size (4294967296, 4294967296) has too many elements"));
  EXPECT_THAT(errorMessageOf([&] { ops::empty({k2To32, k2To32}); }), HasSubstr("too many elements"));
}

TEST(SizeOverflow, EmptyRefusesAnEmptySizeWhoseStridesOverflow) {
  // No elements, but the contiguous strides of the other dimensions do not fit.
  EXPECT_THAT(errorMessageOf([&] { sy::empty({0, k2To40, k2To40}); }), HasSubstr("stride"));
}

TEST(SizeOverflow, ExpandRefusesSizesWhoseElementCountOverflows) {
  EXPECT_THAT(errorMessageOf([&] { ops::expand(sy::ones({1}), {k2To32, k2To32}); }), HasSubstr("too many elements"));
}

TEST(SizeOverflow, AddOutRefusesToGrowOutToAnExpandedSizeTooLargeToAllocate) {
  Tensor out = sy::zeros({1});
  Tensor huge = ops::expand(sy::ones({1}), {kHuge});
  EXPECT_THAT(errorMessageOf([&] { ops::add_out(out, huge, sy::ones({1})); }),
              HasSubstr("more bytes than can be addressed"));
  EXPECT_EQ(out.sizes(), sy::IntArrayRef({1}));
}

TEST(SizeOverflow, ZerosOutAndFullOutRefuseSizesTooLargeToAllocate) {
  Tensor out = sy::zeros({2});
  EXPECT_THAT(errorMessageOf([&] { ops::zeros_out(out, {kHuge}); }), HasSubstr("more bytes than can be addressed"));
  EXPECT_THAT(errorMessageOf([&] { ops::full_out(out, {k2To32, k2To32}, 1.0); }), HasSubstr("too many elements"));
  EXPECT_EQ(out.sizes(), sy::IntArrayRef({2}));
}

TEST(SizeOverflow, ZeroTensorRefusesSizesWhoseElementCountOverflows) {
  EXPECT_THAT(errorMessageOf([&] { sy::zero_tensor({k2To40, k2To40}); }),
              HasSubstr("zero_tensor: size (1099511627776, 1099511627776) has too many elements"));
}

TEST(SizeOverflow, ViewGeometryWhoseElementCountOverflowsIsRefused) {
  Tensor base = sy::ones({1});
  EXPECT_THAT(errorMessageOf([&] { sy::testing::viewOf(base, {k2To32, k2To32}, {0, 0}); }),
              HasSubstr("too many elements"));
}

TEST(SizeOverflow, AViewWhoseStorageOffsetInBytesOverflowsOrIsNegativeIsRefused) {
  Tensor base = sy::ones({4});
  EXPECT_THAT(errorMessageOf([&] { sy::testing::viewOf(base, {1}, {1}, /*storage_offset=*/INT64_MAX / 2); }),
              HasSubstr("at storage offset 4611686018427387903 needs more bytes than can be addressed"));
  EXPECT_THAT(errorMessageOf([&] { sy::testing::viewOf(base, {1}, {1}, /*storage_offset=*/-1); }),
              HasSubstr("storage offset -1 is negative"));
}

TEST(SizeOverflow, ArangeRefusesARangeWithTooManyElements) {
  EXPECT_THAT(errorMessageOf([] { sy::arange(0, 1e30, 1e-30); }), HasSubstr("arange: the range 0 -> 1e+30"));
  EXPECT_THAT(errorMessageOf([] { sy::arange(INT64_MIN, INT64_MAX, 1); }), HasSubstr("has too many elements"));
}

TEST(SizeOverflow, AccelResizeRefusesASizeWhoseByteCountOverflows) {
  Tensor t = sy::ones({1}).to(sy::kAccel);
  EXPECT_THAT(errorMessageOf([&] { sy::accel::resizeAccel(t, {kHuge}); }), HasSubstr("more bytes than can be addressed"));
  EXPECT_THAT(errorMessageOf([&] { sy::accel::resizeAccel(t, {k2To32, k2To32}); }), HasSubstr("too many elements"));
  EXPECT_EQ(t.numel(), 1);
}

TEST(SizeOverflow, AccelTransfersRefuseAByteCountThatWrapsPastTheBufferEnd) {
  Tensor t = sy::ones({4}).to(sy::kAccel);
  char* handle = static_cast<char*>(t.storage()->data()) + 4;  // one element into the buffer
  char host[16] = {};
  EXPECT_THAT(errorMessageOf([&] { sy::accel::copyFromAccel(host, handle, SIZE_MAX); }), HasSubstr("overrun"));
  EXPECT_THAT(errorMessageOf([&] { sy::accel::copyToAccel(handle, host, SIZE_MAX - 2); }), HasSubstr("overrun"));
}

// A kernel names its operator with a C string (ctx.op), whose length the checks take only to raise:
// they return and raise exactly what the forms taking a string_view do.
TEST(SizeOverflow, TheChecksTakingACStringNameReturnAndRaiseAsTheStringViewOnes) {
  const char* op = "aten::op.out";
  const std::string_view name = op;
  const std::vector<std::vector<int64_t>> sizes = {{}, {2, 3}, {0, k2To40, k2To40}, {2, -1}, {k2To32, k2To32}};
  for (const std::vector<int64_t>& s : sizes) {
    EXPECT_EQ(errorMessageOf([&] { sy::checkedNumel(op, s); }), errorMessageOf([&] { sy::checkedNumel(name, s); }));
  }
  for (const std::vector<int64_t>& s : {std::vector<int64_t>{}, {2, 3}, {0, k2To40, k2To40}}) {
    EXPECT_EQ(sy::checkedNumel(op, s), sy::checkedNumel(name, s));
  }
  const std::vector<int64_t> nhwc = {0, 2, 3, 1};
  EXPECT_EQ(sy::checkedStridesInDimOrder(op, {2, 3, 4, 5}, nhwc), sy::checkedStridesInDimOrder(name, {2, 3, 4, 5}, nhwc));
  for (const std::vector<int64_t>& s : {std::vector<int64_t>{0, k2To40, k2To40, k2To40}, std::vector<int64_t>{2, 3}}) {
    EXPECT_EQ(errorMessageOf([&] { sy::checkedStridesInDimOrder(op, s, nhwc); }),
              errorMessageOf([&] { sy::checkedStridesInDimOrder(name, s, nhwc); }));
    EXPECT_THAT(errorMessageOf([&] { sy::checkedStridesInDimOrder(op, s, nhwc); }), HasSubstr("aten::op.out: "));
  }
  EXPECT_EQ(sy::wrapDim(-1, 3, op, "dim"), sy::wrapDim(-1, 3, name, "dim"));
  EXPECT_EQ(errorMessageOf([&] { sy::wrapDim(3, 3, op, "dim"); }),
            errorMessageOf([&] { sy::wrapDim(3, 3, name, std::string_view("dim")); }));
  EXPECT_THAT(errorMessageOf([&] { sy::wrapDim(3, 3, op); }), HasSubstr("aten::op.out: dimension out of range"));
}

}  // namespace
