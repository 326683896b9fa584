// The command line's JSON (tools/switchyard/json_text.h, value_json.h): every float value survives
// a round trip, Python's NaN, Infinity and -Infinity included; a value its dtype cannot hold is an
// error naming the input, the element and the dtype; and nesting is bounded before anything
// recurses. Called in-process, and through `switchyard run` as a user runs it.
#include <cmath>
#include <cstring>
#include <limits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tools/cli_test_support.h"
#include "program/program_test_support.h"
#include "switchyard/tools/switchyard/json_text.h"
#include "switchyard/tools/switchyard/value_json.h"

namespace sy::cli {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

json parsedJsonOrFail(const std::string& text) {
  absl::StatusOr<json> j = parseJson(text, "test");
  EXPECT_TRUE(j.ok()) << j.status();
  return j.ok() ? *j : json();
}

std::string jsonParseErrorOf(const std::string& text) {
  absl::StatusOr<json> j = parseJson(text, "test");
  return j.ok() ? "" : std::string(j.status().message());
}

ValueInfo jsonTensorInput(ProgramScalarType dtype, std::vector<int64_t> sizes) {
  ValueInfo info;
  info.kind = "Tensor";
  info.dtype = dtype;
  info.sizes = std::move(sizes);
  return info;
}

ValueInfo jsonKindInput(const std::string& kind) {
  ValueInfo info;
  info.kind = kind;
  return info;
}

std::string jsonValueErrorOf(const std::string& text, const ValueInfo& info) {
  absl::StatusOr<IValue> v = valueFromJson(parsedJsonOrFail(text), info, "input 1");
  return v.ok() ? "" : std::string(v.status().message());
}

bool sameDoubleBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(CliJson, ReadsPythonsNonFiniteNumbers) {
  const json j = parsedJsonOrFail("[NaN, Infinity, -Infinity, -0.0, 1e999, -1e999, 1e-999]");
  EXPECT_TRUE(std::isnan(j[0].get<double>()));
  EXPECT_EQ(j[1].get<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(j[2].get<double>(), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(sameDoubleBits(j[3].get<double>(), -0.0));
  EXPECT_EQ(j[4].get<double>(), std::numeric_limits<double>::infinity());  // as Python reads 1e999
  EXPECT_EQ(j[5].get<double>(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(j[6].get<double>(), 0.0);
}

TEST(CliJson, WritesNonFiniteFloatsAsPythonDoesAndLeavesStringsAlone) {
  const json j = json::array({std::nan(""), INFINITY, -INFINITY, -0.0, 0.1, "NaN", "Infinity, -Infinity"});
  EXPECT_EQ(dumpJson(j), R"([NaN,Infinity,-Infinity,-0.0,0.1,"NaN","Infinity, -Infinity"])");
  const json back = parsedJsonOrFail(R"(["NaN", {"Infinity": "-Infinity"}])");
  EXPECT_EQ(back[0], "NaN");
  EXPECT_EQ(back[1]["Infinity"], "-Infinity");
}

TEST(CliJson, EveryFloatValueSurvivesARoundTrip) {
  const float kFloats[] = {0.0f, -0.0f, 0.1f, -1.5f, 3.4028235e38f, -3.4028235e38f, 1.17549435e-38f, 1e-45f,
                           16777217.0f, std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity()};
  for (float f : kFloats) {
    const json back = parsedJsonOrFail(dumpJson(json(f)));
    const float read = static_cast<float>(back.get<double>());
    EXPECT_EQ(std::memcmp(&read, &f, sizeof f), 0) << dumpJson(json(f));
  }
  const double kDoubles[] = {0.1, -0.0, 5e-324, 1.7976931348623157e308, 1.0 / 3.0};
  for (double d : kDoubles) EXPECT_TRUE(sameDoubleBits(parsedJsonOrFail(dumpJson(json(d))).get<double>(), d)) << d;
  EXPECT_TRUE(std::isnan(parsedJsonOrFail(dumpJson(json(std::nanf("")))).get<double>()));
}

// Every pattern of `dtype` (all 65536 for the 16-bit types) written as JSON text, read back as an
// input of that dtype, and compared byte for byte (NaN patterns come back NaN).
void expectEveryPatternRoundTripsThroughJson(ProgramScalarType dtype, uint32_t patterns) {
  const ScalarType st = *toSwitchyardScalarType(dtype);
  const size_t size = elementSize(st);
  Tensor t = empty({static_cast<int64_t>(patterns)}, TensorOptions(st));
  for (uint32_t p = 0; p < patterns; ++p) std::memcpy(static_cast<char*>(t.data_ptr()) + p * size, &p, size);
  const std::string text = dumpJson(valueToJson(IValue(t)));
  const json j = parsedJsonOrFail(text);
  ASSERT_EQ(j["dtype"], toString(dtype));
  absl::StatusOr<IValue> back = valueFromJson(j, jsonTensorInput(dtype, {patterns}), "input 0");
  ASSERT_TRUE(back.ok()) << back.status();
  const Tensor b = back->toTensor();
  ASSERT_EQ(b.scalar_type(), st);
  const Tensor doubles = b.to(ScalarType::Double);
  for (uint32_t p = 0; p < patterns; ++p) {
    const char* got = static_cast<const char*>(b.data_ptr()) + p * size;
    const double value = doubles.data_ptr<double>()[p];
    if (std::isnan(value)) continue;  // NaN is NaN; its payload is not a JSON number
    ASSERT_EQ(std::memcmp(got, &p, size), 0) << toString(dtype) << " pattern " << p << " came back as " << value;
  }
}

TEST(CliJson, EveryHalfBFloat16AndFloat8PatternRoundTripsBitExactly) {
  expectEveryPatternRoundTripsThroughJson(ProgramScalarType::Half, 65536);
  expectEveryPatternRoundTripsThroughJson(ProgramScalarType::BFloat16, 65536);
  expectEveryPatternRoundTripsThroughJson(ProgramScalarType::Float8_e5m2, 256);
  expectEveryPatternRoundTripsThroughJson(ProgramScalarType::Float8_e4m3fnuz, 256);
}

TEST(CliJson, EveryIntegerDtypeRoundTripsAndRefusesWhatItCannotHold) {
  expectEveryPatternRoundTripsThroughJson(ProgramScalarType::Byte, 256);
  expectEveryPatternRoundTripsThroughJson(ProgramScalarType::Char, 256);
  expectEveryPatternRoundTripsThroughJson(ProgramScalarType::Short, 65536);
  expectEveryPatternRoundTripsThroughJson(ProgramScalarType::UInt16, 65536);
  const json out = valueToJson(IValue(full({1}, -5, TensorOptions(ScalarType::Char))));
  EXPECT_EQ(dumpJson(out), R"({"data":[-5],"dtype":"Char","sizes":[1]})");
  EXPECT_EQ(jsonValueErrorOf(R"({"dtype": "Byte", "sizes": [1], "data": [256]})", jsonTensorInput(ProgramScalarType::Byte, {1})),
            "input 1: element 0 (256) does not fit in Byte [0, 255]");
  EXPECT_EQ(jsonValueErrorOf(R"({"dtype": "UInt64", "sizes": [1], "data": [-1]})", jsonTensorInput(ProgramScalarType::UInt64, {1})),
            "input 1: element 0 (-1) does not fit in UInt64 [0, 18446744073709551615]");
  EXPECT_EQ(jsonValueErrorOf(R"({"dtype": "Half", "sizes": [1], "data": [65536]})", jsonTensorInput(ProgramScalarType::Half, {1})),
            "input 1: element 0 (65536) does not fit in Half");
  absl::StatusOr<IValue> big = valueFromJson(parsedJsonOrFail(R"({"dtype": "UInt64", "sizes": [1], "data": [18446744073709551615]})"),
                                             jsonTensorInput(ProgramScalarType::UInt64, {1}), "input 0");
  ASSERT_TRUE(big.ok()) << big.status();
  EXPECT_EQ(big->toTensor().data_ptr<uint64_t>()[0], std::numeric_limits<uint64_t>::max());
}

TEST(CliJson, QuantizedTensorsAreTheirIntegersAndComplexOnesArePairs) {
  Tensor q = empty({2}, TensorOptions(ScalarType::QInt8));
  q.data_ptr<qint8>()[0] = qint8(-3);
  q.data_ptr<qint8>()[1] = qint8(100);
  EXPECT_EQ(dumpJson(valueToJson(IValue(q))), R"({"data":[-3,100],"dtype":"QInt8","sizes":[2]})");
  absl::StatusOr<IValue> back = valueFromJson(valueToJson(IValue(q)), jsonTensorInput(ProgramScalarType::QInt8, {2}), "input 0");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->toTensor().data_ptr<qint8>()[1], qint8(100));
  Tensor c = empty({1}, TensorOptions(ScalarType::ComplexFloat));
  c.data_ptr<Complex<float>>()[0] = Complex<float>(1.5f, -2.0f);
  EXPECT_EQ(dumpJson(valueToJson(IValue(c))), R"({"data":[[1.5,-2.0]],"dtype":"ComplexFloat","sizes":[1]})");
}

TEST(CliJson, IntegersKeepEveryBitOfInt64AndUint64) {
  const json j = parsedJsonOrFail("[-9223372036854775808, 18446744073709551615, 18446744073709551616]");
  EXPECT_EQ(j[0].get<int64_t>(), std::numeric_limits<int64_t>::min());
  EXPECT_TRUE(j[1].is_number_unsigned());
  EXPECT_EQ(j[1].get<uint64_t>(), std::numeric_limits<uint64_t>::max());
  EXPECT_TRUE(j[2].is_number_float());  // past 64 bits: a double, as nlohmann reads it
}

TEST(CliJson, MalformedTextIsAnErrorWithItsLineAndColumn) {
  EXPECT_EQ(jsonParseErrorOf("[1,\n 2,,]"), "test: invalid JSON at line 2, column 4: unexpected character ','");
  EXPECT_THAT(jsonParseErrorOf(""), HasSubstr("there is no value"));
  EXPECT_THAT(jsonParseErrorOf("[1, 2"), HasSubstr("the text ends before the value does"));
  EXPECT_THAT(jsonParseErrorOf("[1] 2"), HasSubstr("unexpected text after the value"));
  EXPECT_THAT(jsonParseErrorOf("{\"a\" 1}"), HasSubstr("expected ':' after the member name"));
  EXPECT_THAT(jsonParseErrorOf("[01]"), HasSubstr("expected ',' or ']'"));
  EXPECT_THAT(jsonParseErrorOf("[1.]"), HasSubstr("a number needs digits after its '.'"));
  EXPECT_THAT(jsonParseErrorOf("[\"a\\q\"]"), HasSubstr("invalid string"));
  EXPECT_THAT(jsonParseErrorOf("[\"abc"), HasSubstr("a string is not closed"));
  EXPECT_THAT(jsonParseErrorOf("[nan]"), HasSubstr("unexpected character 'n'"));
}

TEST(CliJson, NestingIsBoundedBeforeAnythingRecurses) {
  // A million levels in every place a value can be: each refused by the parser, which holds no value
  // deeper than kMaxJsonDepth, so nothing is built, dumped or destroyed by deep recursion.
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  for (const std::string& text : {deep, R"({"dtype": )" + deep + "}", R"([{"dtype": "Float", "sizes": )" + deep + "}]",
                                  R"([{"dtype": "Float", "sizes": [1], "data": [)" + deep + "]}]"}) {
    EXPECT_THAT(jsonParseErrorOf(text), HasSubstr("lists and objects are nested deeper than 64 levels"));
  }
  std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_EQ(jsonParseErrorOf(ok), "");
  EXPECT_THAT(jsonParseErrorOf("[" + ok + "]"), HasSubstr("nested deeper than 64"));
}

TEST(CliJson, AValueItsDtypeCannotHoldIsAnErrorNamingInputElementAndDtype) {
  EXPECT_EQ(jsonValueErrorOf(R"({"dtype": "Long", "sizes": [2], "data": [1, 18446744073709551615]})",
                         jsonTensorInput(ProgramScalarType::Long, {2})),
            "input 1: element 1 (18446744073709551615) does not fit in Long [-9223372036854775808, 9223372036854775807]");
  EXPECT_EQ(jsonValueErrorOf(R"({"dtype": "Int", "sizes": [1], "data": [4294967297]})", jsonTensorInput(ProgramScalarType::Int, {1})),
            "input 1: element 0 (4294967297) does not fit in Int [-2147483648, 2147483647]");
  EXPECT_EQ(jsonValueErrorOf(R"({"dtype": "Int", "sizes": [1], "data": [-2147483649]})", jsonTensorInput(ProgramScalarType::Int, {1})),
            "input 1: element 0 (-2147483649) does not fit in Int [-2147483648, 2147483647]");
  EXPECT_EQ(jsonValueErrorOf(R"({"dtype": "Long", "sizes": [1], "data": [1e19]})", jsonTensorInput(ProgramScalarType::Long, {1})),
            "input 1: element 0 (1e+19) does not fit in Long [-9223372036854775808, 9223372036854775807]");
  EXPECT_EQ(jsonValueErrorOf(R"({"dtype": "Float", "sizes": [1], "data": [1e300]})", jsonTensorInput(ProgramScalarType::Float, {1})),
            "input 1: element 0 (1e+300) does not fit in Float");
  EXPECT_EQ(jsonValueErrorOf(R"({"dtype": "Long", "sizes": [1], "data": [1.5]})", jsonTensorInput(ProgramScalarType::Long, {1})),
            "input 1: element 0 must be an integer, got 1.5");
  EXPECT_EQ(jsonValueErrorOf("18446744073709551615", jsonKindInput("Int")),
            "input 1: the value 18446744073709551615 does not fit in a 64-bit integer (Long)");
  EXPECT_EQ(jsonValueErrorOf("[1, 9223372036854775808]", jsonKindInput("IntList")),
            "input 1: item 1 of the list 9223372036854775808 does not fit in a 64-bit integer (Long)");
  EXPECT_THAT(jsonValueErrorOf(R"({"dtype": "Float", "sizes": [18446744073709551615], "data": []})",
                           jsonTensorInput(ProgramScalarType::Float, {1})),
              HasSubstr("does not fit in a 64-bit integer"));
}

TEST(CliJson, ExtremeValuesTheDtypeHoldsAreRead) {
  absl::StatusOr<IValue> v = valueFromJson(
      parsedJsonOrFail(R"({"dtype": "Long", "sizes": [2], "data": [-9223372036854775808, 9223372036854775807]})"),
      jsonTensorInput(ProgramScalarType::Long, {2}), "input 0");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->toTensor().data_ptr<int64_t>()[0], std::numeric_limits<int64_t>::min());
  EXPECT_EQ(v->toTensor().data_ptr<int64_t>()[1], std::numeric_limits<int64_t>::max());
  absl::StatusOr<IValue> f = valueFromJson(
      parsedJsonOrFail(R"({"dtype": "Float", "sizes": [4], "data": [NaN, Infinity, -Infinity, -0.0]})"),
      jsonTensorInput(ProgramScalarType::Float, {4}), "input 0");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(dumpJson(valueToJson(*f)), R"({"data":[NaN,Infinity,-Infinity,-0.0],"dtype":"Float","sizes":[4]})");
}

TEST(CliJson, ErrorMessagesShowAnExcerptOfAHugeValue) {
  std::string big = "[";
  for (int i = 0; i < 10000; ++i) big += "1,";
  big += "1]";
  const std::string message = jsonValueErrorOf(big, jsonKindInput("Bool"));
  EXPECT_THAT(message, HasSubstr("the method takes a value of kind Bool, got [1,1,1,"));
  EXPECT_THAT(message, HasSubstr("... (20003 characters)"));
  EXPECT_LT(message.size(), 200u);
}

TEST(CliJson, RunRoundTripsNonFiniteAndNegativeZeroFloats) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add, "add.pte");
  using sy::testing::cli::runCli;
  const std::string inputs = sy::testing::cli::writeTemp(
      "nonfinite_inputs.json",
      R"([{"dtype": "Float", "sizes": [1], "data": [Infinity]}, {"dtype": "Float", "sizes": [1], "data": [1]}])");
  sy::testing::cli::Result r = runCli("run " + add + " --inputs " + inputs + " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "{\"outputs\":[{\"data\":[Infinity],\"dtype\":\"Float\",\"sizes\":[1]}]}\n");
  const std::string nan_inputs = sy::testing::cli::writeTemp(
      "nan_inputs.json",
      R"([{"dtype": "Float", "sizes": [1], "data": [NaN]}, {"dtype": "Float", "sizes": [1], "data": [-Infinity]}])");
  r = runCli("run " + add + " --inputs " + nan_inputs + " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"data\":[NaN]"));
  const std::string zero_inputs = sy::testing::cli::writeTemp(
      "negative_zero_inputs.json",
      R"([{"dtype": "Float", "sizes": [1], "data": [-0.0]}, {"dtype": "Float", "sizes": [1], "data": [-0.0]}])");
  r = runCli("run " + add + " --inputs " + zero_inputs + " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"data\":[-0.0]"));
}

TEST(CliJson, RunRefusesAValueItsDtypeCannotHoldAndDeepNesting) {
  SY_REFERENCE_PROGRAM_OR_SKIP(add, "add.pte");
  using sy::testing::cli::expectOneLineError;
  using sy::testing::cli::runCli;
  const std::string big = sy::testing::cli::writeTemp(
      "too_big_inputs.json",
      R"([{"dtype": "Float", "sizes": [1], "data": [1e39]}, {"dtype": "Float", "sizes": [1], "data": [1]}])");
  expectOneLineError(runCli("run " + add + " --inputs " + big), "input 0: element 0 (1e+39) does not fit in Float");
  const std::string deep = sy::testing::cli::writeTemp(
      "deep_inputs.json", R"([{"dtype": )" + std::string(1000000, '[') + std::string(1000000, ']') + "}]");
  expectOneLineError(runCli("run " + add + " --inputs " + deep),
                     "invalid JSON at line 1, column 74: lists and objects are nested deeper than 64 levels");
}

}  // namespace
}  // namespace sy::cli
