// Boxed and unboxed kernels, called boxed and unboxed, and every supported argument and return
// type round-tripping through boxing (see Note [Out arguments come back as the caller's own object]).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "switchyard/switchyard.h"

namespace {

using sy::DispatchKey;
using sy::DispatchKeySet;
using sy::IValue;
using sy::Library;
using sy::OperatorHandle;
using sy::Stack;
using sy::Tensor;
using ::testing::HasSubstr;

SY_LIBRARY(boxing_test, m) {
  m.def("none(Tensor self) -> ()");
  m.def("one(Tensor self) -> Tensor");
  m.def("two(Tensor self) -> (Tensor, Tensor)");
  m.def("out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("inplace(Tensor(a!) self) -> Tensor(a!)");
  m.def("two_outs(Tensor self, *, Tensor(a!) a, Tensor(b!) b) -> (Tensor(a!), Tensor(b!))");
  m.def("everything(Tensor t, Tensor? maybe_t, int i, SymInt si, float f, bool b, str s, Scalar sc, "
        "ScalarType st, Device d, Layout l, MemoryFormat mf, int[] ints, float[] floats, bool[] bools, "
        "Tensor[] tensors, int? maybe_i, int[]? maybe_ints) -> Tensor");
  m.def("scalars(Tensor self) -> (int, float, bool)");
  m.def("list_return(Tensor self) -> Tensor[]");
}

sy::OperatorHandle boxingHandle(const char* name) {
  return sy::Dispatcher::singleton().findSchemaOrThrow(std::string("boxing_test::") + name, "");
}

// ---- Unboxed kernels -------------------------------------------------------------------------

int none_calls = 0;
void noneKernel(const Tensor&) { ++none_calls; }
Tensor oneKernel(const Tensor& self) { return sy::full({1}, self.item<double>() + 1); }
std::tuple<Tensor, Tensor> twoKernel(const Tensor& self) { return {oneKernel(self), oneKernel(oneKernel(self))}; }
Tensor& outKernel(const Tensor& self, Tensor& out) {
  out.resize_({1});
  out.data_ptr<float>()[0] = self.item<float>() * 2;
  return out;
}
Tensor& inplaceKernel(Tensor& self) {
  self.data_ptr<float>()[0] += 1;
  return self;
}
std::tuple<Tensor&, Tensor&> twoOutsKernel(const Tensor& self, Tensor& a, Tensor& b) {
  outKernel(self, a);
  outKernel(a, b);
  return {a, b};
}

SY_LIBRARY_IMPL(boxing_test, CPU, m) {
  m.impl("none", &noneKernel);
  m.impl("one", SY_FN(oneKernel));
  m.impl("two", &twoKernel);
  m.impl("out", &outKernel);
  m.impl("inplace", &inplaceKernel);
  m.impl("two_outs", &twoOutsKernel);
}

TEST(UnboxedKernel, CalledUnboxedWithNoReturn) {
  none_calls = 0;
  boxingHandle("none").typed<void(const Tensor&)>().call(sy::zeros({1}));
  EXPECT_EQ(none_calls, 1);
}

TEST(UnboxedKernel, CalledBoxedWithNoReturnLeavesAnEmptyStack) {
  none_calls = 0;
  Stack stack{sy::zeros({1})};
  boxingHandle("none").callBoxed(&stack);
  EXPECT_EQ(none_calls, 1);
  EXPECT_TRUE(stack.empty());
}

TEST(UnboxedKernel, CalledUnboxedWithOneReturn) {
  EXPECT_EQ(boxingHandle("one").typed<Tensor(const Tensor&)>().call(sy::full({1}, 4.0)).item<double>(), 5);
}

TEST(UnboxedKernel, CalledBoxedWithOneReturn) {
  Stack stack{sy::full({1}, 4.0)};
  boxingHandle("one").callBoxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].toTensor().item<double>(), 5);
}

TEST(UnboxedKernel, CalledUnboxedWithSeveralReturns) {
  auto [a, b] = boxingHandle("two").typed<std::tuple<Tensor, Tensor>(const Tensor&)>().call(sy::full({1}, 1.0));
  EXPECT_EQ(a.item<double>(), 2);
  EXPECT_EQ(b.item<double>(), 3);
}

TEST(UnboxedKernel, CalledBoxedWithSeveralReturnsPushesThemInOrder) {
  Stack stack{sy::full({1}, 1.0)};
  boxingHandle("two").callBoxed(&stack);
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_EQ(stack[0].toTensor().item<double>(), 2);
  EXPECT_EQ(stack[1].toTensor().item<double>(), 3);
}

