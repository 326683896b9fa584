// Autograd's user-facing behaviour: which tensors require grad and carry the key, backward and
// gradient accumulation, guards, and the errors a user can run into.
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

// What a new CPU tensor carries (its backend key and PartialKernels).
constexpr DispatchKeySet kCpuKeys = tensorKeySetFor(DeviceType::CPU);

// ---- Which tensors require grad ----

TEST(Autograd, ATensorCarriesTheAutogradKeyExactlyWhileItRequiresGrad) {
  Tensor x = ops::ones({2});
  EXPECT_FALSE(x.requires_grad());
  EXPECT_EQ(x.key_set(), kCpuKeys);
  x.requires_grad_();
  EXPECT_TRUE(x.requires_grad());
  EXPECT_TRUE(x.is_leaf());
  EXPECT_EQ(x.key_set(), kCpuKeys.add(DispatchKey::AutogradCPU));
  x.requires_grad_(false);
  EXPECT_FALSE(x.requires_grad());
  EXPECT_EQ(x.key_set(), kCpuKeys);
}

TEST(Autograd, ResultsOfCallsOnTensorsThatRequireGradRequireGrad) {
  const Tensor x = leafOf({1, 2});
  const Tensor constant = tensor<double>({3, 4});
  const Tensor y = ops::mul(x, constant);
  EXPECT_TRUE(y.requires_grad());
  EXPECT_FALSE(y.is_leaf());
  EXPECT_TRUE(y.key_set().has(DispatchKey::AutogradCPU));
  const Tensor z = ops::mul(constant, constant);
  EXPECT_FALSE(z.requires_grad());
  EXPECT_EQ(z.key_set(), kCpuKeys);
}

TEST(Autograd, ResultsThatAreNotFloatingPointDoNotRequireGrad) {
  const Tensor x = leafOf({1, -2, 3});
  const Tensor mask = ops::gt(x, 0);
  EXPECT_FALSE(mask.requires_grad());
  EXPECT_FALSE(mask.key_set().has(DispatchKey::AutogradCPU));
  const Tensor index = ops::argmax(x);
  EXPECT_FALSE(index.requires_grad());
}

TEST(Autograd, OnlyFloatingPointTensorsCanRequireGrad) {
  const Tensor ints = tensor<int64_t>({1, 2});
  try {
    ints.requires_grad_();
    FAIL() << "expected an error";
  } catch (const TypeError& e) {
    EXPECT_THAT(e.what(), HasSubstr("only floating-point tensors can require gradients, but this tensor is Long"));
  }
}

TEST(Autograd, ARecordedResultCannotStopRequiringGrad) {
  const Tensor y = ops::exp(leafOf({1}));
  EXPECT_THAT(errorMessageOf([&] { y.requires_grad_(false); }),
              HasSubstr("this tensor is the result of aten::exp, recorded because an input requires grad"));
  const Tensor d = y.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(testing::sharesStorage(d, y));
}

// ---- backward ----

TEST(Autograd, BackwardComputesTheGradientOfEveryLeaf) {
  // loss = sum(x * w + x) = sum(x * (w + 1)): d/dx = w + 1, d/dw = x
  const Tensor x = leafOf({1, 2, 3}), w = leafOf({4, 5, 6});
  const Tensor loss = ops::sum(ops::add(ops::mul(x, w), x));
  backward(loss);
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{5, 6, 7}));
  EXPECT_EQ(doublesOf(w.grad()), (std::vector<double>{1, 2, 3}));
}

TEST(Autograd, GradientsAccumulateAcrossBackwardCallsUntilReset) {
  const Tensor x = leafOf({2});
  ops::mul(x, 3.0).backward();
  ops::mul(x, 3.0).backward();
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{6}));
  x.mutable_grad() = Tensor();
  ops::mul(x, x).backward();
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{4}));
}

