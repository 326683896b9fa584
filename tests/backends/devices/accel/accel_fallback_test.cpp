// Every operator of the portable library, called on Accel tensors, matches the CPU: functional,
// out= and in-place forms, through the native kernels or the boxed CPU fallback.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <tuple>
#include <vector>

#include "backends/devices/accel/accel_test_helpers.h"

namespace {

using sy::ScalarType;
using sy::Tensor;
using sy::kAccel;
using sy::kCPU;
using sy::testing::fallbackCount;
using sy::testing::onAccel;
using sy::testing::sameAsCpu;
namespace ops = sy::ops;

using Args = std::vector<Tensor>;
using Functional = std::function<Tensor(const Args&)>;
using Writing = std::function<Tensor&(Tensor&, const Args&)>;

// Deterministic values in (0.05, 0.95), or (-0.45, 0.45) when `signed_values`: inside every
// unary operator's domain (acos, log, sqrt, rsqrt).
Tensor values(std::vector<int64_t> sizes, bool signed_values = false) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    v[static_cast<size_t>(i)] = 0.05f + 0.9f * static_cast<float>((i * 37) % 97) / 97.f - (signed_values ? 0.5f : 0.f);
  }
  return sy::tensor<float>(v, sizes);
}

Args toAccel(const Args& cpu) {
  Args out;
  for (const Tensor& t : cpu) out.push_back(onAccel(t));
  return out;
}

void checkFunctional(const char* name, const Functional& f, const Args& cpu) {
  SCOPED_TRACE(name);
  EXPECT_TRUE(sameAsCpu(f(toAccel(cpu)), f(cpu)));
}

// out starts empty on both devices, so the kernel's resize is exercised too.
void checkOut(const char* name, const Writing& f, const Args& cpu, ScalarType out_dtype = ScalarType::Float) {
  SCOPED_TRACE(name);
  Tensor cpu_out = sy::empty({0}, out_dtype);
  Tensor accel_out = sy::empty({0}, sy::TensorOptions(out_dtype).device(kAccel));
  sy::TensorImpl* impl = accel_out.unsafeGetTensorImpl();
  Args accel = toAccel(cpu);
  EXPECT_EQ(&f(accel_out, accel), &accel_out);
  EXPECT_EQ(accel_out.unsafeGetTensorImpl(), impl);
  f(cpu_out, cpu);
  EXPECT_TRUE(sameAsCpu(accel_out, cpu_out));
}

// The first argument is the tensor written in place.
void checkInPlace(const char* name, const Writing& f, const Args& cpu) {
  SCOPED_TRACE(name);
  Args accel = toAccel(cpu);
  Tensor accel_self = accel[0];
  Tensor cpu_self = ops::clone(cpu[0]);
  Args cpu_rest(cpu.begin() + 1, cpu.end()), accel_rest(accel.begin() + 1, accel.end());
  EXPECT_EQ(&f(accel_self, accel_rest), &accel_self);
  f(cpu_self, cpu_rest);
  EXPECT_TRUE(sameAsCpu(accel_self, cpu_self));
}

class AccelOperators : public ::testing::Test {
 protected:
  void SetUp() override { sy::accel::reset_fallback_counts(); }
};

// ---- Unary ---------------------------------------------------------------------------------------

