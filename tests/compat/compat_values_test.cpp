// Values through compat/torch.h, spelled as PyTorch code spells them: a backend's own tensors
// (make_tensor, the TensorImpl(DispatchKeySet, dtype, device) constructor), schema names,
// c10::List, c10::ArrayRef and the IValue accessors to<T>, toListRef, toStringRef.
#include <gtest/gtest.h>

#include <switchyard/compat/torch.h>

#include <sstream>
#include <string>
#include <vector>

namespace {

// A backend's tensor: no storage, its own state, on PrivateUse1.
class OpaqueTensorImpl : public c10::TensorImpl {
 public:
  OpaqueTensorImpl(c10::DispatchKeySet ks, caffe2::TypeMeta dtype, c10::Device device, int handle)
      : c10::TensorImpl(ks, dtype, device), handle_(handle) {}
  int handle() const { return handle_; }

 private:
  int handle_;
};

TEST(TorchValues, ABackendMakesItsOwnTensorsWithMakeTensor) {
  at::Tensor t = at::detail::make_tensor<OpaqueTensorImpl>(c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                                           caffe2::TypeMeta::Make<float>(),
                                                           c10::Device(c10::DeviceType::PrivateUse1, 0), 42);
  EXPECT_EQ(t.key_set(), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1));
  EXPECT_EQ(t.scalar_type(), at::kFloat);
  EXPECT_EQ(t.device(), c10::Device(c10::DeviceType::PrivateUse1, 0));
  EXPECT_EQ(t.sizes(), c10::ArrayRef<int64_t>({0}));  // as PyTorch's data-less TensorImpl starts
  EXPECT_EQ(t.numel(), 0);
  EXPECT_EQ(static_cast<OpaqueTensorImpl*>(t.unsafeGetTensorImpl())->handle(), 42);
}

TEST(TorchValues, ABackendTensorDispatchesToTheBackendsKernel) {
  auto def = MAKE_TORCH_LIBRARY(compat_values);
  def.def("handle(Tensor self) -> int");
  auto impl = MAKE_TORCH_LIBRARY_IMPL(compat_values, PrivateUse1);
  impl.impl("handle", [](const at::Tensor& self) -> int64_t {
    return static_cast<OpaqueTensorImpl*>(self.unsafeGetTensorImpl())->handle();
  });
  at::Tensor t = at::detail::make_tensor<OpaqueTensorImpl>(c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                                           caffe2::TypeMeta::Make<int64_t>(),
                                                           c10::Device(c10::DeviceType::PrivateUse1), 7);
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("compat_values::handle", "");
  EXPECT_EQ(op.typed<int64_t(const at::Tensor&)>().call(t), 7);
}

TEST(TorchValues, SchemaNameIsTheQualifiedNameAndOperatorNamesPrint) {
  auto def = MAKE_TORCH_LIBRARY(compat_names);
  def.def("f.overload(Tensor self) -> Tensor");
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("compat_names::f", "overload");
  EXPECT_EQ(op.schema().name(), "compat_names::f");
  EXPECT_EQ(op.schema().overload_name(), "overload");
  std::ostringstream printed;
  printed << op.operator_name();
  EXPECT_EQ(printed.str(), "compat_names::f.overload");
}

TEST(TorchValues, AListCopySharesItsElementsAsInPyTorchAndCopyMakesAnIndependentOne) {
  c10::List<int64_t> a({1, 2, 3});
  c10::List<int64_t> shared = a;
  shared.set(0, 10);
  shared.push_back(4);
  EXPECT_EQ(a.vec(), std::vector<int64_t>({10, 2, 3, 4}));
  EXPECT_TRUE(a.is(shared));
  EXPECT_EQ(a.use_count(), 2u);
  c10::List<int64_t> independent = a.copy();
  independent.set(1, 20);
  EXPECT_EQ(a.get(1), 2);
  EXPECT_FALSE(a.is(independent));
  EXPECT_EQ(independent, c10::List<int64_t>({10, 20, 3, 4}));
  // Boxing copies: the IValue's list is a value of its own.
  c10::IValue boxed = a;
  a.set(2, 30);
  EXPECT_EQ(boxed.to<std::vector<int64_t>>(), std::vector<int64_t>({10, 2, 3, 4}));
}

