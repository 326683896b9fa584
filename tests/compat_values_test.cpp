// Values through compat/torch.h, spelled as PyTorch code spells them: a backend's own tensors
// (make_tensor, the TensorImpl(DispatchKeySet, dtype, device) constructor), schema names,
// c10::List, c10::Dict, c10::ArrayRef and the IValue accessors to<T>, toListRef, toStringRef.
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

TEST(TorchValues, DictKeepsInsertionOrderAndPyTorchsInterface) {
  c10::Dict<std::string, int64_t> dict;
  EXPECT_TRUE(dict.insert("b", 2).second);
  EXPECT_TRUE(dict.insert("a", 1).second);
  EXPECT_FALSE(dict.insert("b", 20).second);
  dict.insert_or_assign("a", 10);
  EXPECT_EQ(dict.size(), 2u);
  EXPECT_EQ(dict.at("a"), 10);
  EXPECT_TRUE(dict.contains("b"));
  std::vector<std::string> keys;
  for (const auto& entry : dict) keys.push_back(entry.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(dict.erase("b"), 1u);
  EXPECT_THROW(dict.at("b"), c10::Error);
}

TEST(TorchValues, ArrayRefIsTheSpanTensorsHandOut) {
  at::Tensor t = at::zeros({2, 3});
  c10::ArrayRef<int64_t> sizes = t.sizes();
  EXPECT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[1], 3);
}

}  // namespace
