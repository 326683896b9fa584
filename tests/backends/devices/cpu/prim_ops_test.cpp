// The prim operators (backends/devices/cpu/prim_ops.cpp, prim_tensor_ops.cpp), called through the
// dispatcher by the names programs use. The reference is Python's own arithmetic (See Note [Prim
// arithmetic has Python's semantics]): the expected values below are what CPython 3.11 prints.
#include <cmath>
#include <limits>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using testing::doublesOf;
using testing::errorMessageOf;
using testing::iota;
using testing::sharesStorage;

Scalar primBinary(const std::string& name, const Scalar& a, const Scalar& b) {
  return Dispatcher::singleton()
      .findSchemaOrThrow("executorch_prim::" + name, "Scalar")
      .typed<Scalar(const Scalar&, const Scalar&)>()
      .call(a, b);
}
Scalar primUnary(const std::string& name, const Scalar& a) {
  return Dispatcher::singleton().findSchemaOrThrow("executorch_prim::" + name, "Scalar").typed<Scalar(const Scalar&)>().call(a);
}
bool primCompare(const std::string& name, const Scalar& a, const Scalar& b) {
  return Dispatcher::singleton()
      .findSchemaOrThrow("executorch_prim::" + name, "Scalar")
      .typed<bool(const Scalar&, const Scalar&)>()
      .call(a, b);
}
int64_t primInt(const std::string& name, int64_t a, int64_t b) {
  return Dispatcher::singleton().findSchemaOrThrow("executorch_prim::" + name, "int").typed<int64_t(int64_t, int64_t)>().call(a, b);
}

// The value and its kind, as one string: "int 5", "float 2.5", "bool true".
std::string primValue(const Scalar& s) {
  if (s.isBoolean()) return s.toBool() ? "bool true" : "bool false";
  if (s.isFloatingPoint()) return "float " + std::to_string(s.toDouble());
  return "int " + std::to_string(s.toLong());
}

TEST(PrimOps, IntArithmeticStaysIntAndFloatsMakeFloats) {
  EXPECT_EQ(primValue(primBinary("add", 2, 3)), "int 5");
  EXPECT_EQ(primValue(primBinary("add", 2, 0.5)), primValue(2.5));
  EXPECT_EQ(primValue(primBinary("sub", 2, 7)), "int -5");
  EXPECT_EQ(primValue(primBinary("mul", int64_t{4}, int64_t{6})), "int 24");
  EXPECT_EQ(primValue(primBinary("mul", 1.5, int64_t{4})), primValue(6.0));
  EXPECT_EQ(primValue(primBinary("truediv", 7, 2)), primValue(3.5));
  EXPECT_EQ(primValue(primBinary("sym_max", 3, 8)), "int 8");
  EXPECT_EQ(primValue(primBinary("sym_min", 3, 8)), "int 3");
  EXPECT_EQ(primValue(primBinary("sym_max", 3, 8.5)), primValue(8.5));
}

TEST(PrimOps, FloorDivisionAndModuloFollowPython) {
  // Python: -7 // 2 == -4, -7 % 2 == 1, 7 // -2 == -4, 7 % -2 == -1, 7.5 // 2 == 3.0, -7.5 % 2 == 0.5.
  EXPECT_EQ(primValue(primBinary("floordiv", -7, 2)), "int -4");
  EXPECT_EQ(primValue(primBinary("mod", -7, 2)), "int 1");
  EXPECT_EQ(primValue(primBinary("floordiv", 7, -2)), "int -4");
  EXPECT_EQ(primValue(primBinary("mod", 7, -2)), "int -1");
  EXPECT_EQ(primValue(primBinary("floordiv", 7.5, 2)), primValue(3.0));
  EXPECT_EQ(primValue(primBinary("mod", -7.5, 2)), primValue(0.5));
  EXPECT_EQ(primInt("floordiv", -7, 2), -4);
  EXPECT_EQ(primInt("mod", -7, 2), 1);
  EXPECT_EQ(primInt("mod", std::numeric_limits<int64_t>::min(), -1), 0);
}

