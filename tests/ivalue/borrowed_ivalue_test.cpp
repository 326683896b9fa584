// Borrowed IValues (see Note [Borrowed IValues], ivalue/ivalue.h): an unboxed call that reaches a boxed
// kernel boxes its tensors and int lists without references of their own, and nothing a boxed
// kernel can do with its stack lets a borrowed value outlive the call.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using sy::DispatchKey;
using sy::IValue;
using sy::kBorrowed;
using sy::kMutablyBorrowed;
using sy::Library;
using sy::OperatorHandle;
using sy::Stack;
using sy::Tensor;
using sy::testing::errorMessageOf;

// ---- IValue --------------------------------------------------------------------------------------

TEST(BorrowedTensor, ReadsTheCallersObjectWithoutAReference) {
  Tensor t = sy::zeros({2});
  const IValue v(kBorrowed, t);
  EXPECT_TRUE(v.isBorrowed());
  EXPECT_EQ(&v.toTensor(), &t);
  EXPECT_EQ(t.use_count(), 1u);
}

TEST(BorrowedTensor, DestroyingItReleasesNothing) {
  Tensor t = sy::zeros({2});
  { IValue v(kBorrowed, t); }
  EXPECT_EQ(t.use_count(), 1u);
}

TEST(BorrowedTensor, CopyOwnsAReferenceThatOutlivesTheCaller) {
  Tensor t = sy::full({1}, 7.0);
  IValue v(kBorrowed, t);
  IValue copy(v);
  EXPECT_FALSE(copy.isBorrowed());
  EXPECT_EQ(t.use_count(), 2u);
  t = Tensor();
  EXPECT_EQ(copy.toTensor().item<double>(), 7.0);
}

TEST(BorrowedTensor, MovingItOutMakesItOwned) {
  Tensor t = sy::zeros({1});
  IValue v(kBorrowed, t);
  IValue moved(std::move(v));
  EXPECT_FALSE(moved.isBorrowed());
  EXPECT_TRUE(moved.toTensor().is_same(t));
  EXPECT_EQ(t.use_count(), 2u);
}

TEST(BorrowedTensor, MoveAssigningItOutMakesItOwned) {
  Tensor t = sy::zeros({1});
  IValue v(kBorrowed, t);
  IValue target;
  target = std::move(v);
  EXPECT_FALSE(target.isBorrowed());
  EXPECT_EQ(t.use_count(), 2u);
}

TEST(BorrowedTensor, RvalueToTensorReturnsANewReference) {
  Tensor t = sy::zeros({1});
  IValue v(kBorrowed, t);
  Tensor taken = std::move(v).toTensor();
  EXPECT_TRUE(taken.is_same(t));
  EXPECT_EQ(t.use_count(), 2u);
}

TEST(BorrowedTensor, MutableAccessToAReadOnlyBorrowRebindsOnlyTheSlot) {
  Tensor caller = sy::zeros({1});
  Tensor replacement = sy::ones({1});
  IValue v(kBorrowed, caller);
  v.toTensor() = replacement;
  EXPECT_FALSE(v.isBorrowed());
  EXPECT_TRUE(v.toTensor().is_same(replacement));
  EXPECT_EQ(caller.use_count(), 1u);
  EXPECT_EQ(caller.item<double>(), 0.0);
}

TEST(BorrowedTensor, MutableBorrowHandsOutTheCallersObject) {
  Tensor caller = sy::zeros({1});
  IValue v(kMutablyBorrowed, caller);
  EXPECT_EQ(&v.toTensor(), &caller);
  EXPECT_TRUE(v.isBorrowed());
  EXPECT_EQ(caller.use_count(), 1u);
}

TEST(BorrowedTensor, SwapMakesBothSidesOwned) {
  Tensor t = sy::zeros({1});
  IValue slot(kBorrowed, t);
  IValue local;
  local.swap(slot);
  EXPECT_FALSE(local.isBorrowed());
  EXPECT_TRUE(local.toTensor().is_same(t));
  EXPECT_EQ(t.use_count(), 2u);
}

TEST(BorrowedTensor, ComparesAndPrintsLikeAnOwnedOne) {
  Tensor t = sy::zeros({1});
  const IValue borrowed(kBorrowed, t);
  const IValue owned(t);
  EXPECT_EQ(borrowed, owned);
  EXPECT_EQ(borrowed.typeName(), "Tensor");
}

TEST(BorrowedTensor, UndefinedTensorCanBeBorrowedAndCopied) {
  Tensor undefined;
  IValue v(kBorrowed, undefined);
  IValue copy(v);
  EXPECT_FALSE(copy.toTensor().defined());
}

