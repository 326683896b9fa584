// IValue, Stack, Scalar and ScalarType.
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/stack.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;

std::string printed(const IValue& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

struct Handle : CustomObject {
  explicit Handle(int id) : id(id) {}
  int id;
};
struct OtherHandle : CustomObject {};

// ---------------------------------------------------------------------------------------------
// Layout and kinds

TEST(IValueLayout, IsSixteenBytes) { EXPECT_EQ(sizeof(IValue), 16u); }

TEST(IValueKinds, DefaultIsNone) {
  IValue v;
  EXPECT_TRUE(v.isNone());
  EXPECT_EQ(v.typeName(), "None");
}

TEST(IValueKinds, TensorReadsBackTheSameImpl) {
  Tensor t = zeros({2});
  IValue v(t);
  EXPECT_TRUE(v.isTensor());
  EXPECT_TRUE(v.toTensor().is_same(t));
}

TEST(IValueKinds, IntReadsBack) {
  IValue v(int64_t{-42});
  EXPECT_TRUE(v.isInt());
  EXPECT_TRUE(v.isScalar());
  EXPECT_EQ(v.toInt(), -42);
}

TEST(IValueKinds, DoubleReadsBack) {
  IValue v(2.5);
  EXPECT_TRUE(v.isDouble());
  EXPECT_EQ(v.toDouble(), 2.5);
}

TEST(IValueKinds, ToDoubleAcceptsAnInt) { EXPECT_EQ(IValue(3).toDouble(), 3.0); }

TEST(IValueKinds, BoolReadsBack) {
  IValue v(true);
  EXPECT_TRUE(v.isBool());
  EXPECT_TRUE(v.toBool());
  EXPECT_FALSE(IValue(false).toBool());
}

TEST(IValueKinds, StringReadsBack) {
  IValue v(std::string("relu"));
  EXPECT_TRUE(v.isString());
  EXPECT_EQ(v.toStringRef(), "relu");
  EXPECT_EQ(IValue("abc").toStringView(), "abc");
}

TEST(IValueKinds, DeviceReadsBack) {
  IValue v(Device(DeviceType::Accel, 1));
  EXPECT_TRUE(v.isDevice());
  EXPECT_EQ(v.toDevice(), Device(DeviceType::Accel, 1));
}

TEST(IValueKinds, ScalarTypeReadsBack) {
  IValue v(ScalarType::Double);
  EXPECT_TRUE(v.isScalarType());
  EXPECT_EQ(v.toScalarType(), ScalarType::Double);
}

TEST(IValueKinds, LayoutAndMemoryFormatBoxAsInts) {
  EXPECT_EQ(IValue(Layout::Strided).toInt(), 0);
  EXPECT_EQ(IValue(MemoryFormat::ChannelsLast).toInt(), 2);
}

TEST(IValueKinds, IntListReadsBack) {
  IValue v(std::vector<int64_t>{1, 2, 3});
  EXPECT_TRUE(v.isIntList());
  EXPECT_THAT(v.toIntList(), ElementsAre(1, 2, 3));
  EXPECT_THAT(v.toIntVector(), ElementsAre(1, 2, 3));
}

TEST(IValueKinds, DoubleListReadsBack) {
  IValue v(std::vector<double>{0.5, 1.5});
  EXPECT_TRUE(v.isDoubleList());
  EXPECT_THAT(v.toDoubleList(), ElementsAre(0.5, 1.5));
}

TEST(IValueKinds, BoolListReadsBack) {
  IValue v(std::vector<bool>{true, false});
  EXPECT_TRUE(v.isBoolList());
  EXPECT_THAT(v.toBoolList(), ElementsAre(true, false));
}

TEST(IValueKinds, TensorListReadsBack) {
  Tensor a = zeros({1});
  Tensor b = ones({1});
  IValue v(std::vector<Tensor>{a, b});
  EXPECT_TRUE(v.isTensorList());
  ASSERT_EQ(v.toTensorList().size(), 2u);
  EXPECT_TRUE(v.toTensorList()[0].is_same(a));
  EXPECT_TRUE(v.toTensorList()[1].is_same(b));
}

TEST(IValueKinds, GenericListReadsBack) {
  IValue v(std::vector<IValue>{IValue(1), IValue("x")});
  EXPECT_TRUE(v.isList());
  ASSERT_EQ(v.toList().size(), 2u);
  EXPECT_EQ(v.toList()[0].toInt(), 1);
  EXPECT_EQ(v.toList()[1].toStringRef(), "x");
}

TEST(IValueKinds, TupleReadsBack) {
  IValue v = IValue::tuple({IValue(1), IValue(2.0)});
  EXPECT_TRUE(v.isTuple());
  ASSERT_EQ(v.toTupleElements().size(), 2u);
  EXPECT_EQ(v.toTupleElements()[1].toDouble(), 2.0);
}

TEST(IValueKinds, ObjectReadsBackAsItsClass) {
  IValue v(make_intrusive<Handle>(7));
  EXPECT_TRUE(v.isObject());
  EXPECT_EQ(v.toObject<Handle>()->id, 7);
}

TEST(IValueKinds, ObjectOfAnotherClassThrows) {
  IValue v(make_intrusive<Handle>(7));
  EXPECT_EQ(errorMessageOf([&] { v.toObject<OtherHandle>(); }),
            "IValue holds an object of another class than the one requested");
}

TEST(IValueKinds, WrongKindAccessNamesBothTypes) {
  EXPECT_TRUE(raisesError([] { IValue(3).toTensor(); }, ErrorKind::Type, "expected a value of type Tensor but got int"));
  EXPECT_EQ(errorMessageOf([] { IValue("s").toInt(); }), "expected a value of type int but got str");
  EXPECT_EQ(errorMessageOf([] { IValue().toIntList(); }), "expected a value of type int[] but got None");
}

TEST(IValueKinds, NulloptIsNone) {
  EXPECT_TRUE(IValue(std::optional<int64_t>()).isNone());
  EXPECT_TRUE(IValue(std::nullopt).isNone());
}

TEST(IValueKinds, OptionalWithValueHoldsTheValue) {
  EXPECT_EQ(IValue(std::optional<int64_t>(5)).toInt(), 5);
  Tensor t = zeros({1});
  EXPECT_TRUE(IValue(std::optional<Tensor>(t)).toTensor().is_same(t));
}

// Optional numbers, dtypes, layouts, memory formats and devices box without branching
// (IValue::wordTag/wordPayload); they must read back exactly as their non-optional forms.
TEST(IValueKinds, OptionalWordValuesBoxLikeTheirValues) {
  EXPECT_EQ(IValue(std::optional<ScalarType>(ScalarType::Double)), IValue(ScalarType::Double));
  EXPECT_EQ(IValue(std::optional<Layout>(Layout::Strided)), IValue(Layout::Strided));
  EXPECT_EQ(IValue(std::optional<MemoryFormat>(MemoryFormat::ChannelsLast)), IValue(MemoryFormat::ChannelsLast));
  EXPECT_EQ(IValue(std::optional<bool>(true)), IValue(true));
  EXPECT_EQ(IValue(std::optional<bool>(false)), IValue(false));
  EXPECT_EQ(IValue(std::optional<double>(-2.5)), IValue(-2.5));
  EXPECT_EQ(IValue(std::optional<int64_t>(-7)), IValue(int64_t{-7}));
  const Device accel1(DeviceType::Accel, 1);
  EXPECT_EQ(IValue(std::optional<Device>(accel1)).toDevice(), accel1);
  EXPECT_EQ(IValue(std::optional<Device>(Device(DeviceType::PrivateUse3))).toDevice(), Device(DeviceType::PrivateUse3));
}

TEST(IValueKinds, EmptyOptionalWordValuesAreNone) {
  EXPECT_TRUE(IValue(std::optional<ScalarType>()).isNone());
  EXPECT_TRUE(IValue(std::optional<Device>()).isNone());
  EXPECT_TRUE(IValue(std::optional<bool>()).isNone());
  EXPECT_TRUE(IValue(std::optional<double>()).isNone());
  EXPECT_EQ(IValue(std::optional<MemoryFormat>()), IValue());
}

// ---------------------------------------------------------------------------------------------
// Reference counts of held tensors

TEST(IValueRefcount, MovingDoesNotChangeTheTensorUseCount) {
  Tensor t = zeros({1});
  IValue a(t);
  ASSERT_EQ(t.use_count(), 2u);
  IValue b(std::move(a));
  EXPECT_EQ(t.use_count(), 2u);
  EXPECT_TRUE(a.isNone());  // NOLINT(bugprone-use-after-move): moved-from is None by contract
  IValue c;
  c = std::move(b);
  EXPECT_EQ(t.use_count(), 2u);
}

TEST(IValueRefcount, MovingATensorInDoesNotIncrement) {
  Tensor t = zeros({1});
  Tensor moved = t;
  IValue v(std::move(moved));
  EXPECT_EQ(t.use_count(), 2u);
}

TEST(IValueRefcount, CopyingIncrementsAndDestructionDecrements) {
  Tensor t = zeros({1});
  IValue a(t);
  {
    IValue b(a);
    EXPECT_EQ(t.use_count(), 3u);
    IValue c;
    c = a;
    EXPECT_EQ(t.use_count(), 4u);
  }
  EXPECT_EQ(t.use_count(), 2u);
}

TEST(IValueRefcount, ConstToTensorBorrowsWithoutCounting) {
  Tensor t = zeros({1});
  const IValue v(t);
  const Tensor& first = v.toTensor();
  const Tensor& second = v.toTensor();
  EXPECT_EQ(&first, &second);
  EXPECT_EQ(t.use_count(), 2u);
}

TEST(IValueRefcount, MutableToTensorAliasesTheSlot) {
  Tensor original = zeros({1});
  Tensor replacement = ones({1});
  IValue v(original);
  v.toTensor() = replacement;
  EXPECT_TRUE(v.toTensor().is_same(replacement));
  EXPECT_EQ(original.use_count(), 1u);
  EXPECT_EQ(replacement.use_count(), 2u);
}

TEST(IValueRefcount, RvalueToTensorMovesOutAndLeavesNone) {
  Tensor t = zeros({1});
  IValue v(t);
  Tensor out = std::move(v).toTensor();
  EXPECT_TRUE(out.is_same(t));
  EXPECT_EQ(t.use_count(), 2u);
  EXPECT_TRUE(v.isNone());  // NOLINT(bugprone-use-after-move)
}

TEST(IValueRefcount, UndefinedTensorCopiesSafely) {
  IValue a{Tensor()};
  IValue b(a);
  EXPECT_TRUE(b.isTensor());
  EXPECT_FALSE(b.toTensor().defined());
}

// ---------------------------------------------------------------------------------------------
// Scalars, equality, printing

TEST(IValueScalar, RoundTripsEachKind) {
  IValue i(Scalar(3));
  EXPECT_TRUE(i.isInt());
  EXPECT_EQ(i.toScalar(), Scalar(3));
  IValue d(Scalar(1.25));
  EXPECT_TRUE(d.isDouble());
  EXPECT_EQ(d.toScalar(), Scalar(1.25));
  IValue b(Scalar(true));
  EXPECT_TRUE(b.isBool());
  EXPECT_EQ(b.toScalar(), Scalar(true));
}

TEST(IValueScalar, NonScalarThrows) {
  EXPECT_EQ(errorMessageOf([] { IValue("s").toScalar(); }), "expected a Scalar (int, float or bool) but got str");
}

TEST(IValueScalar, ScalarKindsAreDistinct) {
  EXPECT_FALSE(Scalar(1) == Scalar(1.0));
  EXPECT_EQ(Scalar(2).type(), ScalarType::Long);
  EXPECT_EQ(Scalar(2.0).type(), ScalarType::Double);
  EXPECT_EQ(Scalar(false).type(), ScalarType::Bool);
}

TEST(IValueEquality, ComparesValuesOfTheSameKind) {
  EXPECT_EQ(IValue(1), IValue(1));
  EXPECT_NE(IValue(1), IValue(2));
  EXPECT_EQ(IValue("a"), IValue("a"));
  EXPECT_EQ(IValue(std::vector<int64_t>{1, 2}), IValue(std::vector<int64_t>{1, 2}));
  EXPECT_EQ(IValue::tuple({IValue(1), IValue("a")}), IValue::tuple({IValue(1), IValue("a")}));
  EXPECT_EQ(IValue(), IValue());
}

TEST(IValueEquality, DifferentKindsAreNotEqual) {
  EXPECT_NE(IValue(1), IValue(1.0));
  EXPECT_NE(IValue(1), IValue(true));
}

TEST(IValueEquality, TensorsCompareByIdentity) {
  Tensor t = zeros({1});
  EXPECT_EQ(IValue(t), IValue(t));
  EXPECT_NE(IValue(t), IValue(zeros({1})));
}

TEST(IValuePrinting, PrintsLikePython) {
  EXPECT_EQ(printed(IValue()), "None");
  EXPECT_EQ(printed(IValue(3)), "3");
  EXPECT_EQ(printed(IValue(true)), "True");
  EXPECT_EQ(printed(IValue("abc")), "'abc'");
  EXPECT_EQ(printed(IValue(std::vector<int64_t>{1, 2})), "[1, 2]");
  EXPECT_EQ(printed(IValue::tuple({IValue(1), IValue("a")})), "(1, 'a')");
  EXPECT_EQ(printed(IValue(ScalarType::Long)), "Long");
  EXPECT_EQ(printed(IValue(tensor<int64_t>({1, 2}))), "tensor([1, 2], dtype=Long)");
}

// ---------------------------------------------------------------------------------------------
// Stack

TEST(StackStorage, EightValuesStayInline) {
  Stack stack;
  for (int i = 0; i < 8; ++i) push(stack, i);
  EXPECT_EQ(stack.capacity(), kInlineStackSize);
  const char* object_begin = reinterpret_cast<const char*>(&stack);
  const char* data = reinterpret_cast<const char*>(stack.data());
  EXPECT_GE(data, object_begin);
  EXPECT_LT(data, object_begin + sizeof(Stack));
}

TEST(StackStorage, PushingATensorByMoveDoesNotCopyIt) {
  Tensor t = zeros({1});
  Tensor moved = t;
  Stack stack;
  push(stack, std::move(moved));
  EXPECT_EQ(t.use_count(), 2u);
}

TEST(StackOps, PopReturnsTheLastValue) {
  Stack stack;
  push(stack, 1, 2);
  EXPECT_EQ(pop(stack).toInt(), 2);
  EXPECT_EQ(pop(&stack).toInt(), 1);
  EXPECT_TRUE(stack.empty());
}

TEST(StackOps, DropRemovesTheLastN) {
  Stack stack;
  push(stack, 1, 2, 3);
  drop(stack, 2);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].toInt(), 1);
}

