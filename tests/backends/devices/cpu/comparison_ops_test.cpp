// eq, ne, lt, gt through the dispatcher: Tensor and Scalar operands, every dtype, comparison in the
// promoted type, NaN, out= of any dtype, in-place forms, broadcasting and strided inputs.
//
// References are computed here with the C++ comparison operators on the same values (promoted by
// hand where the test is about promotion); all results are exact booleans.
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using sy::testing::dispatchesOf;
using sy::testing::errorMessageOf;
using sy::testing::valuesOf;
using sy::testing::viewOf;

// The four comparisons as sy::ops calls next to the C++ operator each must agree with.
struct Comparison {
  const char* name;
  Tensor (*tensor_form)(const Tensor&, const Tensor&);
  Tensor (*scalar_form)(const Tensor&, const Scalar&);
  bool (*reference)(double, double);
};

const std::vector<Comparison>& comparisons() {
  static const std::vector<Comparison> all = {
      {"eq", &ops::eq, &ops::eq, [](double a, double b) { return a == b; }},
      {"ne", &ops::ne, &ops::ne, [](double a, double b) { return a != b; }},
      {"lt", &ops::lt, &ops::lt, [](double a, double b) { return a < b; }},
      {"gt", &ops::gt, &ops::gt, [](double a, double b) { return a > b; }},
  };
  return all;
}

// Element values that exercise each ordering: less, equal, greater, negative, zero.
const std::vector<double> kLeft = {1, 2, 3, -4, 0};
const std::vector<double> kRight = {2, 2, 2, -5, 0};

template <class T>
std::vector<T> as(const std::vector<double>& values) {
  return std::vector<T>(values.begin(), values.end());
}

std::vector<bool> expectedFor(const Comparison& c, const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<bool> expected;
  for (size_t i = 0; i < a.size(); ++i) expected.push_back(c.reference(a[i], b[i]));
  return expected;
}

TEST(Comparison, EachOperatorAgreesWithTheCppOperatorForEveryNumericDtype) {
  for (const Comparison& c : comparisons()) {
    const std::vector<bool> expected = expectedFor(c, kLeft, kRight);
    for (const auto& [x, y] : {std::pair{tensor<int32_t>(as<int32_t>(kLeft)), tensor<int32_t>(as<int32_t>(kRight))},
                               std::pair{tensor<int64_t>(as<int64_t>(kLeft)), tensor<int64_t>(as<int64_t>(kRight))},
                               std::pair{tensor<float>(as<float>(kLeft)), tensor<float>(as<float>(kRight))},
                               std::pair{tensor<double>(as<double>(kLeft)), tensor<double>(as<double>(kRight))}}) {
      Tensor r = c.tensor_form(x, y);
      EXPECT_EQ(r.scalar_type(), ScalarType::Bool) << c.name;
      EXPECT_THAT(valuesOf<bool>(r), ElementsAreArray(expected)) << c.name << " on " << x.scalar_type();
    }
  }
}

TEST(Comparison, BoolsCompareWithFalseBelowTrue) {
  Tensor a = tensor<bool>({false, false, true, true});
  Tensor b = tensor<bool>({false, true, false, true});
  EXPECT_THAT(valuesOf<bool>(ops::eq(a, b)), ElementsAre(true, false, false, true));
  EXPECT_THAT(valuesOf<bool>(ops::ne(a, b)), ElementsAre(false, true, true, false));
  EXPECT_THAT(valuesOf<bool>(ops::lt(a, b)), ElementsAre(false, true, false, false));
  EXPECT_THAT(valuesOf<bool>(ops::gt(a, b)), ElementsAre(false, false, true, false));
}

TEST(Comparison, ScalarFormComparesEveryElementWithTheScalar) {
  for (const Comparison& c : comparisons()) {
    const std::vector<double> twos(kLeft.size(), 2.0);
    EXPECT_THAT(valuesOf<bool>(c.scalar_form(tensor<int64_t>(as<int64_t>(kLeft)), 2)),
                ElementsAreArray(expectedFor(c, kLeft, twos)))
        << c.name;
    EXPECT_THAT(valuesOf<bool>(c.scalar_form(tensor<double>(kLeft), 2)), ElementsAreArray(expectedFor(c, kLeft, twos)))
        << c.name;
  }
}