// The two results the unboxed-to-boxed bridge takes without a full conversion.
TEST(BridgeResults, OnlyATensorReferenceIsAnOwnedTensor) {
  Tensor t = sy::zeros({1});
  EXPECT_TRUE(IValue(t).isOwnedTensor());
  EXPECT_FALSE(IValue(kBorrowed, t).isOwnedTensor());
  EXPECT_FALSE(IValue(kMutablyBorrowed, t).isOwnedTensor());
  EXPECT_FALSE(IValue(int64_t{1}).isOwnedTensor());
  EXPECT_FALSE(IValue().isOwnedTensor());
}

TEST(BridgeResults, MovingTheOwnedTensorOutLeavesAnUndefinedOne) {
  Tensor t = sy::zeros({1});
  IValue v(t);
  Tensor moved = v.moveOwnedTensor();
  EXPECT_TRUE(moved.is_same(t));
  EXPECT_EQ(t.use_count(), 2u);
  EXPECT_FALSE(std::as_const(v).toTensor().defined());
}

TEST(BridgeResults, AMutableBorrowIsOfTheObjectItWasMadeFrom) {
  Tensor t = sy::zeros({1});
  Tensor same_impl = t;
  EXPECT_TRUE(IValue(kMutablyBorrowed, t).isMutableBorrowOf(t));
  EXPECT_FALSE(IValue(kMutablyBorrowed, t).isMutableBorrowOf(same_impl));
  EXPECT_FALSE(IValue(kBorrowed, t).isMutableBorrowOf(t));
  EXPECT_FALSE(IValue(t).isMutableBorrowOf(t));
}

TEST(BorrowedIntList, ReadsTheCallersArray) {
  std::vector<int64_t> sizes{2, 3, 4};
  const IValue v(kBorrowed, absl::Span<const int64_t>(sizes));
  EXPECT_TRUE(v.isIntList());
  EXPECT_EQ(v.toIntList().data(), sizes.data());
  EXPECT_EQ(v.toIntVector(), sizes);
}

TEST(BorrowedIntList, RefusesAListTooLongToBorrow) {
  // Only the length is read before refusing, so a short array stands in for a huge one.
  const int64_t element = 1;
  const size_t too_long = size_t{1} << 32;
  EXPECT_EQ(errorMessageOf([&] { IValue v(kBorrowed, absl::Span<const int64_t>(&element, too_long)); }),
            "an int list of 4294967296 elements is too long to box (at most 4294967295)");
}

TEST(BorrowedIntList, CopyOwnsItsElements) {
  std::vector<int64_t> sizes{2, 3};
  IValue v(kBorrowed, absl::Span<const int64_t>(sizes));
  IValue copy(v);
  sizes.assign({9, 9, 9});
  EXPECT_FALSE(copy.isBorrowed());
  EXPECT_EQ(copy.toIntVector(), (std::vector<int64_t>{2, 3}));
}

TEST(BorrowedIntList, EqualsAnOwnedListWithTheSameElements) {
  std::vector<int64_t> sizes{5, 6};
  EXPECT_EQ(IValue(kBorrowed, absl::Span<const int64_t>(sizes)), IValue(sizes));
}

// ---- Stack ---------------------------------------------------------------------------------------

TEST(BorrowedOnStack, PopOwnsTheValue) {
  Tensor t = sy::full({1}, 3.0);
  Stack stack;
  stack.emplace_back(kBorrowed, t);
  IValue popped = sy::pop(stack);
  t = Tensor();
  EXPECT_EQ(popped.toTensor().item<double>(), 3.0);
}

TEST(BorrowedOnStack, GrowingTheStackKeepsTheBorrow) {
  Tensor t = sy::zeros({1});
  Stack stack;
  stack.emplace_back(kBorrowed, t);
  for (int i = 0; i < 20; ++i) stack.emplace_back(i);
  EXPECT_TRUE(stack[0].isBorrowed());
  EXPECT_EQ(&std::as_const(stack)[0].toTensor(), &t);
}

TEST(BorrowedOnStack, MovingTheStackMakesItsValuesOwned) {
  Tensor t = sy::full({1}, 5.0);
  std::vector<int64_t> sizes{1, 2};
  Stack stack;
  stack.emplace_back(kBorrowed, t);
  stack.emplace_back(kBorrowed, absl::Span<const int64_t>(sizes));
  Stack kept(std::move(stack));
  t = Tensor();
  sizes.clear();
  EXPECT_FALSE(kept[0].isBorrowed());
  EXPECT_EQ(kept[0].toTensor().item<double>(), 5.0);
  EXPECT_EQ(kept[1].toIntVector(), (std::vector<int64_t>{1, 2}));
}

TEST(BorrowedOnStack, OverwritingTheSlotLeavesTheCallerAlone) {
  Tensor t = sy::zeros({1});
  Stack stack;
  stack.emplace_back(kBorrowed, t);
  stack[0] = IValue(sy::ones({1}));
  EXPECT_EQ(t.use_count(), 1u);
  EXPECT_EQ(t.item<double>(), 0.0);
}

// ---- Through the dispatcher ----------------------------------------------------------------------

