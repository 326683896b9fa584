// PyTorch's dtype spellings through compat/torch.h: at::kHalf and the other constants, c10::Half
// and c10::BFloat16, c10::toString and c10::elementSize, and a tensor converted with to(at::kHalf)
// and read with data_ptr<c10::Half>() and item<float>().
#include <gtest/gtest.h>

#include <switchyard/compat/torch.h>

namespace {

TEST(TorchDtypes, TheConstantsAreTheScalarTypesWithPyTorchsNumbers) {
  EXPECT_EQ(static_cast<int>(at::kByte), 0);
  EXPECT_EQ(static_cast<int>(at::kChar), 1);
  EXPECT_EQ(static_cast<int>(at::kShort), 2);
  EXPECT_EQ(static_cast<int>(at::kInt), 3);
  EXPECT_EQ(static_cast<int>(at::kLong), 4);
  EXPECT_EQ(static_cast<int>(at::kHalf), 5);
  EXPECT_EQ(static_cast<int>(at::kFloat), 6);
  EXPECT_EQ(static_cast<int>(at::kDouble), 7);
  EXPECT_EQ(static_cast<int>(at::kComplexFloat), 9);
  EXPECT_EQ(static_cast<int>(at::kBool), 11);
  EXPECT_EQ(static_cast<int>(at::kBFloat16), 15);
  EXPECT_EQ(static_cast<int>(at::kUInt16), 27);
  EXPECT_EQ(at::kHalf, at::ScalarType::Half);
  EXPECT_STREQ(c10::toString(at::kBFloat16), "BFloat16");
  EXPECT_EQ(c10::elementSize(at::kHalf), 2u);
  EXPECT_EQ(c10::elementSize(at::kComplexDouble), 16u);
  EXPECT_TRUE(c10::isFloatingType(at::kBFloat16));
  EXPECT_EQ(c10::promoteTypes(at::kHalf, at::kBFloat16), at::kFloat);
}

TEST(TorchDtypes, HalfAndBFloat16ConvertFromAndToFloat) {
  const c10::Half h = 0.1f;
  EXPECT_EQ(static_cast<float>(h), 0.0999755859375f);
  const at::BFloat16 b = 0.1f;
  EXPECT_EQ(static_cast<float>(b), 0.10009765625f);
  EXPECT_EQ(sizeof(c10::Half), 2u);
  EXPECT_EQ(sizeof(c10::complex<float>), 8u);
}

TEST(TorchDtypes, ATensorConvertsToHalfAndReadsBack) {
  const at::Tensor t = at::full({2}, 2.5, at::kFloat);
  const at::Tensor h = t.to(at::kHalf);
  EXPECT_EQ(h.scalar_type(), at::kHalf);
  EXPECT_EQ(static_cast<float>(h.data_ptr<c10::Half>()[1]), 2.5f);
  EXPECT_EQ(at::full({1}, 3, at::kBFloat16).item<float>(), 3.0f);
  EXPECT_EQ(h.to(at::kDouble).data_ptr<double>()[0], 2.5);
}

}  // namespace