TEST(TorchValues, ListsBoxAndUnboxAsIValueLists) {
  c10::List<int64_t> ints({1, 2, 3});
  ints.push_back(4);
  ints.set(0, 0);
  c10::IValue boxed = ints;
  EXPECT_TRUE(boxed.isIntList());
  EXPECT_EQ(boxed.to<c10::List<int64_t>>(), ints);
  EXPECT_EQ(boxed.to<std::vector<int64_t>>(), (std::vector<int64_t>{0, 2, 3, 4}));

  c10::List<at::Tensor> tensors;
  tensors.push_back(at::ones({2}));
  c10::IValue boxed_tensors = tensors;
  EXPECT_EQ(boxed_tensors.to<c10::List<at::Tensor>>().get(0).numel(), 2);

  c10::List<c10::IValue> generic({c10::IValue(1), c10::IValue("two")});
  c10::IValue boxed_generic = generic;
  c10::ArrayRef<c10::IValue> elements = boxed_generic.toListRef();
  ASSERT_EQ(elements.size(), 2u);
  EXPECT_EQ(elements[0].to<int64_t>(), 1);
  EXPECT_EQ(elements[1].toStringRef(), "two");
}

TEST(TorchValues, ToConvertsToTheRequestedType) {
  EXPECT_EQ(c10::IValue(3).to<int64_t>(), 3);
  EXPECT_EQ(c10::IValue(2.5).to<double>(), 2.5);
  EXPECT_EQ(c10::IValue(true).to<bool>(), true);
  EXPECT_EQ(c10::IValue("text").to<std::string>(), "text");
  EXPECT_EQ(c10::IValue(at::kLong).to<at::ScalarType>(), at::kLong);
  EXPECT_EQ(c10::IValue().to<c10::optional<int64_t>>(), c10::nullopt);
  EXPECT_EQ(c10::IValue(5).to<c10::optional<int64_t>>(), 5);
  EXPECT_EQ(c10::IValue(at::ones({3})).to<at::Tensor>().numel(), 3);
  EXPECT_THROW(c10::IValue(1.5).to<int64_t>(), c10::Error);
}

TEST(TorchValues, ArrayRefIsTheSpanTensorsHandOut) {
  at::Tensor t = at::zeros({2, 3});
  c10::ArrayRef<int64_t> sizes = t.sizes();
  EXPECT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[1], 3);
  sy::IntArrayRef back_to_a_span = sizes;
  EXPECT_EQ(back_to_a_span.data(), t.sizes().data());
}