SY_LIBRARY(borrowed_ivalue_test, m) {
  m.def("read(Tensor self, int[] sizes) -> Tensor");
  m.def("write(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("identity(Tensor self) -> Tensor");
}

Tensor readKernel(const Tensor& self, absl::Span<const int64_t> sizes) {
  return sy::full({static_cast<int64_t>(sizes.size())}, self.item<double>());
}
Tensor& writeKernel(const Tensor& self, Tensor& out) {
  out.resize_({1});
  out.data_ptr<float>()[0] = self.item<float>() + 1;
  return out;
}

// A boxed kernel that leaves its (borrowed) argument on the stack as its result.
void leaveArgumentAsResult(const OperatorHandle&, Stack*) {}

SY_LIBRARY_IMPL(borrowed_ivalue_test, CPU, m) {
  m.impl("read", SY_FN(readKernel));
  m.impl("write", SY_FN(writeKernel));
  m.impl("identity", sy::CppFunction::makeFromBoxedFunction<&leaveArgumentAsResult>());
}

OperatorHandle handle(const char* name) {
  return sy::Dispatcher::singleton().findSchemaOrThrow(std::string("borrowed_ivalue_test::") + name, "");
}

TEST(BorrowedResult, ABorrowedArgumentLeftAsTheResultBecomesTheCallersOwnReference) {
  Tensor self = sy::full({1}, 3.0);
  {
    Tensor result = handle("identity").typed<Tensor(const Tensor&)>().call(self);
    EXPECT_TRUE(result.is_same(self));
    EXPECT_EQ(self.use_count(), 2u);
  }
  EXPECT_EQ(self.use_count(), 1u);
}

// A fallback on PrivateUse2 that records what it saw and then runs the CPU kernel.
struct Observation {
  bool self_borrowed = false;
  uint32_t self_use_count = 0;
  std::vector<IValue> kept;  // values a fallback keeps past the call
};
Observation observed;

void observingFallback(const OperatorHandle& op, sy::DispatchKeySet ks, Stack* stack) {
  const IValue& self = (*stack)[stack->size() - op.schema().arguments().size()];
  observed.self_borrowed = self.isBorrowed();
  observed.self_use_count = self.toTensor().use_count();
  for (IValue& v : *stack) observed.kept.push_back(v);
  op.redispatchBoxed(ks.remove(DispatchKey::PrivateUse2), stack);
}

class BorrowedThroughAFallback : public ::testing::Test {
 protected:
  void SetUp() override {
    observed = Observation();
    fallback_.fallback(sy::CppFunction::makeFromBoxedFunction<&observingFallback>());
  }
  void TearDown() override { observed = Observation(); }
  static Tensor onPrivateUse2(Tensor t) {
    t.unsafeGetTensorImpl()->set_key_set(t.key_set().add(DispatchKey::PrivateUse2));
    return t;
  }
  Library fallback_{Library::Impl, "_", DispatchKey::PrivateUse2};
};

TEST_F(BorrowedThroughAFallback, TheFallbackSeesBorrowedArgumentsAndNoExtraReference) {
  Tensor self = onPrivateUse2(sy::full({1}, 2.0));
  std::vector<int64_t> sizes{4, 5, 6};
  Tensor result = handle("read").typed<Tensor(const Tensor&, absl::Span<const int64_t>)>().call(self, sizes);
  EXPECT_TRUE(observed.self_borrowed);
  EXPECT_EQ(observed.self_use_count, 1u);
  EXPECT_EQ(result.sizes()[0], 3);
}

TEST_F(BorrowedThroughAFallback, ValuesTheFallbackKeepsOutliveTheCall) {
  std::vector<int64_t> kept_sizes;
  {
    Tensor self = onPrivateUse2(sy::full({1}, 9.0));
    std::vector<int64_t> sizes{7, 8};
    handle("read").typed<Tensor(const Tensor&, absl::Span<const int64_t>)>().call(self, sizes);
  }  // the caller's tensor and array are gone
  ASSERT_EQ(observed.kept.size(), 2u);
  EXPECT_EQ(observed.kept[0].toTensor().item<double>(), 9.0);
  EXPECT_EQ(observed.kept[0].toTensor().use_count(), 1u);
  EXPECT_EQ(observed.kept[1].toIntVector(), (std::vector<int64_t>{7, 8}));
}

TEST_F(BorrowedThroughAFallback, OutCallLeavesEveryReferenceCountAsItWas) {
  Tensor self = onPrivateUse2(sy::full({1}, 1.0));
  Tensor out = sy::empty({0});
  Tensor& result = handle("write").typed<Tensor&(const Tensor&, Tensor&)>().call(self, out);
  observed.kept.clear();
  EXPECT_EQ(&result, &out);
  EXPECT_EQ(out.item<double>(), 2.0);
  EXPECT_EQ(self.use_count(), 1u);
  EXPECT_EQ(out.use_count(), 1u);
}

}  // namespace