TEST(UnboxedKernel, OutCallReturnsTheCallersOwnObject) {
  Tensor self = sy::full({1}, 3.0);
  Tensor out = sy::empty({0});
  Tensor& result = boxingHandle("out").typed<Tensor&(const Tensor&, Tensor&)>().call(self, out);
  EXPECT_EQ(&result, &out);
  EXPECT_EQ(out.item<double>(), 6);
}

TEST(UnboxedKernel, InPlaceCallReturnsTheCallersOwnObject) {
  Tensor self = sy::full({1}, 3.0);
  Tensor& result = boxingHandle("inplace").typed<Tensor&(Tensor&)>().call(self);
  EXPECT_EQ(&result, &self);
  EXPECT_EQ(self.item<double>(), 4);
}

TEST(UnboxedKernel, CalledBoxedTheOutResultIsTheSameTensor) {
  Tensor out = sy::empty({0});
  Stack stack{sy::full({1}, 3.0), out};
  boxingHandle("out").callBoxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_TRUE(stack[0].toTensor().is_same(out));
  EXPECT_EQ(out.item<double>(), 6);
}

TEST(UnboxedKernel, SeveralOutArgumentsComeBackAsTheCallersObjects) {
  Tensor a = sy::empty({0});
  Tensor b = sy::empty({0});
  auto result = boxingHandle("two_outs")
                    .typed<std::tuple<Tensor&, Tensor&>(const Tensor&, Tensor&, Tensor&)>()
                    .call(sy::full({1}, 1.0), a, b);
  EXPECT_EQ(&std::get<0>(result), &a);
  EXPECT_EQ(&std::get<1>(result), &b);
  EXPECT_EQ(b.item<double>(), 4);
}

// ---- Boxed kernels (as a backend would register them) -------------------------------------------

// A boxed kernel for every boxing_test op on PrivateUse1: runs the CPU kernel below it, then adds
// 100 to every fresh tensor result (so the tests can tell it ran).
void boxedPlus100(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  op.redispatchBoxed(ks.remove(DispatchKey::PrivateUse1), stack);
  const auto& returns = op.schema().returns();
  for (size_t i = 0; i < returns.size(); ++i) {
    IValue& v = sy::peek(*stack, i, returns.size());
    if (v.isTensor() && !returns[i].alias_info) v = sy::full({1}, v.toTensor().item<double>() + 100);
  }
}

class BoxedKernel : public ::testing::Test {
 protected:
  Tensor onPrivateUse1(double v) {
    Tensor t = sy::full({1}, v);
    t.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse1});
    return t;
  }
  Library fallback_{Library::Impl, "_", DispatchKey::PrivateUse1};
  void SetUp() override { fallback_.fallback(sy::CppFunction::makeFromBoxedFunction<&boxedPlus100>()); }
};

TEST_F(BoxedKernel, CalledUnboxedWithNoReturn) {
  none_calls = 0;
  boxingHandle("none").typed<void(const Tensor&)>().call(onPrivateUse1(1));
  EXPECT_EQ(none_calls, 1);
}

TEST_F(BoxedKernel, CalledUnboxedWithOneReturn) {
  EXPECT_EQ(boxingHandle("one").typed<Tensor(const Tensor&)>().call(onPrivateUse1(1)).item<double>(), 102);
}

TEST_F(BoxedKernel, CalledUnboxedWithSeveralReturns) {
  auto [a, b] = boxingHandle("two").typed<std::tuple<Tensor, Tensor>(const Tensor&)>().call(onPrivateUse1(1));
  EXPECT_EQ(a.item<double>(), 102);
  EXPECT_EQ(b.item<double>(), 103);
}

TEST_F(BoxedKernel, CalledBoxedWithOneReturn) {
  Stack stack{onPrivateUse1(1)};
  boxingHandle("one").callBoxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].toTensor().item<double>(), 102);
}

TEST_F(BoxedKernel, OutCallReturnsTheCallersOwnObject) {
  Tensor out = onPrivateUse1(0);
  Tensor& result = boxingHandle("out").typed<Tensor&(const Tensor&, Tensor&)>().call(onPrivateUse1(3), out);
  EXPECT_EQ(&result, &out);
  EXPECT_EQ(out.item<double>(), 6);
}