TEST(TorchValues, ArrayRefVecCopiesTheElementsOut) {
  at::Tensor t = at::zeros({2, 3});
  c10::ArrayRef<int64_t> sizes = t.sizes();
  std::vector<int64_t> grown = sizes.vec();
  grown.push_back(4);
  EXPECT_EQ(grown, (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(t.dim(), 2);  // the copy is the caller's own
  EXPECT_EQ(c10::ArrayRef<int64_t>(t.sizes()).vec(), (std::vector<int64_t>{2, 3}));
}

TEST(TorchValues, SizesAndStridesCopyOutWithVecAsInPyTorch) {
  at::Tensor t = at::zeros({2, 3});
  std::vector<int64_t> sizes = t.sizes().vec();
  sizes[0] = 7;  // the caller's own copy
  EXPECT_EQ(sizes, (std::vector<int64_t>{7, 3}));
  EXPECT_EQ(t.sizes().vec(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.strides().vec(), (std::vector<int64_t>{3, 1}));
  // Still the Span a kernel takes, and comparable with another tensor's sizes or a list.
  c10::IntArrayRef span = t.sizes();
  EXPECT_EQ(span.data(), t.sizes().data());
  EXPECT_TRUE(t.sizes() == at::ones({2, 3}).sizes());
  EXPECT_FALSE(t.sizes() == at::ones({3, 2}).sizes());
  EXPECT_TRUE(t.sizes() == c10::IntArrayRef({2, 3}));
}

TEST(TorchValues, ArrayRefHasPyTorchsMembers) {
  const std::vector<int64_t> values{5, 6, 7, 8};
  c10::ArrayRef<int64_t> all(values);
  EXPECT_FALSE(all.empty());
  EXPECT_EQ(all.data(), values.data());
  EXPECT_EQ(all.front(), 5);
  EXPECT_EQ(all.back(), 8);
  EXPECT_EQ(all.slice(1, 2).vec(), (std::vector<int64_t>{6, 7}));
  EXPECT_EQ(all.slice(3).vec(), (std::vector<int64_t>{8}));
  EXPECT_TRUE(all.slice(4).empty());
  EXPECT_TRUE(all.slice(1, 2).equals({6, 7}));
  EXPECT_FALSE(all.equals({5, 6, 7}));
  EXPECT_TRUE(all == c10::ArrayRef<int64_t>(values.data(), values.data() + values.size()));
  EXPECT_TRUE(all != all.slice(1));
  int64_t sum = 0;
  for (int64_t v : all) sum += v;
  EXPECT_EQ(sum, 26);
  EXPECT_EQ(std::vector<int64_t>(all.begin(), all.end()), values);
  const int64_t one = 9;
  EXPECT_EQ(c10::ArrayRef<int64_t>(one).vec(), (std::vector<int64_t>{9}));
  EXPECT_TRUE(c10::ArrayRef<at::Tensor>().empty());
}

TEST(TorchValues, ArrayRefRefusesOutOfRangeSlicesAndIndices) {
  const std::vector<int64_t> values{1, 2, 3};
  c10::ArrayRef<int64_t> all(values);
  EXPECT_THROW(all.slice(2, 2), c10::Error);
  EXPECT_THROW(all.slice(4), c10::Error);
  EXPECT_THROW(all.slice(1, SIZE_MAX), c10::Error);  // n + m would overflow
  EXPECT_THROW(all.at(3), c10::Error);
  EXPECT_THROW(c10::ArrayRef<int64_t>().front(), c10::Error);
  EXPECT_THROW(c10::ArrayRef<int64_t>().back(), c10::Error);
  EXPECT_EQ(all.at(2), 3);
}

at::Tensor sumOfSizes(const at::Tensor& self, c10::ArrayRef<int64_t> sizes, c10::ArrayRef<at::Tensor> others) {
  int64_t total = 0;
  for (int64_t s : sizes.vec()) total += s;
  return at::full({1}, self.item<double>() + static_cast<double>(total) + static_cast<double>(others.size()));
}

TEST(TorchValues, AKernelTakesArrayRefParametersBoxedAndUnboxed) {
  auto m = MAKE_TORCH_LIBRARY(compat_array_ref);
  m.def("sum_of_sizes", &sumOfSizes);
  auto op = c10::Dispatcher::singleton().findSchemaOrThrow("compat_array_ref::sum_of_sizes", "");
  EXPECT_EQ(op.schema().toString(), "compat_array_ref::sum_of_sizes(Tensor _0, int[] _1, Tensor[] _2) -> Tensor");
  const std::vector<int64_t> sizes{2, 3};
  const std::vector<at::Tensor> others{at::ones({1})};
  auto typed = op.typed<at::Tensor(const at::Tensor&, c10::ArrayRef<int64_t>, c10::ArrayRef<at::Tensor>)>();
  EXPECT_EQ(typed.call(at::ones({1}), sizes, others).item<double>(), 7);
  torch::jit::Stack stack{at::ones({1}), c10::IValue(sizes), c10::IValue(others)};
  op.callBoxed(&stack);
  EXPECT_EQ(torch::jit::pop(stack).toTensor().item<double>(), 7);
}

}  // namespace