TEST(StackOps, PeekIndexesIntoTheLastN) {
  Stack stack;
  push(stack, 10, 20, 30);
  EXPECT_EQ(peek(stack, 0, 2).toInt(), 20);
  EXPECT_EQ(peek(&stack, 1, 2).toInt(), 30);
}

TEST(StackOps, LastViewsTheLastNInOrder) {
  Stack stack;
  push(stack, 1, 2, 3);
  absl::Span<IValue> tail = last(stack, 2);
  ASSERT_EQ(tail.size(), 2u);
  EXPECT_EQ(tail[0].toInt(), 2);
  EXPECT_EQ(tail[1].toInt(), 3);
  tail[0] = IValue(5);
  EXPECT_EQ(stack[1].toInt(), 5);
}

// ---------------------------------------------------------------------------------------------
// ScalarType

TEST(ScalarTypePromotion, FollowsPyTorch) {
  EXPECT_EQ(promoteTypes(ScalarType::Int, ScalarType::Float), ScalarType::Float);
  EXPECT_EQ(promoteTypes(ScalarType::Long, ScalarType::Float), ScalarType::Float);
  EXPECT_EQ(promoteTypes(ScalarType::Bool, ScalarType::Int), ScalarType::Int);
  EXPECT_EQ(promoteTypes(ScalarType::Long, ScalarType::Double), ScalarType::Double);
  EXPECT_EQ(promoteTypes(ScalarType::Float, ScalarType::Long), ScalarType::Float);
  EXPECT_EQ(promoteTypes(ScalarType::Int, ScalarType::Long), ScalarType::Long);
}

TEST(ScalarTypeCasting, CanCastFollowsPyTorch) {
  EXPECT_FALSE(canCast(ScalarType::Float, ScalarType::Long));
  EXPECT_TRUE(canCast(ScalarType::Long, ScalarType::Float));
  EXPECT_FALSE(canCast(ScalarType::Int, ScalarType::Bool));
  EXPECT_TRUE(canCast(ScalarType::Bool, ScalarType::Int));
}

TEST(ScalarTypeInfo, NamesAndElementSizes) {
  EXPECT_EQ(toString(ScalarType::Long), "Long");
  EXPECT_EQ(elementSize(ScalarType::Bool), 1u);
  EXPECT_EQ(elementSize(ScalarType::Int), 4u);
  EXPECT_EQ(elementSize(ScalarType::Double), 8u);
}

}  // namespace
}  // namespace sy