TEST(PrimOps, IntegerOverflowAndDivisionByZeroAreErrorsNamingTheOperator) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_THAT(errorMessageOf([&] { primBinary("add", big, 1); }),
              HasSubstr("executorch_prim::add.Scalar: 9223372036854775807 and 1 give a result beyond 64-bit integers"));
  EXPECT_THAT(errorMessageOf([&] { primBinary("mul", big, 2); }), HasSubstr("executorch_prim::mul.Scalar"));
  EXPECT_THAT(errorMessageOf([&] { primBinary("floordiv", 1, 0); }),
              HasSubstr("executorch_prim::floordiv.Scalar: integer division by zero"));
  EXPECT_THAT(errorMessageOf([&] { primInt("mod", 1, 0); }), HasSubstr("executorch_prim::mod.int: integer division by zero"));
  EXPECT_THAT(errorMessageOf([&] { primUnary("neg", std::numeric_limits<int64_t>::min()); }),
              HasSubstr("is beyond 64-bit integers"));
  // A float division by zero is IEEE's, as in ExecuTorch's runtime.
  EXPECT_TRUE(std::isinf(primBinary("truediv", 1, 0).toDouble()));
}

TEST(PrimOps, BoolsAreRefusedWhereArithmeticWantsANumber) {
  EXPECT_THAT(errorMessageOf([&] { primBinary("add", true, 1); }),
              HasSubstr("executorch_prim::add.Scalar: argument 'a' is a bool, where an int or a float is expected"));
  EXPECT_THAT(errorMessageOf([&] { primUnary("sym_not", 1); }),
              HasSubstr("executorch_prim::sym_not.Scalar: argument 'a' is an int, where a bool is expected"));
  EXPECT_THAT(errorMessageOf([&] { primCompare("eq", true, 1); }),
              HasSubstr("executorch_prim::eq.Scalar: cannot compare a bool with a int"));
}

TEST(PrimOps, RoundingGivesIntsAndRoundsHalfToEven) {
  // Python: math.ceil(2.1) == 3, round(2.5) == 2, round(3.5) == 4, round(-2.5) == -2, math.trunc(-2.7) == -2.
  EXPECT_EQ(primValue(primUnary("ceil", 2.1)), "int 3");
  EXPECT_EQ(primValue(primUnary("round", 2.5)), "int 2");
  EXPECT_EQ(primValue(primUnary("round", 3.5)), "int 4");
  EXPECT_EQ(primValue(primUnary("round", -2.5)), "int -2");
  EXPECT_EQ(primValue(primUnary("trunc", -2.7)), "int -2");
  EXPECT_EQ(primValue(primUnary("ceil", 5)), "int 5");
  EXPECT_EQ(primValue(primUnary("neg", 2.5)), primValue(-2.5));
  EXPECT_THAT(errorMessageOf([&] { primUnary("ceil", std::nan("")); }), HasSubstr("has no 64-bit integer value"));
}

TEST(PrimOps, ConversionsComparisonsAndSelection) {
  EXPECT_EQ(primValue(primUnary("sym_float", 3)), primValue(3.0));
  EXPECT_EQ(primValue(primUnary("sym_int", -3.9)), "int -3");
  EXPECT_EQ(primValue(primUnary("sym_int", true)), "int 1");
  EXPECT_EQ(primValue(primUnary("sym_not", true)), "bool false");
  EXPECT_TRUE(primCompare("eq", 3, 3.0));
  EXPECT_TRUE(primCompare("lt", 2, 2.5));
  EXPECT_TRUE(primCompare("ge", 4, 4));
  EXPECT_FALSE(primCompare("gt", 4, 4));
  EXPECT_TRUE(primCompare("le", false, true));
  auto ite = Dispatcher::singleton()
                 .findSchemaOrThrow("executorch_prim::sym_ite", "Scalar")
                 .typed<Scalar(const Scalar&, const Scalar&, const Scalar&)>();
  EXPECT_EQ(primValue(ite.call(true, 4, 9)), "int 4");
  EXPECT_EQ(primValue(ite.call(false, 4, 9)), "int 9");
  EXPECT_THAT(errorMessageOf([&] { ite.call(1, 4, 9); }), HasSubstr("the condition is an int, where a bool is expected"));
}