TEST(Autograd, ATensorUsedTwiceGetsTheSumOfBothGradients) {
  const Tensor x = leafOf({3});
  const Tensor y = ops::exp(x);
  ops::add(ops::mul(y, 2.0), y).backward();  // 3 exp(x)
  EXPECT_NEAR(doublesOf(x.grad())[0], 3 * std::exp(3.0), 1e-9);
}

TEST(Autograd, BackwardOfANonScalarNeedsAGradientOfItsShape) {
  const Tensor x = leafOf({1, 2});
  const Tensor y = ops::mul(x, 2.0);
  try {
    backward(y);
    FAIL() << "expected an error";
  } catch (const ValueError& e) {
    EXPECT_THAT(e.what(), HasSubstr("a gradient can only be implied for a tensor of one element, but the tensor has "
                                    "shape (2,)"));
  }
  EXPECT_THAT(errorMessageOf([&] { backward(y, tensor<double>({1, 1, 1})); }),
              HasSubstr("the gradient has shape (3,) but the tensor has shape (2,)"));
  backward(y, tensor<double>({1, 10}));
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{2, 20}));
}

TEST(Autograd, BackwardOfALeafAccumulatesTheSeedIntoIt) {
  const Tensor x = leafOf({5});
  x.backward();
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{1}));
}

TEST(Autograd, BackwardOfATensorWithoutHistoryIsAnError) {
  const Tensor y = ops::mul(tensor<double>({1}), 2.0);
  EXPECT_THAT(errorMessageOf([&] { backward(y); }),
              HasSubstr("does not require grad and has no recorded history"));
}

TEST(Autograd, GradientsOfBroadcastInputsAreSummedToTheirShape) {
  const Tensor bias = leafOf({1, 2}, {2});
  const Tensor x = tensor<double>({1, 2, 3, 4, 5, 6}, {3, 2});
  ops::sum(ops::mul(ops::add(x, bias), x)).backward();  // d/dbias = sum over rows of x
  EXPECT_EQ(doublesOf(bias.grad()), (std::vector<double>{9, 12}));
}

TEST(Autograd, GradientsFlowBackToTheInputsDtype) {
  const Tensor x = tensor<float>({1, 2});
  x.requires_grad_();
  const Tensor y = ops::mul(x, tensor<double>({3, 4}));  // promoted to Double
  EXPECT_EQ(y.scalar_type(), ScalarType::Double);
  ops::sum(y).backward();
  EXPECT_EQ(x.grad().scalar_type(), ScalarType::Float);
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{3, 4}));
}

TEST(Autograd, ASecondBackwardThroughAFreedGraphIsAnError) {
  const Tensor x = leafOf({2});
  const Tensor loss = ops::mul(ops::exp(x), x);
  loss.backward();
  EXPECT_THAT(errorMessageOf([&] { loss.backward(); }),
              HasSubstr("trying to backward through aten::mul.Tensor a second time: an earlier sy::backward over this "
                        "graph freed what it saved, or one running on another thread is about to. Pass "
                        "retain_graph=true"));
}

TEST(Autograd, RetainGraphAllowsASecondBackward) {
  const Tensor x = leafOf({2});
  const Tensor loss = ops::mul(x, x);
  backward(loss, Tensor(), /*retain_graph=*/true);
  backward(loss);
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{8}));
}

TEST(Autograd, AnOperatorWithoutAFormulaIsRecordedAndNamedAtBackward) {
  const Tensor x = leafOf({0.5, -0.5});
  const Tensor y = ops::gelu(x);  // no formula: recorded all the same
  EXPECT_TRUE(y.requires_grad());
  const Tensor loss = ops::sum(y);
  try {
    loss.backward();
    FAIL() << "expected an error";
  } catch (const NotImplementedError& e) {
    EXPECT_THAT(e.what(), HasSubstr("backward: aten::gelu has no backward formula"));
  }
  EXPECT_FALSE(x.grad().defined());  // nothing was accumulated
}