TEST_F(BoxedKernel, InPlaceCallReturnsTheCallersOwnObject) {
  Tensor self = onPrivateUse1(3);
  Tensor& result = boxingHandle("inplace").typed<Tensor&(Tensor&)>().call(self);
  EXPECT_EQ(&result, &self);
  EXPECT_EQ(self.item<double>(), 4);
}

TEST_F(BoxedKernel, SeveralOutArgumentsComeBackAsTheCallersObjects) {
  Tensor a = onPrivateUse1(0);
  Tensor b = onPrivateUse1(0);
  auto result = boxingHandle("two_outs")
                    .typed<std::tuple<Tensor&, Tensor&>(const Tensor&, Tensor&, Tensor&)>()
                    .call(onPrivateUse1(1), a, b);
  EXPECT_EQ(&std::get<0>(result), &a);
  EXPECT_EQ(&std::get<1>(result), &b);
}

void rebindOut(const OperatorHandle&, Stack* stack) {
  sy::drop(*stack, 2);
  stack->emplace_back(sy::zeros({1}));  // a new TensorImpl instead of the caller's out
}

TEST(BoxedKernelErrors, RebindingAnOutArgumentIsAnError) {
  Library fallback(Library::Impl, "_", DispatchKey::PrivateUse2);
  fallback.fallback(sy::CppFunction::makeFromBoxedFunction<&rebindOut>());
  Tensor self = sy::zeros({1});
  self.unsafeGetTensorImpl()->set_key_set(DispatchKey::PrivateUse2);
  Tensor out = sy::zeros({1});
  try {
    boxingHandle("out").typed<Tensor&(const Tensor&, Tensor&)>().call(self, out);
    FAIL() << "expected an error";
  } catch (const sy::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "the boxed kernel for boxing_test::out on dispatch key PrivateUse2 returned (as return 0) a different "
              "tensor than argument 'out' (Tensor(a!)) it was given. A kernel may resize and write an out or in-place "
              "argument, but must return that same tensor, not rebind it to a new TensorImpl.");
  }
}

TEST(BoxedKernelErrors, LeavingTheWrongNumberOfResultsIsAnError) {
  Library fallback(Library::Impl, "_", DispatchKey::PrivateUse2);
  fallback.fallback(sy::CppFunction::makeFromBoxedLambda([](const OperatorHandle&, Stack* stack) { stack->clear(); }));
  Tensor self = sy::zeros({1});
  self.unsafeGetTensorImpl()->set_key_set(DispatchKey::PrivateUse2);
  EXPECT_THROW(
      {
        try {
          boxingHandle("one").typed<Tensor(const Tensor&)>().call(self);
        } catch (const sy::Error& e) {
          EXPECT_STREQ(e.what(),
                       "the boxed kernel for boxing_test::one on dispatch key PrivateUse2 left 0 value(s) on the "
                       "stack, but the operator returns 1");
          throw;
        }
      },
      sy::Error);
}

// ---- Every argument and return type round-trips -------------------------------------------------

struct SeenArguments {
  std::optional<Tensor> maybe_t;
  int64_t i = 0, si = 0;
  double f = 0;
  bool b = false;
  std::string s;
  sy::Scalar sc;
  sy::ScalarType st = sy::ScalarType::Undefined;
  sy::Device d;
  sy::Layout l = sy::Layout::Strided;
  sy::MemoryFormat mf = sy::MemoryFormat::Contiguous;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::vector<bool> bools;
  std::vector<Tensor> tensors;
  std::optional<int64_t> maybe_i;
  std::optional<std::vector<int64_t>> maybe_ints;
};
SeenArguments seen;

Tensor everythingKernel(const Tensor& t, const std::optional<Tensor>& maybe_t, int64_t i, int64_t si, double f,
                        bool b, std::string_view s, const sy::Scalar& sc, sy::ScalarType st, sy::Device d,
                        sy::Layout l, sy::MemoryFormat mf, sy::IntArrayRef ints, const std::vector<double>& floats,
                        const std::vector<bool>& bools, sy::TensorList tensors, std::optional<int64_t> maybe_i,
                        std::optional<sy::IntArrayRef> maybe_ints) {
  seen = SeenArguments{maybe_t, i, si, f, b, std::string(s), sc, st, d, l, mf,
                       std::vector<int64_t>(ints.begin(), ints.end()), floats, bools,
                       std::vector<Tensor>(tensors.begin(), tensors.end()), maybe_i, std::nullopt};
  if (maybe_ints) seen.maybe_ints = std::vector<int64_t>(maybe_ints->begin(), maybe_ints->end());
  return t;
}

