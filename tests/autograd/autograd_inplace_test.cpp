// Autograd with views and in-place operators: what is recorded, what is refused, and saved
// tensors written after they were saved.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/autograd/autograd.h"
#include "switchyard/autograd/formula.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::doublesOf;
using testing::errorMessageOf;
using testing::leafOf;

// ---- Views ----

TEST(AutogradViews, AViewOfATensorThatRequiresGradRequiresGradAndSendsItsGradientBack) {
  const Tensor x = leafOf({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor row = ops::select(x, 0, 1);
  EXPECT_TRUE(row.requires_grad());
  EXPECT_FALSE(row.is_leaf());
  EXPECT_TRUE(testing::sharesStorage(row, x));
  ops::sum(ops::mul(row, row)).backward();
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{0, 0, 0, 8, 10, 12}));
}

TEST(AutogradViews, RequiresGradOnAViewOfAPlainTensorMakesTheViewALeaf) {
  const Tensor base = tensor<double>({1, 2, 3, 4});
  const Tensor v = ops::slice(base, 0, 1, 3);
  v.requires_grad_();
  EXPECT_TRUE(v.is_leaf());
  EXPECT_FALSE(base.requires_grad());
  ops::sum(ops::mul(v, 3.0)).backward();
  EXPECT_EQ(doublesOf(v.grad()), (std::vector<double>{3, 3}));
}

TEST(AutogradViews, ARecordedViewCannotStopRequiringGrad) {
  const Tensor v = ops::view(leafOf({1, 2}), {2, 1});
  EXPECT_THAT(errorMessageOf([&] { v.requires_grad_(false); }), HasSubstr("the result of aten::view"));
}

// ---- In-place operators ----

TEST(AutogradInPlace, AnInPlaceCallOnANonLeafIsRecordedAsItsFunctionalTwin) {
  const Tensor x = leafOf({1, 2});
  Tensor y = ops::mul(x, 3.0);
  Tensor& same = ops::mul_(y, x);  // y = 3 x^2
  EXPECT_TRUE(same.is_same(y));
  ops::sum(y).backward();
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{6, 12}));
}

TEST(AutogradInPlace, WritingAValueThatRequiresGradIntoAFreshTensorGivesItHistory) {
  const Tensor x = leafOf({1, 2});
  Tensor buffer = ops::zeros({2}, ScalarType::Double);
  ops::add_(buffer, x);
  EXPECT_TRUE(buffer.requires_grad());
  EXPECT_FALSE(buffer.is_leaf());
  ops::sum(ops::mul(buffer, buffer)).backward();
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{2, 4}));
}

TEST(AutogradInPlace, ALeafThatRequiresGradCannotBeWrittenInPlace) {
  Tensor w = leafOf({1, 2});
  EXPECT_THAT(errorMessageOf([&] { ops::add_(w, 1.0); }),
              HasSubstr("aten::add_.Scalar: argument 'self' is a leaf tensor that requires grad, and writing into it in "
                        "place would lose the value its gradient is taken at. Do the update under sy::NoGradGuard"));
  EXPECT_EQ(doublesOf(w), (std::vector<double>{1, 2}));  // refused before the kernel ran
}

TEST(AutogradInPlace, ARecordedViewCannotBeWrittenInPlace) {
  const Tensor y = ops::mul(leafOf({1, 2, 3, 4}), 1.0);
  Tensor v = ops::slice(y, 0, 0, 2);
  EXPECT_THAT(errorMessageOf([&] { ops::mul_(v, 2.0); }),
              HasSubstr("aten::mul_.Scalar: argument 'self' is a view of another tensor that requires grad; autograd "
                        "does not support in-place operations on views"));
}

TEST(AutogradInPlace, ATensorWithLiveViewsCannotBeWrittenInPlaceUntilTheyAreGone) {
  Tensor y = ops::mul(leafOf({1, 2, 3, 4}), 1.0);
  {
    const Tensor v = ops::view(y, {2, 2});
    EXPECT_THAT(errorMessageOf([&] { ops::relu_(y); }),
                HasSubstr("aten::relu_: argument 'self' has views that are still alive"));
  }
  ops::relu_(y);
  EXPECT_TRUE(y.requires_grad());
}

TEST(AutogradInPlace, WritingAValueThatRequiresGradIntoSharedMemoryIsRefused) {
  const Tensor base = tensor<double>({0, 0, 0, 0});
  Tensor part = ops::slice(base, 0, 0, 2);  // a view made without autograd: no history to follow
  const Tensor x = leafOf({1, 2});
  EXPECT_THAT(errorMessageOf([&] { ops::copy_(part, x); }),
              HasSubstr("aten::copy_: argument 'self' shares its memory with another tensor"));
  EXPECT_EQ(doublesOf(base), (std::vector<double>{0, 0, 0, 0}));
}

TEST(AutogradInPlace, InPlaceCallsOnTensorsThatDoNotRequireGradAreNotRestricted) {
  const Tensor base = tensor<double>({1, 2, 3, 4});
  Tensor part = ops::slice(base, 0, 0, 2);
  ops::mul_(part, 10.0);
  EXPECT_EQ(doublesOf(base), (std::vector<double>{10, 20, 3, 4}));
}

// ---- Saved tensors written after they were saved ----

TEST(AutogradInPlace, AResultWrittenAfterItsFormulaSavedItFailsBackward) {
  const Tensor x = leafOf({1, 2});
  Tensor y = ops::exp(x);  // exp's formula saves its result
  ops::add_(y, 1.0);
  EXPECT_THAT(errorMessageOf([&] { ops::sum(y).backward(); }),
              HasSubstr("backward: result 0 of aten::exp, saved for its backward formula, was modified by an in-place "
                        "operation after it was saved (its memory's version went from 0 to 1)"));
}

TEST(AutogradInPlace, AnArgumentWrittenAfterItWasSavedFailsBackward) {
  const Tensor x = leafOf({1, 2});
  Tensor c = ops::mul(x, 2.0);
  const Tensor y = ops::mul(c, x);  // saves c
  ops::sub_(c, 1.0);
  EXPECT_THAT(errorMessageOf([&] { ops::sum(y).backward(); }),
              HasSubstr("argument 'self' of aten::mul.Tensor, saved for its backward formula, was modified by an "
                        "in-place operation"));
}

// ---- A functional operator that returns its own input ----

Tensor identityKernel(const Tensor& self) { return self; }
SY_LIBRARY(autograd_test, m) { m.def("identity(Tensor self) -> Tensor"); }
SY_LIBRARY_IMPL(autograd_test, CPU, m) { m.impl("identity", SY_FN(identityKernel)); }
SY_BACKWARD_FORMULAS(autograd_test, m) {
  m.formula("identity", {}, [](autograd::BackwardContext& ctx) { ctx.setGrad("self", ops::mul(ctx.grad(), 2.0)); });
}

TEST(AutogradInPlace, AResultThatIsTheInputItselfBecomesAnAliasWithItsOwnHistory) {
  const Tensor x = leafOf({1, 2});
  const auto identity = Dispatcher::singleton().findSchemaOrThrow("autograd_test::identity", "").typed<Tensor(const Tensor&)>();
  const Tensor y = identity.call(x);
  EXPECT_FALSE(y.is_same(x));
  EXPECT_TRUE(testing::sharesStorage(y, x));
  EXPECT_TRUE(x.is_leaf());
  EXPECT_FALSE(y.is_leaf());
  ops::sum(y).backward();
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{2, 2}));
}

}  // namespace
}  // namespace sy