TEST(Autograd, AFailedBackwardLeavesEveryGradientAsItWas) {
  autograd::FormulaLibrary formulas("aten");
  formulas.formula("gelu", {}, [](autograd::BackwardContext&) { SY_ERROR("this formula fails"); });
  const Tensor a = leafOf({1}), b = leafOf({2});
  // a's path runs first (it was recorded last) and succeeds; then gelu's formula fails.
  const Tensor loss = ops::add(ops::sum(ops::gelu(b)), ops::mul(a, 3.0));
  EXPECT_THAT(errorMessageOf([&] { loss.backward(); }), HasSubstr("this formula fails"));
  EXPECT_FALSE(a.grad().defined());
  EXPECT_FALSE(b.grad().defined());
  // and the graph was not freed: once the formula is fixed... (here: removed) the error is the missing one
}

TEST(Autograd, ABackwardThatFailsWithoutRetainingTheGraphLeavesItUsable) {
  const Tensor x = leafOf({0});
  const Tensor y = ops::exp(x);
  // Backward registers with exp's node before it reaches gelu, which has no formula.
  const Tensor failing = ops::add(ops::sum(ops::gelu(y)), ops::sum(y));
  EXPECT_THAT(errorMessageOf([&] { failing.backward(); }), HasSubstr("aten::gelu has no backward formula"));
  ops::sum(y).backward();  // exp's saved result is still there
  EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{1}));
}

TEST(Autograd, ATensorOfAnotherBackendGetsThatBackendsAutogradKeyAndGradientsOnItsDevice) {
  const Tensor x = tensor<double>({1, 2}).to(kAccel);
  x.requires_grad_();
  EXPECT_EQ(x.key_set(), DispatchKeySet({DispatchKey::Accel, DispatchKey::AutogradAccel}));
  const Tensor y = ops::mul(x, x);
  EXPECT_TRUE(y.key_set().has(DispatchKey::AutogradAccel));
  ops::sum(y).backward();
  EXPECT_EQ(x.grad().device(), kAccel);
  EXPECT_EQ(doublesOf(x.grad().to(kCPU)), (std::vector<double>{2, 4}));
}

// ---- Guards ----

TEST(Autograd, NoGradGuardRecordsNothing) {
  Tensor x = leafOf({1, 2});
  EXPECT_TRUE(isGradEnabled());
  {
    NoGradGuard no_grad;
    EXPECT_FALSE(isGradEnabled());
    const Tensor y = ops::mul(x, 2.0);
    EXPECT_FALSE(y.requires_grad());
    EXPECT_EQ(y.key_set(), kCpuKeys);
    const Tensor v = ops::view(x, {2, 1});  // a view made here does not require grad either
    EXPECT_FALSE(v.requires_grad());
    EXPECT_EQ(v.key_set(), kCpuKeys);
    ops::add_(x, 1.0);  // and a leaf may be updated in place
  }
  EXPECT_TRUE(isGradEnabled());
  EXPECT_EQ(doublesOf(x), (std::vector<double>{2, 3}));
  EXPECT_TRUE(ops::mul(x, 2.0).requires_grad());
}

TEST(Autograd, InferenceModeRecordsNothing) {
  const Tensor x = leafOf({1});
  InferenceMode inference;
  EXPECT_FALSE(ops::exp(x).requires_grad());
}

TEST(Autograd, NoGradGuardsNestAndRestore) {
  {
    NoGradGuard outer;
    {
      NoGradGuard inner;
      EXPECT_FALSE(isGradEnabled());
    }
    EXPECT_FALSE(isGradEnabled());
  }
  EXPECT_TRUE(isGradEnabled());
}

// ---- Refused calls ----