using EverythingSignature =
    Tensor(const Tensor&, const std::optional<Tensor>&, int64_t, int64_t, double, bool, std::string_view,
           const sy::Scalar&, sy::ScalarType, sy::Device, sy::Layout, sy::MemoryFormat, sy::IntArrayRef,
           const std::vector<double>&, const std::vector<bool>&, sy::TensorList, std::optional<int64_t>,
           std::optional<sy::IntArrayRef>);

// How the arguments travel from the unboxed caller to the unboxed CPU kernel.
enum class Route {
  Direct,              // no boxed kernel in between
  ForwardingFallback,  // a fallback that redispatches untouched arguments (see Note [Deferred boxing])
  ReadingFallback,     // a fallback that reads them first: boxed by the caller, unboxed for the kernel
};

class ArgumentRoundTrip : public ::testing::TestWithParam<Route> {
 protected:
  ArgumentRoundTrip() {
    cpu_.impl("everything", &everythingKernel);
    if (GetParam() == Route::ForwardingFallback) {
      fallback_.fallback(sy::CppFunction::makeFromBoxedLambda([](const OperatorHandle& op, DispatchKeySet ks, Stack* s) {
        op.redispatchBoxed(ks.remove(DispatchKey::PrivateUse3), s);
      }));
    } else if (GetParam() == Route::ReadingFallback) {
      fallback_.fallback(sy::CppFunction::makeFromBoxedLambda([](const OperatorHandle& op, DispatchKeySet ks, Stack* s) {
        for (const IValue& argument : std::as_const(*s)) EXPECT_FALSE(argument.typeName().empty());
        EXPECT_FALSE(s->hasDeferredArguments());
        op.redispatchBoxed(ks.remove(DispatchKey::PrivateUse3), s);
      }));
    }
  }
  // Carries PrivateUse3 only when a fallback is registered.
  Tensor argumentTensor() {
    Tensor t = sy::zeros({1});
    if (GetParam() != Route::Direct) t.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse3});
    return t;
  }
  Library cpu_{Library::Impl, "boxing_test", DispatchKey::CPU};
  Library fallback_{Library::Impl, "_", DispatchKey::PrivateUse3};
};

TEST_P(ArgumentRoundTrip, EverySupportedArgumentTypeArrivesIntact) {
  Tensor t = argumentTensor();
  Tensor listed = sy::ones({2});
  std::vector<Tensor> tensors{listed};
  std::vector<int64_t> ints{1, -2, 3};
  std::vector<int64_t> maybe_ints{7};
  Tensor result = boxingHandle("everything")
                      .typed<EverythingSignature>()
                      .call(t, std::optional<Tensor>(listed), 5, 6, 2.5, true, "text", sy::Scalar(1.5),
                            sy::ScalarType::Long, sy::Device(sy::DeviceType::PrivateUse1, 2), sy::Layout::Strided,
                            sy::MemoryFormat::ChannelsLast, ints, {0.5, 1.5}, {true, false}, tensors, 9,
                            sy::IntArrayRef(maybe_ints));
  EXPECT_TRUE(result.is_same(t));
  ASSERT_TRUE(seen.maybe_t.has_value());
  EXPECT_TRUE(seen.maybe_t->is_same(listed));
  EXPECT_EQ(seen.i, 5);
  EXPECT_EQ(seen.si, 6);
  EXPECT_EQ(seen.f, 2.5);
  EXPECT_TRUE(seen.b);
  EXPECT_EQ(seen.s, "text");
  EXPECT_EQ(seen.sc, sy::Scalar(1.5));
  EXPECT_EQ(seen.st, sy::ScalarType::Long);
  EXPECT_EQ(seen.d, sy::Device(sy::DeviceType::PrivateUse1, 2));
  EXPECT_EQ(seen.l, sy::Layout::Strided);
  EXPECT_EQ(seen.mf, sy::MemoryFormat::ChannelsLast);
  EXPECT_EQ(seen.ints, ints);
  EXPECT_EQ(seen.floats, (std::vector<double>{0.5, 1.5}));
  EXPECT_EQ(seen.bools, (std::vector<bool>{true, false}));
  ASSERT_EQ(seen.tensors.size(), 1u);
  EXPECT_TRUE(seen.tensors[0].is_same(listed));
  EXPECT_EQ(seen.maybe_i, std::optional<int64_t>(9));
  EXPECT_EQ(seen.maybe_ints, std::optional<std::vector<int64_t>>(maybe_ints));
}