TEST(PrimOps, SymSizeSymNumelAndLocalScalarDenseReadTensors) {
  const Tensor t = sy::zeros({2, 5, 3});
  auto size = Dispatcher::singleton().findSchemaOrThrow("aten::sym_size", "int").typed<int64_t(const Tensor&, int64_t)>();
  EXPECT_EQ(size.call(t, 1), 5);
  EXPECT_EQ(size.call(t, -1), 3);
  EXPECT_THAT(errorMessageOf([&] { size.call(t, 3); }), HasSubstr("aten::sym_size.int"));
  EXPECT_EQ(Dispatcher::singleton().findSchemaOrThrow("aten::sym_numel", "").typed<int64_t(const Tensor&)>().call(t), 30);
  auto dense = Dispatcher::singleton().findSchemaOrThrow("aten::_local_scalar_dense", "").typed<Scalar(const Tensor&)>();
  EXPECT_EQ(primValue(dense.call(sy::full({1}, 2.5))), primValue(2.5));
  EXPECT_EQ(primValue(dense.call(sy::full({1, 1}, 7, ScalarType::Long))), "int 7");
  EXPECT_EQ(primValue(dense.call(sy::full({}, 1, ScalarType::Bool))), "bool true");
  EXPECT_THAT(errorMessageOf([&] { dense.call(t); }),
              HasSubstr("aten::_local_scalar_dense: a tensor with 30 elements has no single value"));
}

void etView(const Tensor& self, IntArrayRef size, const Tensor& out) {
  Dispatcher::singleton()
      .findSchemaOrThrow("executorch_prim::et_view", "default")
      .typed<void(const Tensor&, IntArrayRef, const Tensor&)>()
      .call(self, size, out);
}

TEST(PrimOps, EtViewMakesItsOutputAViewOfItsInputWithoutCopying) {
  const Tensor x = iota({2, 6});
  const Tensor out = sy::empty({3, 4});
  etView(x, {3, -1}, out);
  EXPECT_TRUE(sharesStorage(out, x));
  EXPECT_EQ(out.sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(doublesOf(out), doublesOf(x));
  x.data_ptr<float>()[11] = 70;  // later writes to the input show through the view
  EXPECT_EQ(doublesOf(out)[11], 70);
  EXPECT_THAT(errorMessageOf([&] { etView(x, {5, -1}, out); }), HasSubstr("cannot infer the -1 of (5, -1) for 12 elements"));
  EXPECT_THAT(errorMessageOf([&] { etView(x, {-1, -1}, out); }), HasSubstr("only one size may be -1"));
  EXPECT_THAT(errorMessageOf([&] { etView(x, {3, 5}, out); }), HasSubstr("sizes (3, 5) hold 15 elements, but self has 12"));
  EXPECT_THAT(errorMessageOf([&] { etView(x, {12}, out); }), HasSubstr("1 sizes for an output of 2 dimensions"));
}

TEST(PrimOps, EtCopyIndexFillsRowsAndGrowsItsDestination) {
  Tensor stacked = sy::empty({0, 3});
  auto copy = Dispatcher::singleton()
                  .findSchemaOrThrow("executorch_prim::et_copy_index", "tensor")
                  .typed<void(const Tensor&, const Tensor&, int64_t)>();
  for (int64_t i = 0; i < 3; ++i) copy.call(stacked, sy::full({3}, static_cast<double>(i + 1)), i);
  EXPECT_EQ(stacked.sizes(), IntArrayRef({3, 3}));
  EXPECT_EQ(doublesOf(stacked), (std::vector<double>{1, 1, 1, 2, 2, 2, 3, 3, 3}));
  EXPECT_THAT(errorMessageOf([&] { copy.call(stacked, sy::full({4}, 1.0), 3); }),
              HasSubstr("copy_to of sizes (3, 3) cannot hold rows of sizes (4,)"));
  EXPECT_THAT(errorMessageOf([&] { copy.call(stacked, sy::full({3}, 1.0), -1); }), HasSubstr("index -1 is negative"));
  EXPECT_THAT(errorMessageOf([&] { copy.call(stacked, sy::full({3}, 1, ScalarType::Long), 0); }),
              HasSubstr("copy_to is Float but copy_from is Long"));
}

}  // namespace
}  // namespace sy
