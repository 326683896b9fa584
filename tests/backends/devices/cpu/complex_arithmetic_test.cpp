// The kernels that compute on complex values, as ExecuTorch's portable kernels do: bmm (See Note
// [Complex matrix products are bmm's alone]) and sum (See Note [Complex sums add in ComplexDouble]);
// values worked out by hand here, and checked against PyTorch on every complex dtype by the oracle.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/core/complex.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using sy::testing::complexFloatTensor;
using sy::testing::complexValuesOf;
using sy::testing::errorMessageOf;
using C = Complex<double>;

TEST(ComplexArithmetic, ComplexNumbersAddSubtractAndMultiplyAsC10Does) {
  const Complex<float> z{1.0f, 2.0f}, w{3.0f, -1.0f};
  EXPECT_EQ(z + w, Complex<float>(4.0f, 1.0f));
  EXPECT_EQ(z - w, Complex<float>(-2.0f, 3.0f));
  EXPECT_EQ(z * w, Complex<float>(5.0f, 5.0f));  // (1 + 2i)(3 - i) = 3 - i + 6i + 2
  Complex<float> acc;
  acc += z;
  acc += w;
  EXPECT_EQ(acc, Complex<float>(4.0f, 1.0f));
}

TEST(ComplexArithmetic, BmmMultipliesComplexMatricesBatchByBatch) {
  // Batch 0: [1+2i, 3-i] @ [2, 1+i]^T = 2+4i + (3-i)(1+i) = 2+4i + 4+2i = 6+6i.
  // Batch 1: [i, 1] @ [i, -1]^T = -1 - 1 = -2.
  const Tensor a = complexFloatTensor({2, 1, 2}, {{1, 2}, {3, -1}, {0, 1}, {1, 0}});
  const Tensor b = complexFloatTensor({2, 2, 1}, {{2, 0}, {1, 1}, {0, 1}, {-1, 0}});
  const Tensor product = ops::bmm(a, b);
  EXPECT_EQ(product.scalar_type(), ScalarType::ComplexFloat);
  EXPECT_EQ(product.sizes(), (std::vector<int64_t>{2, 1, 1}));
  EXPECT_THAT(complexValuesOf(product), ElementsAre(C(6, 6), C(-2, 0)));
  // A transposed mat2 reads the same elements.
  const Tensor bt = ops::transpose(complexFloatTensor({2, 1, 2}, {{2, 0}, {1, 1}, {0, 1}, {-1, 0}}), 1, 2);
  EXPECT_THAT(complexValuesOf(ops::bmm(a, bt)), ElementsAre(C(6, 6), C(-2, 0)));
  // ComplexHalf and ComplexDouble compute the same small products exactly.
  for (ScalarType dtype : {ScalarType::ComplexHalf, ScalarType::ComplexDouble}) {
    const Tensor product_of_dtype = ops::bmm(a.to(dtype), b.to(dtype));
    EXPECT_EQ(product_of_dtype.scalar_type(), dtype);
    EXPECT_THAT(complexValuesOf(product_of_dtype), ElementsAre(C(6, 6), C(-2, 0))) << dtype;
  }
}

TEST(ComplexArithmetic, OnlyBmmTakesComplexMatricesAndOutMustMatch) {
  const Tensor a = complexFloatTensor({1, 1}, {{1, 1}});
  EXPECT_THAT(errorMessageOf([&] { ops::mm(a, a); }), HasSubstr("aten::mm"));
  EXPECT_THAT(errorMessageOf([&] { ops::mm(a, a); }), HasSubstr("ComplexFloat"));
  const Tensor batch = complexFloatTensor({1, 1, 1}, {{1, 1}});
  Tensor real_out = sy::empty({1, 1, 1});
  EXPECT_THAT(errorMessageOf([&] { ops::bmm_out(real_out, batch, batch); }), HasSubstr("expected 'out' to have dtype"));
}

TEST(ComplexArithmetic, SumAddsRealAndImaginaryPartsOverTheGivenDims) {
  const Tensor z = complexFloatTensor({2, 2}, {{1, 2}, {3, -1}, {0.5, 0}, {-1, 4}});
  EXPECT_THAT(complexValuesOf(ops::sum(z)), ElementsAre(C(3.5, 5)));
  EXPECT_THAT(complexValuesOf(ops::sum(z, std::vector<int64_t>{0})), ElementsAre(C(1.5, 2), C(2, 3)));
  const Tensor rows = ops::sum(z, std::vector<int64_t>{1}, /*keepdim=*/true);
  EXPECT_EQ(rows.sizes(), (std::vector<int64_t>{2, 1}));
  EXPECT_THAT(complexValuesOf(rows), ElementsAre(C(4, 1), C(-0.5, 4)));
  // A complex dtype= widens; a real self sums into a complex dtype= with zero imaginary parts.
  EXPECT_EQ(ops::sum(z, std::vector<int64_t>{0}, false, ScalarType::ComplexDouble).scalar_type(),
            ScalarType::ComplexDouble);
  EXPECT_THAT(complexValuesOf(ops::sum(sy::full({3}, 2.0), std::vector<int64_t>{0}, false, ScalarType::ComplexFloat)),
              ElementsAre(C(6, 0)));
}

TEST(ComplexArithmetic, ASumOfComplexValuesIntoARealDtypeAddsTheRealParts) {
  const Tensor z = complexFloatTensor({2}, {{1, 2}, {3, -1}});
  Tensor out = sy::empty({});
  ops::sum_out(out, z, std::vector<int64_t>{0});
  EXPECT_EQ(out.item<float>(), 4.0f);  // PyTorch converts self to the result's dtype first
  // mean and prod are not complex kernels here (nor in ExecuTorch's portable library).
  EXPECT_THAT(errorMessageOf([&] { ops::prod(z); }), HasSubstr("ComplexFloat"));
}

}  // namespace
}  // namespace sy