TEST(Autograd, OutFormsAreRefusedWhenAnArgumentRequiresGrad) {
  const Tensor x = leafOf({1, 2});
  Tensor out = ops::empty({2}, ScalarType::Double);
  EXPECT_THAT(errorMessageOf([&] { ops::add_out(out, x, x); }),
              HasSubstr("aten::add.out: out= forms do not record gradients, and argument 'self' requires grad. Call "
                        "the functional form"));
  NoGradGuard no_grad;
  ops::add_out(out, x, x);
  EXPECT_EQ(doublesOf(out), (std::vector<double>{2, 4}));
}

// ---- Custom formulas ----

TEST(Autograd, AFormulaRegisteredAtRunTimeIsUsedAndRemovedWithItsLibrary) {
  const Tensor x = leafOf({0.5});
  {
    autograd::FormulaLibrary formulas("aten");
    formulas.formula("gelu", {"self"}, [](autograd::BackwardContext& ctx) {
      ctx.setGrad("self", ops::mul(ctx.grad(), 10.0));  // deliberately not gelu's derivative
    });
    ops::gelu(x).backward();
    EXPECT_EQ(doublesOf(x.grad()), (std::vector<double>{10}));
  }
  EXPECT_THAT(errorMessageOf([&] { ops::gelu(x).backward(); }), HasSubstr("aten::gelu has no backward formula"));
}

TEST(Autograd, ASecondFormulaForOneOperatorNamesBothSites) {
  autograd::FormulaLibrary formulas("aten");
  EXPECT_THAT(errorMessageOf([&] { formulas.formula("mul.Tensor", {}, [](autograd::BackwardContext&) {}); }),
              HasSubstr("aten::mul.Tensor already has a backward formula, registered at autograd/formulas_elementwise.cpp"));
}

TEST(Autograd, AFormulaReturningAWrongShapeIsNamed) {
  autograd::FormulaLibrary formulas("aten");
  formulas.formula("gelu", {}, [](autograd::BackwardContext& ctx) { ctx.setGrad("self", ops::ones({3}, ScalarType::Double)); });
  const Tensor x = leafOf({1, 2}, {2});
  EXPECT_THAT(errorMessageOf([&] { ops::sum(ops::gelu(x)).backward(); }),
              HasSubstr("the backward formula of aten::gelu (registered at tests/autograd/autograd_test.cpp"));
  EXPECT_THAT(errorMessageOf([&] { ops::sum(ops::gelu(x)).backward(); }),
              HasSubstr("returned a gradient of shape (3,) for argument 'self' of shape (2,)"));
}

TEST(Autograd, AnErrorInsideAFormulaNamesTheFormula) {
  autograd::FormulaLibrary formulas("aten");
  formulas.formula("gelu", {}, [](autograd::BackwardContext& ctx) { ctx.setGrad("self", ctx.saved("self")); });
  EXPECT_THAT(errorMessageOf([&] { ops::sum(ops::gelu(leafOf({1}))).backward(); }),
              HasSubstr("in the backward formula of aten::gelu (registered at tests/autograd/autograd_test.cpp:"));
  EXPECT_THAT(errorMessageOf([&] { ops::sum(ops::gelu(leafOf({1}))).backward(); }),
              HasSubstr("reads argument 'self', which it did not declare in its Saved list"));
}

// ---- Memory ----

TEST(Autograd, TheGraphIsFreedWithTheTensorsThatReachIt) {
  const Tensor x = leafOf({1});
  const Tensor one = tensor<double>({1});
  {
    Tensor y = ops::exp(x);
    // A long chain, each node saving the previous result: freed without deep recursion.
    for (int i = 0; i < 50000; ++i) y = ops::mul(y, one);
    EXPECT_EQ(x.use_count(), 2u);  // x and the first node's edge
    EXPECT_EQ(one.use_count(), 50001u);  // saved by every mul
  }
  EXPECT_EQ(x.use_count(), 1u);
  EXPECT_EQ(one.use_count(), 1u);
}

}  // namespace
}  // namespace sy