TEST(Comparison, IntegerTensorAgainstAFractionalScalarComparesInFloat) {
  // Truncating 2.5 to 2 would make 2 == 2.5 true and 2 < 2.5 false.
  Tensor x = tensor<int32_t>({2, 3});
  EXPECT_THAT(valuesOf<bool>(ops::eq(x, 2.5)), ElementsAre(false, false));
  EXPECT_THAT(valuesOf<bool>(ops::lt(x, 2.5)), ElementsAre(true, false));
  EXPECT_THAT(valuesOf<bool>(ops::gt(x, 2.5)), ElementsAre(false, true));
  EXPECT_THAT(valuesOf<bool>(ops::ne(x, tensor<float>({2.5f, 3.0f}))), ElementsAre(true, false));
}

TEST(Comparison, LongValuesBeyondFloatPrecisionCompareExactlyAgainstAnIntegerScalar) {
  // 2^53 + 1 is not a double; compared in Long (the result type) it is still distinct from 2^53.
  const int64_t big = (int64_t{1} << 53) + 1;
  Tensor x = tensor<int64_t>({big, big - 1});
  EXPECT_THAT(valuesOf<bool>(ops::eq(x, big)), ElementsAre(true, false));
  EXPECT_THAT(valuesOf<bool>(ops::gt(x, big - 1)), ElementsAre(true, false));
}

TEST(Comparison, NanIsUnequalToEverythingIncludingItself) {
  const double nan = std::nan("");
  Tensor x = tensor<double>({nan, nan, 1});
  Tensor y = tensor<double>({nan, 1, nan});
  EXPECT_THAT(valuesOf<bool>(ops::eq(x, y)), ElementsAre(false, false, false));
  EXPECT_THAT(valuesOf<bool>(ops::ne(x, y)), ElementsAre(true, true, true));
  EXPECT_THAT(valuesOf<bool>(ops::lt(x, y)), ElementsAre(false, false, false));
  EXPECT_THAT(valuesOf<bool>(ops::gt(x, y)), ElementsAre(false, false, false));
  EXPECT_THAT(valuesOf<bool>(ops::eq(tensor<float>({NAN}), NAN)), ElementsAre(false));
}

TEST(Comparison, InfinitiesOrderAsTheExtremes) {
  Tensor x = tensor<float>({INFINITY, -INFINITY, INFINITY});
  Tensor y = tensor<float>({3.4e38f, -3.4e38f, INFINITY});
  EXPECT_THAT(valuesOf<bool>(ops::gt(x, y)), ElementsAre(true, false, false));
  EXPECT_THAT(valuesOf<bool>(ops::lt(x, y)), ElementsAre(false, true, false));
  EXPECT_THAT(valuesOf<bool>(ops::eq(x, y)), ElementsAre(false, false, true));
}

TEST(Comparison, BroadcastColumnAgainstRowGivesTheFullTable) {
  Tensor column = tensor<int64_t>({1, 2, 3}, {3, 1});
  Tensor row = tensor<int64_t>({1, 2, 3});
  Tensor r = ops::lt(column, row);
  ASSERT_THAT(r.sizes(), ElementsAre(3, 3));
  std::vector<bool> expected;
  for (int i = 1; i <= 3; ++i) {
    for (int j = 1; j <= 3; ++j) expected.push_back(i < j);
  }
  EXPECT_THAT(valuesOf<bool>(r), ElementsAreArray(expected));
}

TEST(Comparison, TransposedInputIsComparedInLogicalOrder) {
  Tensor base = tensor<float>({1, 2, 3, 4}, {2, 2});
  Tensor transposed = viewOf(base, {2, 2}, {1, 2});  // [[1, 3], [2, 4]]
  EXPECT_THAT(valuesOf<bool>(ops::eq(transposed, base)), ElementsAre(true, false, false, true));
}

