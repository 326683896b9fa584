// The tensor API PyTorch backend code uses, spelled as in PyTorch through <switchyard/compat/torch.h>
// alone: TensorOptions and its builders, t.options(), the *_like factories, empty_strided and
// empty with a memory format, to(device|dtype), item and const_data_ptr, the tensor methods, the
// at:: operator functions and at::_ops::<op>::call / redispatch. Each test checks what PyTorch does.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include <switchyard/compat/torch.h>

namespace {

at::Tensor idiomFloats(std::vector<float> values) {
  at::Tensor t = at::empty({static_cast<int64_t>(values.size())}, at::dtype(at::kFloat));
  for (size_t i = 0; i < values.size(); ++i) t.data_ptr<float>()[i] = values[i];
  return t;
}
std::vector<float> idiomValues(const at::Tensor& t) {
  at::Tensor c = t.contiguous();
  return std::vector<float>(c.const_data_ptr<float>(), c.const_data_ptr<float>() + c.numel());
}

TEST(TorchTensorIdioms, DeviceAndDtypeBuildTensorOptions) {
  at::TensorOptions options = at::device(at::kCPU).dtype(at::kDouble);
  EXPECT_EQ(options.device(), c10::Device(c10::kCPU));
  EXPECT_EQ(options.dtype(), at::kDouble);
  EXPECT_TRUE(options.has_dtype());
  EXPECT_EQ(options.layout(), at::kStrided);
  EXPECT_FALSE(at::TensorOptions().has_dtype());
  at::Tensor t = at::empty({2, 3}, options);
  EXPECT_EQ(t.scalar_type(), at::kDouble);
  EXPECT_TRUE(t.is_cpu());
  at::Tensor l = at::zeros({2}, at::TensorOptions().dtype(at::kLong).layout(at::kStrided).device(c10::Device("cpu")));
  EXPECT_EQ(l.scalar_type(), at::kLong);
  EXPECT_EQ(at::empty({1}, at::kCPU).device(), c10::Device(c10::kCPU));  // a DeviceType is a TensorOptions too
}

TEST(TorchTensorIdioms, OptionsAreTheTensorsDtypeAndDevice) {
  at::Tensor t = at::ones({2}, at::dtype(at::kInt));
  at::TensorOptions options = t.options();
  EXPECT_EQ(options.dtype(), at::kInt);
  EXPECT_EQ(options.device(), t.device());
  EXPECT_EQ(at::empty({3}, t.options()).scalar_type(), at::kInt);
  EXPECT_EQ(at::empty({3}, t.options().dtype(at::kFloat)).scalar_type(), at::kFloat);
  EXPECT_EQ(t.layout(), at::kStrided);
}

TEST(TorchTensorIdioms, LikeFactoriesTakeTheShapeAndByDefaultTheDtype) {
  at::Tensor t = at::ones({2, 3}, at::dtype(at::kDouble));
  at::Tensor e = at::empty_like(t);
  EXPECT_EQ(e.sizes(), t.sizes());
  EXPECT_EQ(e.scalar_type(), at::kDouble);
  at::Tensor z = at::zeros_like(t);
  EXPECT_EQ(z.sum().item<double>(), 0.0);
  at::Tensor o = at::ones_like(t, at::kFloat);
  EXPECT_EQ(o.scalar_type(), at::kFloat);
  EXPECT_EQ(o.sum().item<float>(), 6.0f);
}

TEST(TorchTensorIdioms, EmptyStridedAndEmptyWithAMemoryFormatLayOutAsAsked) {
  at::Tensor s = at::empty_strided({2, 3}, {1, 2}, at::dtype(at::kFloat));
  EXPECT_EQ(s.stride(0), 1);
  EXPECT_EQ(s.stride(1), 2);
  at::Tensor cl = at::empty({1, 3, 2, 2}, at::TensorOptions(), c10::MemoryFormat::ChannelsLast);
  EXPECT_EQ(cl.stride(1), 1);   // channels innermost
  EXPECT_EQ(cl.stride(3), 3);
  EXPECT_EQ(cl.stride(0), 12);
}

TEST(TorchTensorIdioms, ToConvertsTheDtypeAndKeepsATensorAlreadyThere) {
  at::Tensor t = idiomFloats({1.5f, 2.5f});
  at::Tensor d = t.to(at::kDouble);
  EXPECT_EQ(d.scalar_type(), at::kDouble);
  EXPECT_EQ(d.const_data_ptr<double>()[1], 2.5);
  EXPECT_TRUE(t.to(at::kCPU).is_same(t));
  EXPECT_TRUE(t.to(c10::Device("cpu"), at::kFloat).is_same(t));
  at::Tensor i = t.to(c10::Device("cpu"), at::kInt);
  EXPECT_EQ(i.const_data_ptr<int32_t>()[1], 2);
  EXPECT_EQ(t.to(at::TensorOptions().dtype(at::kLong)).scalar_type(), at::kLong);
  EXPECT_FALSE(t.to(at::kCPU, at::kFloat, /*non_blocking=*/false, /*copy=*/true).is_same(t));
}

TEST(TorchTensorIdioms, ItemAndConstDataPtrReadTheElements) {
  at::Tensor t = idiomFloats({4.0f});
  EXPECT_EQ(t.item<float>(), 4.0f);
  EXPECT_EQ(t.item<int64_t>(), 4);
  static_assert(std::is_same_v<decltype(t.const_data_ptr<float>()), const float*>);
  EXPECT_EQ(*t.const_data_ptr<float>(), 4.0f);
}

TEST(TorchTensorIdioms, DeviceTypeAndIsPrivateUseOneTellTheDevice) {
  at::Tensor t = at::ones({1});
  EXPECT_EQ(t.device().type(), c10::DeviceType::CPU);
  EXPECT_EQ(t.device().index(), -1);
  EXPECT_FALSE(t.is_privateuseone());
  EXPECT_TRUE(c10::Device(c10::kPrivateUse1, 0).is_privateuseone());
  EXPECT_TRUE(c10::Device(c10::kPrivateUse1, 0).has_index());
}

TEST(TorchTensorIdioms, TensorMethodsCallTheOperators) {
  at::Tensor a = idiomFloats({1, 2, 3});
  at::Tensor b = idiomFloats({10, 20, 30});
  EXPECT_EQ(idiomValues(a.add(b)), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(idiomValues(a.add(b, /*alpha=*/2)), (std::vector<float>{21, 42, 63}));
  EXPECT_EQ(idiomValues(b.sub(a)), (std::vector<float>{9, 18, 27}));
  EXPECT_EQ(idiomValues(a.mul(b)), (std::vector<float>{10, 40, 90}));
  EXPECT_EQ(idiomValues(a.mul(2)), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(idiomValues(b.div(a)), (std::vector<float>{10, 10, 10}));
  EXPECT_EQ(idiomValues(a.neg().relu()), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(a.sum().item<float>(), 6.0f);
  at::Tensor m = a.view({1, 3});
  EXPECT_EQ(idiomValues(m.mm(b.view({3, 1}))), (std::vector<float>{140}));
  EXPECT_EQ(idiomValues(m.transpose(0, 1).contiguous()), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(idiomValues(m.expand({2, 3}).sum({0})), (std::vector<float>{2, 4, 6}));
  at::Tensor c = a.clone();
  const at::Tensor& same = c.add_(b);  // in place: the same tensor back
  EXPECT_TRUE(same.is_same(c));
  EXPECT_EQ(idiomValues(c), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(idiomValues(a), (std::vector<float>{1, 2, 3}));  // clone made new memory
}

TEST(TorchTensorIdioms, EveryOperatorOnSelfIsAMethodAsInPyTorch) {
  at::Tensor a = idiomFloats({-2, 0.5, 3});
  // Generated from the kernel YAML, beyond the arithmetic: with PyTorch's defaults and overloads.
  EXPECT_EQ(idiomValues(a.clamp(0, 1)), (std::vector<float>{0, 0.5, 1}));
  EXPECT_EQ(idiomValues(a.flip({0})), (std::vector<float>{3, 0.5, -2}));
  EXPECT_EQ(idiomValues(a.cumsum(0)), (std::vector<float>{-2, -1.5, 1.5}));
  EXPECT_EQ(a.argmax().item<int64_t>(), 2);
  EXPECT_EQ(idiomValues(a.masked_fill(a.lt(0), 7)), (std::vector<float>{7, 0.5, 3}));
  at::Tensor index = at::zeros({2}, at::kLong);
  EXPECT_EQ(idiomValues(a.index_select(0, index)), (std::vector<float>{-2, -2}));
  auto [values, indices] = at::ones({2, 3}).cumsum(1).max(1);
  EXPECT_EQ(idiomValues(values), (std::vector<float>{3, 3}));
  EXPECT_EQ(indices.scalar_type(), at::kLong);
  EXPECT_EQ(a.pow(2).sum().item<float>(), 13.25f);
  EXPECT_EQ(a.div(a.abs().add(1), "floor").sum().item<float>(), -1.0f);  // -1, 0, 0
  // In place on a const handle, as PyTorch's methods are: the same tensor back, changed.
  const at::Tensor c = a.clone();
  at::Tensor& same = c.clamp_(0, 1).mul_(4);
  EXPECT_TRUE(same.is_same(c));
  EXPECT_EQ(idiomValues(c), (std::vector<float>{0, 2, 4}));
  at::Tensor i = at::full({2}, 6, at::kInt);
  i.bitwise_and_(at::full({2}, 3, at::kInt));
  EXPECT_EQ(i.sum().item<int64_t>(), 4);
}

TEST(TorchTensorIdioms, AtFunctionsAreTheOperatorCalls) {
  at::Tensor a = idiomFloats({1, 2});
  at::Tensor b = idiomFloats({3, 4});
  EXPECT_EQ(idiomValues(at::add(a, b)), (std::vector<float>{4, 6}));
  EXPECT_EQ(idiomValues(at::mul(a, 3)), (std::vector<float>{3, 6}));
  at::Tensor out = at::empty({0});
  at::Tensor& written = at::add_out(out, a, b, 2);
  EXPECT_TRUE(written.is_same(out));
  EXPECT_EQ(idiomValues(out), (std::vector<float>{7, 10}));
  at::OptionalIntArrayRef all_dims = c10::nullopt;
  EXPECT_EQ(at::sum(a, all_dims).item<float>(), 3.0f);
  EXPECT_EQ(idiomValues(at::sum(at::ones({2, 2}), at::OptionalIntArrayRef({1}), /*keepdim=*/false)),
            (std::vector<float>{2, 2}));
}

TEST(TorchTensorIdioms, OpsStructsCallAndRedispatch) {
  EXPECT_STREQ(at::_ops::add_Tensor::name, "aten::add");
  EXPECT_STREQ(at::_ops::add_Tensor::overload_name, "Tensor");
  static_assert(std::is_same_v<at::_ops::mul_Tensor::schema, at::Tensor(const at::Tensor&, const at::Tensor&)>);
  at::Tensor a = idiomFloats({1, 2});
  EXPECT_EQ(idiomValues(at::_ops::add_Tensor::call(a, a, 1)), (std::vector<float>{2, 4}));
  EXPECT_EQ(idiomValues(at::_ops::mul_Tensor::call(a, a)), (std::vector<float>{1, 4}));
  // What a backend's kernel does to reach the CPU's: redispatch with the keys below its own.
  at::Tensor r = at::_ops::add_Tensor::redispatch(c10::DispatchKeySet(c10::DispatchKey::CPU), a, a, 3);
  EXPECT_EQ(idiomValues(r), (std::vector<float>{4, 8}));
  // Every operator has one, with PyTorch's name and the schema it was registered with.
  EXPECT_STREQ(at::_ops::clamp::schema_str,
               "aten::clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor");
  EXPECT_EQ(sy::Dispatcher::singleton().findSchemaOrThrow(at::_ops::cumsum::name, at::_ops::cumsum::overload_name)
                .schema().toString(),
            at::_ops::cumsum::schema_str);
  EXPECT_EQ(idiomValues(at::_ops::clamp::call(a, -1, 1.5)), (std::vector<float>{1, 1.5}));
  at::Tensor out = at::empty({2});
  at::Tensor& flipped = at::_ops::flip_out::call(a, {0}, out);
  EXPECT_TRUE(flipped.is_same(out));
  EXPECT_EQ(idiomValues(out), (std::vector<float>{2, 1}));
  at::Tensor d = a.clone();
  EXPECT_TRUE(at::_ops::mul__Scalar::call(d, 3).is_same(d));
  EXPECT_EQ(idiomValues(d), (std::vector<float>{3, 6}));
  at::Tensor e = at::_ops::empty_memory_format::call({2}, at::kLong, c10::nullopt, c10::nullopt, c10::nullopt,
                                                      c10::nullopt);
  EXPECT_EQ(e.scalar_type(), at::kLong);
}

}  // namespace
