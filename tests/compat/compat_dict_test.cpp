// c10::Dict through compat/torch.h, spelled as PyTorch code spells it: the typed dict's interface
// and copy semantics, dicts in IValues (toGenericDict, printing, equality), `Dict(K, V)` in schemas,
// kernels that take and return dicts called boxed and unboxed, schemas inferred from them, and the
// errors for a wrong key type and for nesting too deep.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <switchyard/compat/torch.h>

#include <sstream>
#include <string>
#include <vector>

#include "backends/devices/accel/accel_test_helpers.h"
#include "test_support.h"

namespace {

using ::testing::HasSubstr;
using sy::testing::errorMessageOf;

std::string printedDict(const c10::IValue& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

TEST(TorchDict, DictKeepsInsertionOrderAndPyTorchsInterface) {
  c10::Dict<std::string, int64_t> dict;
  EXPECT_TRUE(dict.empty());
  EXPECT_TRUE(dict.insert("b", 2).second);
  EXPECT_TRUE(dict.insert("a", 1).second);
  EXPECT_FALSE(dict.insert("b", 20).second);
  EXPECT_EQ(dict.at("b"), 2);  // insert leaves a present key alone
  EXPECT_FALSE(dict.insert_or_assign("a", 10).second);
  EXPECT_TRUE(dict.insert_or_assign("c", 3).second);
  EXPECT_EQ(dict.size(), 3u);
  EXPECT_EQ(dict.at("a"), 10);
  EXPECT_TRUE(dict.contains("b"));
  EXPECT_FALSE(dict.contains("z"));
  std::vector<std::string> keys;
  for (const auto& entry : dict) keys.push_back(entry.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "a", "c"}));  // "a" kept its place when assigned
  EXPECT_EQ(dict.erase("b"), 1u);
  EXPECT_EQ(dict.erase("b"), 0u);
  EXPECT_TRUE(sy::testing::raisesError([&] { dict.at("b"); }, sy::ErrorKind::Index, "the dict has no key 'b'"));
  keys.clear();
  for (const auto& entry : dict) keys.push_back(entry.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(dict.at("c"), 3);  // found after the entries before it moved
}

TEST(TorchDict, FindAndIteratorsYieldEntriesWithKeyAndValue) {
  c10::Dict<std::string, at::Tensor> dict;
  at::Tensor w = at::ones({2});
  dict.insert("w", w);
  dict.insert("b", at::zeros({1}));
  auto it = dict.find("w");
  ASSERT_NE(it, dict.end());
  EXPECT_EQ(it->key(), "w");
  EXPECT_TRUE(it->value().is_same(w));
  EXPECT_EQ(dict.find("missing"), dict.end());
  it->setValue(at::full({3}, 2.0));
  EXPECT_EQ(dict.at("w").numel(), 3);
  dict.erase(dict.find("w"));
  EXPECT_EQ(dict.size(), 1u);
  EXPECT_EQ((*dict.begin()).key(), "b");
  dict.clear();
  EXPECT_EQ(dict.begin(), dict.end());
}

TEST(TorchDict, CopiesShareTheirEntriesAndCopyMakesAnIndependentDict) {
  c10::Dict<std::string, int64_t> dict;
  dict.insert("a", 1);
  c10::Dict<std::string, int64_t> shared = dict;
  shared.insert("b", 2);
  EXPECT_EQ(dict.size(), 2u);
  EXPECT_TRUE(dict.is(shared));
  EXPECT_EQ(dict.use_count(), 2u);
  c10::Dict<std::string, int64_t> independent = dict.copy();
  independent.insert("c", 3);
  EXPECT_EQ(dict.size(), 2u);
  EXPECT_FALSE(dict.is(independent));
  EXPECT_TRUE(dict != independent);
  independent.erase("c");
  EXPECT_TRUE(dict == independent);
}

TEST(TorchDict, KeysMayBeStrIntBoolFloatOrTensorAndTensorsMatchByIdentity) {
  c10::Dict<int64_t, std::string> by_int;
  by_int.insert(7, "seven");
  EXPECT_EQ(by_int.at(7), "seven");
  c10::Dict<bool, double> by_bool;
  by_bool.insert(true, 0.5);
  EXPECT_EQ(by_bool.at(true), 0.5);
  c10::Dict<double, int64_t> by_double;
  by_double.insert(0.0, 1);
  EXPECT_EQ(by_double.at(-0.0), 1);  // equal keys hash alike
  c10::Dict<at::Tensor, int64_t> by_tensor;
  at::Tensor t = at::ones({1});
  by_tensor.insert(t, 1);
  EXPECT_TRUE(by_tensor.contains(t));
  EXPECT_FALSE(by_tensor.contains(at::ones({1})));  // an equal tensor is another key

  c10::impl::GenericDict generic;
  generic.insert(c10::IValue(1), c10::IValue("int key"));
  generic.insert(c10::IValue(1.0), c10::IValue("float key"));  // an int key never matches a float one
  EXPECT_EQ(generic.size(), 2u);
  EXPECT_TRUE(sy::testing::raisesError([&] { generic.insert(c10::IValue(std::vector<int64_t>{1}), c10::IValue()); },
                                       sy::ErrorKind::Type, "a dict key must be a str, int, bool, float or Tensor, not int[]"));
  EXPECT_EQ(generic.size(), 2u);
}

TEST(TorchDict, AnIValueHoldsADictAsAValue) {
  c10::Dict<std::string, int64_t> dict;
  dict.insert("b", 2);
  dict.insert("a", 1);
  c10::IValue boxed = dict;
  ASSERT_TRUE(boxed.isGenericDict());
  EXPECT_EQ(boxed.typeName(), "Dict");
  dict.insert("c", 3);  // boxing copied the entries
  EXPECT_EQ(boxed.toGenericDict().size(), 2u);
  EXPECT_EQ(printedDict(boxed), "{'b': 2, 'a': 1}");
  std::vector<std::string> keys;
  for (const auto& entry : boxed.toGenericDict()) keys.push_back(entry.key().toStringRef());
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(boxed.toGenericDict().at("a").toInt(), 1);

  auto unboxed = boxed.to<c10::Dict<std::string, int64_t>>();
  EXPECT_EQ(unboxed.at("b"), 2);
  // Equal when the same keys map to equal values, whatever the order.
  c10::Dict<std::string, int64_t> reordered;
  reordered.insert("a", 1);
  reordered.insert("b", 2);
  EXPECT_TRUE(boxed == c10::IValue(reordered));
  reordered.insert_or_assign("a", 5);
  EXPECT_FALSE(boxed == c10::IValue(reordered));
  using IntToInt = c10::Dict<int64_t, int64_t>;
  EXPECT_THROW(boxed.to<IntToInt>(), c10::Error);
  EXPECT_THROW(c10::IValue(3).toGenericDict(), c10::Error);
}

TEST(TorchDict, DictValuesMayBeListsAndDicts) {
  c10::Dict<std::string, c10::Dict<int64_t, c10::List<int64_t>>> outer;
  c10::Dict<int64_t, c10::List<int64_t>> inner;
  inner.insert(1, c10::List<int64_t>({1, 2}));
  outer.insert("inner", inner);
  c10::IValue boxed = outer;
  EXPECT_EQ(printedDict(boxed), "{'inner': {1: [1, 2]}}");
  EXPECT_EQ(boxed.to<decltype(outer)>().at("inner").at(1).get(1), 2);
}

TEST(TorchDict, SchemasSpellDictTypes) {
  const auto schema = sy::parseSchema(
      "compat_dict::f(Dict(str, Tensor) weights, Dict(int, float)? scales=None) -> Dict(str, Tensor[])");
  EXPECT_EQ(schema.toString(),
            "compat_dict::f(Dict(str, Tensor) weights, Dict(int, float)? scales=None) -> Dict(str, Tensor[])");
  EXPECT_EQ(schema.arguments()[0].type->key()->str(), "str");
  EXPECT_EQ(schema.arguments()[0].type->element()->str(), "Tensor");
  EXPECT_EQ(schema.tensorArgumentMask(), 0u);  // as in PyTorch, dispatch keys never come from a dict
  EXPECT_EQ(sy::parseSchema("t::g(Dict(str, Dict(int, bool))[] x) -> ()").arguments()[0].type->str(),
            "Dict(str, Dict(int, bool))[]");
  auto parseError = [](const std::string& text) { return errorMessageOf([&] { sy::parseSchema(text); }); };
  EXPECT_THAT(parseError("t::f(Dict(int[], Tensor) x) -> ()"),
              HasSubstr("a Dict's key type must be str, int, bool, float or Tensor, not 'int[]'"));
  EXPECT_THAT(parseError("t::f(Dict(str, Tensor(a!)) x) -> ()"), HasSubstr("a Dict's value type takes no alias"));
  EXPECT_THAT(parseError("t::f(Dict(str Tensor) x) -> ()"), HasSubstr("',' between a Dict's key and value types"));
  EXPECT_THAT(parseError("t::f(Dict(str, Tensor)) -> ()"), HasSubstr("an argument name"));
  std::string deep = "t::f(";
  for (int i = 0; i < 100000; ++i) deep += "Dict(str, ";
  EXPECT_THAT(parseError(deep), HasSubstr("Dict types are nested too deeply (at most 16)"));
}

at::Tensor dictSumValues(const at::Tensor& self, c10::Dict<std::string, at::Tensor> d) {
  double sum = self.item<double>();
  for (const auto& entry : d) sum += entry.value().item<double>();
  return at::full({1}, sum);
}

c10::Dict<std::string, at::Tensor> dictSplit(const at::Tensor& self) {
  c10::Dict<std::string, at::Tensor> halves;
  halves.insert("half", at::full({1}, self.item<double>() / 2));
  halves.insert("twice", at::full({1}, self.item<double>() * 2));
  return halves;
}

c10::Dict<std::string, at::Tensor> dictScaled(c10::Dict<std::string, at::Tensor> weights, double factor) {
  c10::Dict<std::string, at::Tensor> scaled;
  for (const auto& entry : weights) scaled.insert(entry.key(), at::full({1}, entry.value().item<double>() * factor));
  return scaled;
}

std::vector<std::string> dict_fallback_saw;
void dictReadingFallback(const c10::OperatorHandle& op, c10::DispatchKeySet ks, torch::jit::Stack* stack) {
  // Reading the stack boxes the caller's dict; the CPU kernel then unboxes it again.
  for (const c10::IValue& v : *stack) {
    if (v.isGenericDict()) dict_fallback_saw.push_back(printedDict(v.toGenericDict().at("x")));
  }
  op.redispatchBoxed(ks.remove(c10::DispatchKey::PrivateUse3), stack);
}

c10::OperatorHandle dictOp(const char* name) { return c10::Dispatcher::singleton().findSchemaOrThrow(name, ""); }

TEST(TorchDict, AKernelTakingAndReturningDictsWorksBoxedAndUnboxed) {
  auto def = MAKE_TORCH_LIBRARY(compat_dict);
  def.def("sum_values(Tensor self, Dict(str, Tensor) d) -> Tensor");
  def.def("split(Tensor self) -> Dict(str, Tensor)");
  auto cpu = MAKE_TORCH_LIBRARY_IMPL(compat_dict, CPU);
  cpu.impl("sum_values", &dictSumValues);
  cpu.impl("split", TORCH_FN(dictSplit));

  c10::Dict<std::string, at::Tensor> d;
  d.insert("x", at::full({1}, 2.0));
  d.insert("y", at::full({1}, 3.0));
  auto sum = dictOp("compat_dict::sum_values").typed<at::Tensor(const at::Tensor&, c10::Dict<std::string, at::Tensor>)>();
  EXPECT_EQ(sum.call(at::ones({1}), d).item<double>(), 6);

  torch::jit::Stack stack;
  torch::jit::push(stack, at::ones({1}), d);
  dictOp("compat_dict::sum_values").callBoxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(torch::jit::pop(stack).toTensor().item<double>(), 6);

  auto split = dictOp("compat_dict::split").typed<c10::Dict<std::string, at::Tensor>(const at::Tensor&)>();
  auto halves = split.call(at::full({1}, 8.0));
  EXPECT_EQ(halves.at("half").item<double>(), 4);
  EXPECT_EQ(halves.at("twice").item<double>(), 16);
  torch::jit::push(stack, at::full({1}, 8.0));
  dictOp("compat_dict::split").callBoxed(&stack);
  const c10::IValue result = torch::jit::pop(stack);
  ASSERT_TRUE(result.isGenericDict());
  EXPECT_EQ(result.toGenericDict().entry(0).key().toStringRef(), "half");

  // Through a boxed fallback that reads its arguments, then back to the unboxed kernel.
  auto fallback = MAKE_TORCH_LIBRARY_IMPL(_, PrivateUse3);
  fallback.fallback(torch::CppFunction::makeFromBoxedFunction<&dictReadingFallback>());
  at::Tensor self = at::ones({1});
  self.unsafeGetTensorImpl()->set_key_set({c10::DispatchKey::CPU, c10::DispatchKey::PrivateUse3});
  dict_fallback_saw.clear();
  EXPECT_EQ(sum.call(self, d).item<double>(), 6);
  ASSERT_EQ(dict_fallback_saw.size(), 1u);
  EXPECT_THAT(dict_fallback_saw[0], HasSubstr("2"));
  EXPECT_EQ(split.call(self).at("half").item<double>(), 0.5);
}

TEST(TorchDict, DefWithANameInfersDictTypes) {
  auto m = MAKE_TORCH_LIBRARY(compat_dict_infer);
  m.def("scaled", &dictScaled);
  EXPECT_EQ(dictOp("compat_dict_infer::scaled").schema().toString(),
            "compat_dict_infer::scaled(Dict(str, Tensor) _0, float _1) -> Dict(str, Tensor)");
  c10::Dict<std::string, at::Tensor> weights;
  weights.insert("w", at::full({1}, 3.0));
  torch::jit::Stack stack{weights, 2.0};
  dictOp("compat_dict_infer::scaled").callBoxed(&stack);
  using Weights = c10::Dict<std::string, at::Tensor>;
  EXPECT_EQ(torch::jit::pop(stack).to<Weights>().at("w").item<double>(), 6);
}

TEST(TorchDict, AWrongKeyTypeInABoxedCallNamesTheOperatorAndTheArgument) {
  auto def = MAKE_TORCH_LIBRARY(compat_dict_keys);
  def.def("sum_values(Tensor self, Dict(str, Tensor) d) -> Tensor");
  auto cpu = MAKE_TORCH_LIBRARY_IMPL(compat_dict_keys, CPU);
  cpu.impl("sum_values", &dictSumValues);

  c10::Dict<int64_t, at::Tensor> wrong_keys;
  wrong_keys.insert(3, at::ones({1}));
  torch::jit::Stack stack{at::ones({1}), wrong_keys};
  const std::string error = errorMessageOf([&] { dictOp("compat_dict_keys::sum_values").callBoxed(&stack); });
  EXPECT_THAT(error, HasSubstr("compat_dict_keys::sum_values: argument 'd' (position 1) must be Dict(str, Tensor)"));
  EXPECT_THAT(error, HasSubstr("whose key 3 is a int"));
  EXPECT_TRUE(sy::testing::raisesError([&] { dictOp("compat_dict_keys::sum_values").callBoxed(&stack); },
                                       sy::ErrorKind::Type, "must be Dict(str, Tensor)"));

  c10::Dict<std::string, int64_t> wrong_values;
  wrong_values.insert("x", 1);
  torch::jit::Stack stack2{at::ones({1}), wrong_values};
  EXPECT_THAT(errorMessageOf([&] { dictOp("compat_dict_keys::sum_values").callBoxed(&stack2); }),
              HasSubstr("whose value for key 'x' is a int"));
}

at::Tensor dictCpuOnlyTotal(const at::Tensor& self, c10::Dict<std::string, at::Tensor> d) {
  TORCH_CHECK(self.is_cpu(), "dictCpuOnlyTotal: self is not on the CPU");
  double sum = self.item<double>();
  for (const auto& entry : d) {
    TORCH_CHECK(entry.value().is_cpu(), "dictCpuOnlyTotal: the value of '", entry.key(), "' is not on the CPU");
    sum += entry.value().item<double>();
  }
  return at::full({1}, sum);
}

TEST(TorchDict, TheAccelCpuFallbackMovesTheTensorsInADictToTheCpu) {
  auto def = MAKE_TORCH_LIBRARY(compat_dict_accel);
  def.def("total(Tensor self, Dict(str, Tensor) d) -> Tensor");
  auto cpu = MAKE_TORCH_LIBRARY_IMPL(compat_dict_accel, CPU);
  cpu.impl("total", &dictCpuOnlyTotal);
  c10::Dict<std::string, at::Tensor> d;
  at::Tensor on_accel = sy::testing::onAccel(at::full({1}, 2.0));
  d.insert("x", on_accel);
  auto total = dictOp("compat_dict_accel::total").typed<at::Tensor(const at::Tensor&, c10::Dict<std::string, at::Tensor>)>();
  at::Tensor result = total.call(sy::testing::onAccel(at::ones({1})), d);
  EXPECT_TRUE(sy::testing::sameAsCpu(result, at::full({1}, 3.0)));
  EXPECT_TRUE(d.at("x").is_same(on_accel));  // the caller's dict still holds its own tensor
}

TEST(TorchDict, DictsNestedBeyondTheBoundAreRefused) {
  c10::IValue v(int64_t{1});
  int built = 0;
  std::string error;
  try {
    for (; built < 2000; ++built) {
      c10::impl::GenericDict one;
      one.insert(c10::IValue("k"), v);
      v = c10::IValue(std::move(one));
    }
  } catch (const c10::Error& e) {
    error = e.what();
  }
  EXPECT_EQ(built, 1000);
  EXPECT_THAT(error, HasSubstr("a dict nested 1001 levels deep is too deep (at most 1000)"));
  // Lists count the dicts inside them, and dicts the lists.
  EXPECT_THAT(errorMessageOf([&] { c10::IValue(std::vector<c10::IValue>{v}); }), HasSubstr("too deep"));
  EXPECT_TRUE(v == c10::IValue(v));
}

}  // namespace
