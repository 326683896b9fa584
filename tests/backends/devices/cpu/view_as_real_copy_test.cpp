// view_as_real_copy through the dispatcher: (real, imaginary) pairs in a new last dimension, the
// real dtype of self's, as PyTorch's torch.view_as_real(z).clone() gives (values written out from
// PyTorch's documented semantics; the oracle checks the operator against PyTorch on every complex dtype).
#include <complex>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/core/complex.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;

Tensor complexOf(std::vector<int64_t> sizes, const std::vector<Complex<float>>& values) {
  return sy::testing::complexFloatTensor(sizes, values);
}

TEST(ViewAsRealCopy, SplitsEachComplexElementIntoARealAndAnImaginaryPart) {
  const Tensor z = complexOf({2}, {{1.0f, -2.0f}, {3.0f, 4.0f}});
  const Tensor pairs = ops::view_as_real_copy(z);
  EXPECT_EQ(pairs.scalar_type(), ScalarType::Float);
  EXPECT_THAT(pairs.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<float>(pairs), ElementsAre(1, -2, 3, 4));
}

TEST(ViewAsRealCopy, ReadsAStridedSelfInLogicalOrderAndFillsAStridedOut) {
  const Tensor z = complexOf({2, 2}, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}).transpose(0, 1);
  Tensor base = sy::empty({2, 2, 2});
  Tensor out = base.transpose(0, 1);
  ops::view_as_real_copy_out(out, z);
  EXPECT_THAT(valuesOf<float>(out.contiguous()), ElementsAre(0, 1, 4, 5, 2, 3, 6, 7));
}

TEST(ViewAsRealCopy, RefusesARealSelfAndAnOutOfAnotherDtype) {
  EXPECT_THAT(errorMessageOf([] { ops::view_as_real_copy(sy::ones({2})); }),
              HasSubstr("aten::view_as_real_copy: view_as_real is only supported for complex tensors, but 'self' is Float"));
  Tensor doubles = sy::empty({0}, ScalarType::Double);
  EXPECT_THAT(errorMessageOf([&] { ops::view_as_real_copy_out(doubles, complexOf({1}, {{1, 1}})); }),
              HasSubstr("expected 'out' to have dtype Float (the real type of 'self', ComplexFloat) but got Double"));
}

}  // namespace
}  // namespace sy