TEST_P(ArgumentRoundTrip, OptionalArgumentsArriveAsNone) {
  Tensor t = argumentTensor();
  boxingHandle("everything")
      .typed<EverythingSignature>()
      .call(t, std::nullopt, 0, 0, 0, false, "", sy::Scalar(int64_t{3}), sy::ScalarType::Bool, sy::kCPU,
            sy::Layout::Strided, sy::MemoryFormat::Contiguous, {}, {}, {}, {}, std::nullopt, std::nullopt);
  EXPECT_FALSE(seen.maybe_t.has_value());
  EXPECT_FALSE(seen.maybe_i.has_value());
  EXPECT_FALSE(seen.maybe_ints.has_value());
  EXPECT_EQ(seen.sc, sy::Scalar(int64_t{3}));
}

INSTANTIATE_TEST_SUITE_P(UnboxedAndBoxed, ArgumentRoundTrip,
                         ::testing::Values(Route::Direct, Route::ForwardingFallback, Route::ReadingFallback),
                         [](const auto& info) {
                           switch (info.param) {
                             case Route::Direct: return "Direct";
                             case Route::ForwardingFallback: return "ThroughForwardingFallback";
                             case Route::ReadingFallback: return "ThroughReadingFallback";
                           }
                           return "";
                         });

std::tuple<int64_t, double, bool> scalarsKernel(const Tensor&) { return {7, 0.25, true}; }
std::vector<Tensor> listKernel(const Tensor& self) { return {self, self}; }

TEST(ReturnRoundTrip, ScalarReturnsSurviveBoxing) {
  Library cpu(Library::Impl, "boxing_test", DispatchKey::CPU);
  cpu.impl("scalars", &scalarsKernel);
  Library boxed(Library::Impl, "_", DispatchKey::PrivateUse3);
  boxed.fallback(sy::CppFunction::makeFromBoxedLambda([](const OperatorHandle& op, DispatchKeySet ks, Stack* s) {
    op.redispatchBoxed(ks.remove(DispatchKey::PrivateUse3), s);
  }));
  Tensor t = sy::zeros({1});
  t.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse3});
  auto [i, f, b] = boxingHandle("scalars").typed<std::tuple<int64_t, double, bool>(const Tensor&)>().call(t);
  EXPECT_EQ(i, 7);
  EXPECT_EQ(f, 0.25);
  EXPECT_TRUE(b);
}

TEST(ReturnRoundTrip, TensorListReturnSurvivesBoxing) {
  Library cpu(Library::Impl, "boxing_test", DispatchKey::CPU);
  cpu.impl("list_return", &listKernel);
  Library boxed(Library::Impl, "_", DispatchKey::PrivateUse3);
  boxed.fallback(sy::CppFunction::makeFromBoxedLambda([](const OperatorHandle& op, DispatchKeySet ks, Stack* s) {
    op.redispatchBoxed(ks.remove(DispatchKey::PrivateUse3), s);
  }));
  Tensor t = sy::zeros({1});
  t.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse3});
  std::vector<Tensor> result = boxingHandle("list_return").typed<std::vector<Tensor>(const Tensor&)>().call(t);
  ASSERT_EQ(result.size(), 2u);
  EXPECT_TRUE(result[1].is_same(t));
}

// ---- Malformed boxed calls -----------------------------------------------------------------------

TEST(BoxedCallErrors, TooFewArgumentsOnTheStack) {
  Stack stack{sy::zeros({1})};
  try {
    boxingHandle("out").callBoxed(&stack);
    FAIL();
  } catch (const sy::Error& e) {
    EXPECT_STREQ(e.what(),
                 "boxing_test::out expects 2 arguments on the stack but the stack holds 1 value(s); schema: "
                 "boxing_test::out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  }
}

TEST(BoxedCallErrors, ArgumentOfTheWrongType) {
  Stack stack{sy::zeros({1}), IValue(int64_t{3})};
  try {
    boxingHandle("out").callBoxed(&stack);
    FAIL();
  } catch (const sy::Error& e) {
    EXPECT_STREQ(e.what(),
                 "boxing_test::out: argument 'out' (position 1) must be Tensor but the stack holds a value of type "
                 "int; schema: boxing_test::out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  }
}

TEST(BoxedCallErrors, WrongTypeLeavesTheStackAsItWas) {
  Stack stack{sy::zeros({1}), IValue("not a tensor")};
  EXPECT_THROW(boxingHandle("out").callBoxed(&stack), sy::Error);
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_TRUE(stack[1].isString());
}

}  // namespace