#define SY_UNARY_FORMS(op)                                                                              \
  checkFunctional(#op, [](const Args& a) { return ops::op(a[0]); }, {x});                                \
  checkOut(#op "_out", [](Tensor& o, const Args& a) -> Tensor& { return ops::op##_out(o, a[0]); }, {x}); \
  checkInPlace(#op "_", [](Tensor& s, const Args&) -> Tensor& { return ops::op##_(s); }, {x})

TEST_F(AccelOperators, UnaryFunctionalOutAndInPlace) {
  Tensor x = values({3, 4});
  SY_UNARY_FORMS(abs);
  SY_UNARY_FORMS(neg);
  SY_UNARY_FORMS(exp);
  SY_UNARY_FORMS(log);
  SY_UNARY_FORMS(sqrt);
  SY_UNARY_FORMS(rsqrt);
  SY_UNARY_FORMS(sin);
  SY_UNARY_FORMS(cos);
  SY_UNARY_FORMS(tanh);
  SY_UNARY_FORMS(acos);
  SY_UNARY_FORMS(sigmoid);
  x = values({3, 4}, /*signed_values=*/true);
  SY_UNARY_FORMS(relu);
  checkFunctional("gelu", [](const Args& a) { return ops::gelu(a[0], "tanh"); }, {x});
  checkOut("gelu_out", [](Tensor& o, const Args& a) -> Tensor& { return ops::gelu_out(o, a[0]); }, {x});
  checkInPlace("gelu_", [](Tensor& s, const Args&) -> Tensor& { return ops::gelu_(s); }, {x});
  checkFunctional("clamp", [](const Args& a) { return ops::clamp(a[0], sy::Scalar(-0.2), sy::Scalar(0.3)); }, {x});
  checkOut("clamp_out", [](Tensor& o, const Args& a) -> Tensor& {
    return ops::clamp_out(o, a[0], sy::Scalar(-0.1), sy::Scalar(0.1));
  }, {x});
  checkInPlace("clamp_", [](Tensor& s, const Args&) -> Tensor& { return ops::clamp_(s, sy::Scalar(0.0)); }, {x});
  Tensor lo = sy::full({4}, -0.1), hi = sy::full({4}, 0.2);
  checkFunctional("clamp.Tensor", [](const Args& a) {
    return ops::clamp(a[0], std::optional<Tensor>(a[1]), std::optional<Tensor>(a[2]));
  }, {x, lo, hi});
  checkFunctional("clamp.Tensor(None)", [](const Args& a) {
    return ops::clamp(a[0], std::optional<Tensor>(), std::optional<Tensor>(a[1]));
  }, {x, hi});
}

// The native activations do not fall back.
TEST_F(AccelOperators, ReluIsNative) {
  Tensor a = onAccel(values({4}, true));
  sy::accel::reset_fallback_counts();
  ops::relu(a);
  ops::relu_(a);
  EXPECT_TRUE(sy::accel::fallback_counts().empty());
}

// ---- Binary --------------------------------------------------------------------------------------

TEST_F(AccelOperators, ArithmeticFunctionalOutAndInPlace) {
  Tensor x = values({2, 3}), y = values({3}, true) ;
  checkFunctional("add", [](const Args& a) { return ops::add(a[0], a[1], 3); }, {x, y});
  checkFunctional("add.Scalar", [](const Args& a) { return ops::add(a[0], sy::Scalar(2.5)); }, {x});
  checkOut("add.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::add_out(o, a[0], a[1]); }, {x, y});
  checkInPlace("add_", [](Tensor& s, const Args& a) -> Tensor& { return ops::add_(s, a[0], 2); }, {x, y});
  checkInPlace("add_.Scalar", [](Tensor& s, const Args&) -> Tensor& { return ops::add_(s, sy::Scalar(1)); }, {x});
  checkFunctional("sub", [](const Args& a) { return ops::sub(a[0], a[1]); }, {x, y});
  checkOut("sub.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::sub_out(o, a[0], a[1], 2); }, {x, y});
  checkInPlace("sub_", [](Tensor& s, const Args& a) -> Tensor& { return ops::sub_(s, a[0]); }, {x, y});
  checkFunctional("mul", [](const Args& a) { return ops::mul(a[0], a[1]); }, {x, y});
  checkFunctional("mul.Scalar", [](const Args& a) { return ops::mul(a[0], sy::Scalar(-2)); }, {x});
  checkOut("mul.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::mul_out(o, a[0], a[1]); }, {x, y});
  checkInPlace("mul_", [](Tensor& s, const Args& a) -> Tensor& { return ops::mul_(s, a[0]); }, {x, y});
  checkFunctional("div", [](const Args& a) { return ops::div(a[0], a[1]); }, {x, y});
  checkFunctional("div.floor", [](const Args& a) { return ops::div(a[0], a[1], "floor"); }, {x, y});
  checkOut("div.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::div_out(o, a[0], a[1]); }, {x, y});
  checkInPlace("div_", [](Tensor& s, const Args&) -> Tensor& { return ops::div_(s, sy::Scalar(4)); }, {x});
  checkFunctional("maximum", [](const Args& a) { return ops::maximum(a[0], a[1]); }, {x, y});
  checkOut("minimum.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::minimum_out(o, a[0], a[1]); }, {x, y});
}

TEST_F(AccelOperators, ComparisonsAndWhere) {
  Tensor x = values({2, 3}, true), y = values({3});
  checkFunctional("eq", [](const Args& a) { return ops::eq(a[0], a[0]); }, {x});
  checkFunctional("ne", [](const Args& a) { return ops::ne(a[0], a[1]); }, {x, y});
  checkFunctional("lt", [](const Args& a) { return ops::lt(a[0], sy::Scalar(0.0)); }, {x});
  checkOut("gt.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::gt_out(o, a[0], a[1]); }, {x, y},
           ScalarType::Bool);
  checkInPlace("lt_", [](Tensor& s, const Args& a) -> Tensor& { return ops::lt_(s, a[0]); }, {x, y});
  Tensor cond = ops::gt(x, sy::Scalar(0.0));
  checkFunctional("where", [](const Args& a) { return ops::where(a[0], a[1], a[2]); }, {cond, x, y});
  checkOut("where.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::where_out(o, a[0], a[1], a[2]); },
           {cond, x, y});
  checkFunctional("where.Scalar", [](const Args& a) { return ops::where(a[0], sy::Scalar(1.0), sy::Scalar(2.0)); },
                  {cond});
}

// ---- Reductions and softmax ----------------------------------------------------------------------

TEST_F(AccelOperators, Reductions) {
  Tensor x = values({3, 4}, true);
  checkFunctional("sum", [](const Args& a) { return ops::sum(a[0]); }, {x});
  checkFunctional("sum.dim", [](const Args& a) { return ops::sum(a[0], {1}, true); }, {x});
  checkOut("sum.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::sum_out(o, a[0]); }, {x});
  checkFunctional("mean", [](const Args& a) { return ops::mean(a[0]); }, {x});
  checkFunctional("mean.dim", [](const Args& a) { return ops::mean(a[0], {0}); }, {x});
  checkOut("mean.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::mean_out(o, a[0], {1}); }, {x});
  checkFunctional("amax", [](const Args& a) { return ops::amax(a[0], {1}); }, {x});
  checkOut("amax.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::amax_out(o, a[0], {0}, true); }, {x});
  checkFunctional("argmax", [](const Args& a) { return ops::argmax(a[0], 1); }, {x});
  checkOut("argmax.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::argmax_out(o, a[0]); }, {x},
           ScalarType::Long);
  checkFunctional("softmax", [](const Args& a) { return ops::softmax(a[0], 1); }, {x});
  checkFunctional("log_softmax", [](const Args& a) { return ops::log_softmax(a[0], 0); }, {x});
  checkOut("_softmax.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::_softmax_out(o, a[0], -1, false); },
           {x});
}

// ---- Linear algebra ------------------------------------------------------------------------------

TEST_F(AccelOperators, MatrixProducts) {
  Tensor a = values({2, 3}, true), b = values({3, 4}), bias = values({4});
  checkFunctional("mm", [](const Args& t) { return ops::mm(t[0], t[1]); }, {a, b});
  checkOut("mm.out", [](Tensor& o, const Args& t) -> Tensor& { return ops::mm_out(o, t[0], t[1]); }, {a, b});
  Tensor ba = values({2, 2, 3}), bb = values({2, 3, 2}, true);
  checkFunctional("bmm", [](const Args& t) { return ops::bmm(t[0], t[1]); }, {ba, bb});
  checkOut("bmm.out", [](Tensor& o, const Args& t) -> Tensor& { return ops::bmm_out(o, t[0], t[1]); }, {ba, bb});
  checkFunctional("addmm", [](const Args& t) { return ops::addmm(t[0], t[1], t[2], 2, 3); }, {bias, a, b});
  checkInPlace("addmm_", [](Tensor& s, const Args& t) -> Tensor& { return ops::addmm_(s, t[0], t[1]); },
               {values({2, 4}), a, b});
  Tensor w = values({4, 3});
  checkFunctional("linear", [](const Args& t) { return ops::linear(t[0], t[1], t[2]); }, {a, w, bias});
  checkFunctional("linear(no bias)", [](const Args& t) { return ops::linear(t[0], t[1]); }, {a, w});
  sy::accel::reset_fallback_counts();
  ops::mm(onAccel(a), onAccel(b));
  EXPECT_EQ(fallbackCount("aten::mm"), 0);
}

// ---- Shapes, copies and tensor lists -------------------------------------------------------------

TEST_F(AccelOperators, CatTakesAListOfAccelTensors) {
  Tensor x = values({2, 3}), y = values({1, 3}, true);
  checkFunctional("cat", [](const Args& a) { return ops::cat({a[0], a[1], a[0]}); }, {x, y});
  checkOut("cat.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::cat_out(o, {a[0], a[1]}, 0); }, {x, y});
  sy::accel::reset_fallback_counts();
  ops::cat({onAccel(x), onAccel(y)});
  EXPECT_EQ(fallbackCount("aten::cat"), 1);
}

TEST_F(AccelOperators, ClonesReshapesAndContiguous) {
  Tensor x = values({2, 3});
  checkFunctional("clone", [](const Args& a) { return ops::clone(a[0]); }, {x});
  checkOut("clone.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::clone_out(o, a[0]); }, {x});
  checkFunctional("reshape", [](const Args& a) { return ops::reshape(a[0], {3, 2}); }, {x});
  checkFunctional("contiguous(transposed)", [](const Args& a) { return ops::contiguous(ops::transpose(a[0], 0, 1)); },
                  {x});
  checkFunctional("reshape(transposed)", [](const Args& a) { return ops::reshape(ops::transpose(a[0], 0, 1), {6}); },
                  {x});
  checkFunctional("expand+add", [](const Args& a) { return ops::add(ops::expand(a[0], {2, 2, 3}), a[0]); }, {x});
}

// ---- Creation ------------------------------------------------------------------------------------

TEST_F(AccelOperators, FactoriesWithAnAccelDeviceMakeAccelTensors) {
  const auto accel = sy::TensorOptions().device(kAccel);
  EXPECT_TRUE(sameAsCpu(ops::zeros({2, 3}, accel), sy::zeros({2, 3})));
  EXPECT_TRUE(sameAsCpu(ops::ones({4}, accel.dtype(ScalarType::Long)), sy::ones({4}, ScalarType::Long)));
  EXPECT_TRUE(sameAsCpu(ops::full({2}, 1.5, accel), sy::full({2}, 1.5)));
  EXPECT_TRUE(sameAsCpu(ops::arange(0, 5, 1, accel), ops::arange(0, 5, 1)));
  Tensor x = values({2, 3});
  checkFunctional("zeros_like", [](const Args& a) { return ops::zeros_like(a[0]); }, {x});
  checkFunctional("ones_like", [](const Args& a) { return ops::ones_like(a[0]); }, {x});
  checkFunctional("full_like", [](const Args& a) { return ops::full_like(a[0], 7); }, {x});
  checkOut("zeros.out", [](Tensor& o, const Args&) -> Tensor& { return ops::zeros_out(o, {2, 2}); }, {});
  checkOut("full.out", [](Tensor& o, const Args&) -> Tensor& { return ops::full_out(o, {3}, 2.0); }, {});
  EXPECT_EQ(ops::empty_like(onAccel(x)).device(), kAccel);
  // Reaching Accel through the device argument alone: CPU tensors are inputs, the result is Accel.
  EXPECT_TRUE(sameAsCpu(ops::full_like(x, 3, sy::TensorOptions(kAccel)), ops::full_like(x, 3)));
  EXPECT_TRUE(sameAsCpu(ops::zeros_like(x, sy::TensorOptions(kAccel)), ops::zeros_like(x)));
}

TEST_F(AccelOperators, ToCopyConvertsAndMovesAcrossDevices) {
  Tensor x = values({2, 3}, true);
  Tensor a = onAccel(x);
  EXPECT_TRUE(sameAsCpu(ops::_to_copy(a, ScalarType::Double), ops::_to_copy(x, ScalarType::Double)));
  Tensor back = ops::_to_copy(a, std::nullopt, std::nullopt, kCPU, std::nullopt, false, std::nullopt);
  EXPECT_TRUE(back.is_cpu());
  EXPECT_TRUE(sy::allclose(back, x));
  Tensor there = ops::_to_copy(x, std::nullopt, std::nullopt, kAccel, std::nullopt, false, std::nullopt);
  EXPECT_TRUE(sameAsCpu(there, x));
  EXPECT_EQ(fallbackCount("aten::_to_copy"), 0);
}

// ---- Neural-network operators --------------------------------------------------------------------

TEST_F(AccelOperators, ConvolutionPoolingNormalizationEmbedding) {
  Tensor input = values({1, 2, 5, 5}, true), weight = values({3, 2, 3, 3}), bias = values({3});
  checkFunctional("conv2d", [](const Args& a) { return ops::conv2d(a[0], a[1], a[2], {1, 1}, {1, 1}); },
                  {input, weight, bias});
  checkOut("convolution.out", [](Tensor& o, const Args& a) -> Tensor& {
    return ops::convolution_out(o, a[0], a[1], std::nullopt, {2, 2}, {0, 0}, {1, 1}, false, {0, 0}, 1);
  }, {input, weight});
  checkFunctional("max_pool2d", [](const Args& a) { return ops::max_pool2d(a[0], {2, 2}); }, {input});
  checkOut("avg_pool2d.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::avg_pool2d_out(o, a[0], {3, 3}, {1, 1}); },
           {input});
  Tensor x = values({3, 4}, true), gamma = values({4}), beta = values({4}, true);
  checkFunctional("layer_norm", [](const Args& a) { return ops::layer_norm(a[0], {4}, a[1], a[2]); }, {x, gamma, beta});
  auto [out, mean, rstd] = ops::native_layer_norm(onAccel(x), {4}, onAccel(gamma), std::nullopt, 1e-5);
  auto [cpu_out, cpu_mean, cpu_rstd] = ops::native_layer_norm(x, {4}, gamma, std::nullopt, 1e-5);
  EXPECT_TRUE(sameAsCpu(out, cpu_out));
  EXPECT_TRUE(sameAsCpu(mean, cpu_mean));
  EXPECT_TRUE(sameAsCpu(rstd, cpu_rstd));
  Tensor table = values({5, 3}), indices = sy::tensor<int64_t>({4, 0, 2, 2});
  checkFunctional("embedding", [](const Args& a) { return ops::embedding(a[0], a[1]); }, {table, indices});
  checkOut("embedding.out", [](Tensor& o, const Args& a) -> Tensor& { return ops::embedding_out(o, a[0], a[1]); },
           {table, indices});
}

}  // namespace