TEST(Comparison, OutOfAnyDtypeReceivesOnesAndZeros) {
  Tensor floats = empty({3});
  ops::gt_out(floats, tensor<int32_t>({1, 5, 3}), 2);
  EXPECT_THAT(valuesOf<float>(floats), ElementsAre(0.0f, 1.0f, 1.0f));
  Tensor longs = empty({3}, ScalarType::Long);
  ops::eq_out(longs, tensor<double>({1, 5, 3}), tensor<double>({1, 4, 3}));
  EXPECT_THAT(valuesOf<int64_t>(longs), ElementsAre(1, 0, 1));
}

TEST(Comparison, OutIsResizedToTheBroadcastShapeAndReturned) {
  Tensor out = empty({0}, ScalarType::Bool);
  EXPECT_EQ(&ops::ne_out(out, tensor<int32_t>({1, 2}, {2, 1}), tensor<int32_t>({1, 2})), &out);
  EXPECT_THAT(out.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(valuesOf<bool>(out), ElementsAre(false, true, true, false));
  EXPECT_EQ(&ops::lt_out(out, tensor<int32_t>({1, 2, 3}), 2), &out);
  EXPECT_THAT(valuesOf<bool>(out), ElementsAre(true, false, false));
}

TEST(Comparison, InPlaceFormsKeepSelfsDtypeAndReturnSelf) {
  Tensor x = tensor<double>({1, 2, 3});
  EXPECT_EQ(&ops::gt_(x, 1.5), &x);
  EXPECT_EQ(x.scalar_type(), ScalarType::Double);
  EXPECT_THAT(valuesOf<double>(x), ElementsAre(0.0, 1.0, 1.0));
  Tensor y = tensor<int64_t>({4, 5});
  EXPECT_EQ(&ops::eq_(y, tensor<int64_t>({4, 0})), &y);
  EXPECT_THAT(valuesOf<int64_t>(y), ElementsAre(1, 0));
  EXPECT_EQ(&ops::ne_(y, 0), &y);
  EXPECT_EQ(&ops::lt_(y, tensor<int64_t>({2})), &y);
  EXPECT_THAT(valuesOf<int64_t>(y), ElementsAre(1, 1));  // (1 != 0) < 2, (0 != 0) < 2
}

TEST(Comparison, InPlaceSelfCannotGrowToTheBroadcastShape) {
  Tensor x = tensor<float>({1, 2});
  EXPECT_EQ(errorMessageOf([&] { ops::eq_(x, zeros({3, 2})); }),
            "aten::eq_.Tensor: output with shape (2,) doesn't match the broadcast shape (3, 2)");
}

TEST(Comparison, ZeroDimAndEmptyOperands) {
  Tensor r = ops::eq(full({}, 3, ScalarType::Long), 3);
  EXPECT_EQ(r.dim(), 0);
  EXPECT_TRUE(r.item<bool>());
  EXPECT_THAT(ops::gt(empty({0, 2}), zeros({2})).sizes(), ElementsAre(0, 2));
}

TEST(Comparison, NonBroadcastableShapesNameTheOverload) {
  EXPECT_EQ(errorMessageOf([] { ops::lt(zeros({2}), zeros({3})); }),
            "aten::lt.Tensor: the shapes (2,) and (3,) cannot be broadcast together: the size of tensor a (2) must "
            "match the size of tensor b (3) at non-singleton dimension 0");
}

TEST(Comparison, FunctionalFormsCostExactlyTwoDispatches) {
  Tensor x = tensor<int32_t>({1, 2});
  const std::map<std::string, int> calls = dispatchesOf([&] {
    ops::eq(x, x);
    ops::gt(x, 1);
  });
  EXPECT_EQ(calls,
            (std::map<std::string, int>{{"aten::eq.Tensor", 1}, {"aten::gt.Scalar", 1}, {"aten::empty.memory_format", 2}}));
}

}  // namespace
}  // namespace sy
