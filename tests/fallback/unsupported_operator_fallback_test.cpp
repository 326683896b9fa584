// A backend's own error for the operators it does not implement, through one fallback.
#include <gtest/gtest.h>

#include "switchyard/fallback/unsupported_operator_fallback.h"
#include "switchyard/switchyard.h"

namespace {

using sy::DispatchKey;
using sy::Library;
using sy::Tensor;

Tensor onMyBackend() {
  Tensor t = sy::ones({2});
  t.unsafeGetTensorImpl()->set_key_set(DispatchKey::PrivateUse2);
  return t;
}

class UnsupportedOperatorFallback : public ::testing::Test {
 protected:
  UnsupportedOperatorFallback() {
    fallback_.fallback(sy::makeUnsupportedOperatorFallback("MyBackend"));
    kernels_.impl("add.Tensor", [](const Tensor& a, const Tensor&, const sy::Scalar&) { return a; });
    kernels_.impl("mul.Tensor", [](const Tensor& a, const Tensor&) { return a; });
  }
  Library fallback_{Library::Impl, "_", DispatchKey::PrivateUse2};
  Library kernels_{Library::Impl, "aten", DispatchKey::PrivateUse2};
};

TEST_F(UnsupportedOperatorFallback, RaisesTheBackendsOwnMessageListingWhatItSupports) {
  try {
    sy::ops::sin(onMyBackend());
    FAIL() << "expected an error";
  } catch (const sy::Error& e) {
    EXPECT_STREQ(e.what(), "MyBackend does not implement aten::sin; supported: aten::add.Tensor, aten::mul.Tensor");
  }
}

TEST_F(UnsupportedOperatorFallback, ImplementedOperatorsStillRunTheirKernels) {
  Tensor x = onMyBackend();
  EXPECT_TRUE(sy::ops::add(x, x).is_same(x));
}

TEST_F(UnsupportedOperatorFallback, SupportedListFollowsRegistrations) {
  kernels_ = Library(Library::Impl, "aten", DispatchKey::PrivateUse2);  // drops add and mul
  try {
    sy::ops::add(onMyBackend(), onMyBackend());
    FAIL() << "expected an error";
  } catch (const sy::Error& e) {
    EXPECT_STREQ(e.what(), "MyBackend does not implement aten::add.Tensor; supported: (none)");
  }
}

}  // namespace
