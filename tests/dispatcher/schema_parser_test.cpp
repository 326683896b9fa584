// parseSchema / parseOperatorName: types, defaults, alias annotations, returns, and parse errors.
#include <gtest/gtest.h>

#include <cmath>

#include "switchyard/dispatcher/function_schema.h"
#include "test_support.h"

namespace sy {
namespace {

Argument onlyArgument(std::string_view arguments) {
  return parseSchema(str("t::f(", arguments, ") -> ()")).arguments().at(0);
}

IValue defaultOf(std::string_view argument) { return onlyArgument(argument).default_value.value(); }

std::string parserErrorOf(std::string_view schema) {
  try {
    parseSchema(schema);
  } catch (const Error& e) {
    return e.what();
  }
  return "(parsed without error)";
}

std::string expectedError(std::string_view schema, size_t column, std::string_view message) {
  return str("Schema parse error at column ", column, ": ", message, "\n  ", schema, "\n  ",
             std::string(column - 1, ' '), "^");
}

// ---- Names and argument lists --------------------------------------------------------------

TEST(SchemaParser, OperatorNameWithoutOverloadHasEmptyOverloadName) {
  const FunctionSchema s = parseSchema("aten::acos(Tensor self) -> Tensor");
  EXPECT_EQ(s.operator_name(), (OperatorName{"aten::acos", ""}));
}

TEST(SchemaParser, OverloadNameFollowsTheDot) {
  EXPECT_EQ(parseSchema("aten::div.Tensor_mode(Tensor self) -> Tensor").operator_name(), (OperatorName{"aten::div", "Tensor_mode"}));
}

TEST(SchemaParser, OverloadNameMayBeATypeKeyword) {
  EXPECT_EQ(parseSchema("aten::add.int(int a, int b) -> int").overload_name(), "int");
}

TEST(SchemaParser, ParseOperatorNameReadsANameWithoutSignature) {
  EXPECT_EQ(parseOperatorName("aten::add.out"), (OperatorName{"aten::add", "out"}));
  EXPECT_EQ(parseOperatorName(" myops::scale "), (OperatorName{"myops::scale", ""}));
}

TEST(SchemaParser, EmptyArgumentListIsAllowed) {
  EXPECT_TRUE(parseSchema("t::f() -> Tensor").arguments().empty());
}

TEST(SchemaParser, KwargOnlyMarkerMakesFollowingArgumentsKeywordOnly) {
  const FunctionSchema s = parseSchema("t::f(Tensor a, int b, *, int c, Tensor(a!) out) -> ()");
  std::vector<bool> kwarg_only;
  for (const Argument& a : s.arguments()) kwarg_only.push_back(a.kwarg_only);
  EXPECT_EQ(kwarg_only, (std::vector<bool>{false, false, true, true}));
}

TEST(SchemaParser, WhitespaceIncludingNewlinesSeparatesTokens) {
  EXPECT_EQ(parseSchema("t::f(\n  Tensor self,\n\tint x\n) ->\n Tensor").toString(), "t::f(Tensor self, int x) -> Tensor");
}

// ---- Types ---------------------------------------------------------------------------------

TEST(SchemaParser, EveryLeafTypeParsesToItsKind) {
  const std::pair<const char*, TypeKind> leaves[] = {
      {"Tensor", TypeKind::Tensor}, {"int", TypeKind::Int},          {"SymInt", TypeKind::SymInt},
      {"float", TypeKind::Float},   {"bool", TypeKind::Bool},        {"str", TypeKind::Str},
      {"Scalar", TypeKind::Scalar}, {"ScalarType", TypeKind::ScalarType}, {"Device", TypeKind::Device},
      {"Layout", TypeKind::Layout}, {"MemoryFormat", TypeKind::MemoryFormat},
  };
  for (const auto& [spelling, kind] : leaves) EXPECT_EQ(onlyArgument(str(spelling, " x")).type->kind(), kind) << spelling;
}

TEST(SchemaParser, QuestionMarkMakesATypeOptional) {
  const TypePtr type = onlyArgument("Tensor? weight").type;
  ASSERT_EQ(type->kind(), TypeKind::Optional);
  EXPECT_EQ(type->element()->kind(), TypeKind::Tensor);
}

TEST(SchemaParser, EmptyBracketsMakeAnUnsizedList) {
  const TypePtr type = onlyArgument("SymInt[] size").type;
  ASSERT_EQ(type->kind(), TypeKind::List);
  EXPECT_EQ(type->element()->kind(), TypeKind::SymInt);
  EXPECT_EQ(type->fixedSize(), std::nullopt);
}

TEST(SchemaParser, SizedBracketsRecordTheListSize) {
  EXPECT_EQ(onlyArgument("int[2] stride").type->fixedSize(), 2);
}

TEST(SchemaParser, SuffixesCombineLeftToRight) {
  EXPECT_EQ(onlyArgument("Tensor?[] indices").type->str(), "Tensor?[]");
  EXPECT_EQ(onlyArgument("int[2]? padding").type->str(), "int[2]?");
  EXPECT_EQ(onlyArgument("SymInt[1]? dim").type->str(), "SymInt[1]?");
  EXPECT_EQ(onlyArgument("Tensor[]? maybe").type->str(), "Tensor[]?");
}

// ---- Alias annotations ---------------------------------------------------------------------

TEST(SchemaAliases, NamedSetWithoutBangIsReadOnly) {
  const Argument a = onlyArgument("Tensor(a) self");
  ASSERT_TRUE(a.alias_info.has_value());
  EXPECT_EQ(*a.alias_info, (AliasInfo{"a", false}));
  EXPECT_FALSE(a.is_write());
}

TEST(SchemaAliases, BangAfterTheSetMarksAWrite) {
  EXPECT_EQ(onlyArgument("Tensor(b!) out").alias_info, (AliasInfo{"b", true}));
}

TEST(SchemaAliases, BareBangWritesWithoutASet) {
  EXPECT_EQ(onlyArgument("Tensor! self").alias_info, (AliasInfo{"", true}));
}

TEST(SchemaAliases, AnnotationOnAListElementAppliesToTheArgument) {
  const Argument a = onlyArgument("Tensor(a!)[] out");
  EXPECT_EQ(a.type->str(), "Tensor[]");
  EXPECT_EQ(a.alias_info, (AliasInfo{"a", true}));
}

TEST(SchemaAliases, OptionalTensorsCanBeAnnotated) {
  EXPECT_EQ(onlyArgument("Tensor(a!)? out").alias_info, (AliasInfo{"a", true}));
}

TEST(SchemaAliases, UnannotatedArgumentsHaveNoAliasInfo) {
  EXPECT_FALSE(onlyArgument("Tensor self").alias_info.has_value());
}

TEST(SchemaAliases, WrittenKeywordOnlyArgumentIsAnOutArgument) {
  const FunctionSchema s = parseSchema("aten::acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_TRUE(s.arguments()[1].is_out());
  EXPECT_FALSE(s.arguments()[0].is_out());
}

TEST(SchemaAliases, WrittenPositionalArgumentIsNotAnOutArgument) {
  const Argument self = onlyArgument("Tensor(a!) self");
  EXPECT_TRUE(self.is_write());
  EXPECT_FALSE(self.is_out());
}

// ---- Returns -------------------------------------------------------------------------------

TEST(SchemaReturns, EmptyParenthesesMeanNoReturns) {
  EXPECT_TRUE(parseSchema("foo::noop(Tensor self) -> ()").returns().empty());
}

TEST(SchemaReturns, ABareTypeIsOneUnnamedReturn) {
  const FunctionSchema s = parseSchema("t::f(Tensor self) -> Tensor(a!)");
  ASSERT_EQ(s.returns().size(), 1u);
  EXPECT_EQ(s.returns()[0].name, "");
  EXPECT_EQ(s.returns()[0].alias_info, (AliasInfo{"a", true}));
}

TEST(SchemaReturns, ParenthesesHoldSeveralUnnamedReturns) {
  const FunctionSchema s = parseSchema("t::f(Tensor self) -> (Tensor, int, float[])");
  ASSERT_EQ(s.returns().size(), 3u);
  EXPECT_EQ(s.returns()[2].type->str(), "float[]");
}

TEST(SchemaReturns, ReturnsMayBeNamed) {
  const FunctionSchema s = parseSchema("t::f(Tensor self) -> (Tensor(a!) values, Tensor(b!) indices)");
  ASSERT_EQ(s.returns().size(), 2u);
  EXPECT_EQ(s.returns()[0].name, "values");
  EXPECT_EQ(s.returns()[1].name, "indices");
  EXPECT_EQ(s.returns()[1].alias_info, (AliasInfo{"b", true}));
}

TEST(SchemaReturns, AListReturnCarriesItsElementAnnotation) {
  const FunctionSchema s = parseSchema("aten::split.Tensor(Tensor(a) self, SymInt split_size, int dim=0) -> Tensor(a)[]");
  EXPECT_EQ(s.returns()[0].type->str(), "Tensor[]");
  EXPECT_EQ(s.returns()[0].alias_info, (AliasInfo{"a", false}));
}

// ---- Defaults ------------------------------------------------------------------------------

TEST(SchemaDefaults, ArgumentsWithoutDefaultHaveNone) {
  EXPECT_FALSE(onlyArgument("int dim").default_value.has_value());
}

// A default literal and the value it parses to; one table per rule, named after the rule.
struct DefaultCase {
  const char* name;
  const char* argument;
  IValue expected;
};
void PrintTo(const DefaultCase& c, std::ostream* os) { *os << '"' << c.argument << '"'; }
std::string caseName(const ::testing::TestParamInfo<DefaultCase>& info) { return info.param.name; }

class SchemaDefaultLiteral : public ::testing::TestWithParam<DefaultCase> {};

TEST_P(SchemaDefaultLiteral, ParsesToTheExpectedValue) {
  EXPECT_EQ(defaultOf(GetParam().argument), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(IntegersIncludingNegativeOnesAreInts, SchemaDefaultLiteral,
                         ::testing::Values(DefaultCase{"Zero", "int dim=0", IValue(0)},
                                           DefaultCase{"MinusOne", "int dim=-1", IValue(-1)},
                                           DefaultCase{"Int64Max", "SymInt n=9223372036854775807", IValue(INT64_MAX)},
                                           DefaultCase{"Int64Min", "int n=-9223372036854775808", IValue(INT64_MIN)}),
                         caseName);

INSTANTIATE_TEST_SUITE_P(FloatsInEverySpellingAreDoubles, SchemaDefaultLiteral,
                         ::testing::Values(DefaultCase{"Decimal", "float x=1.0", IValue(1.0)},
                                           DefaultCase{"TrailingDot", "float x=1.", IValue(1.0)},
                                           DefaultCase{"Negative", "float x=-0.5", IValue(-0.5)},
                                           DefaultCase{"Exponent", "float x=1e-5", IValue(1e-5)},
                                           DefaultCase{"CapitalExponentWithPlus", "float x=2.5E+3", IValue(2500.0)}),
                         caseName);

INSTANTIATE_TEST_SUITE_P(TrueAndFalseAreBools, SchemaDefaultLiteral,
                         ::testing::Values(DefaultCase{"False", "bool keepdim=False", IValue(false)},
                                           DefaultCase{"True", "bool keepdim=True", IValue(true)}),
                         caseName);

INSTANTIATE_TEST_SUITE_P(
    MemoryFormatAndLayoutNamesAreStoredAsInts, SchemaDefaultLiteral,
    ::testing::Values(
        DefaultCase{"ContiguousFormat", "MemoryFormat m=contiguous_format", IValue(MemoryFormat::Contiguous)},
        DefaultCase{"PreserveFormat", "MemoryFormat? m=preserve_format", IValue(MemoryFormat::Preserve)},
        DefaultCase{"ChannelsLast", "MemoryFormat m=channels_last", IValue(MemoryFormat::ChannelsLast)},
        DefaultCase{"Strided", "Layout l=strided", IValue(int64_t{0})}),
    caseName);

INSTANTIATE_TEST_SUITE_P(ReductionNamesAreStoredAsInts, SchemaDefaultLiteral,
                         ::testing::Values(DefaultCase{"Mean", "int reduction=Mean", IValue(1)},
                                           DefaultCase{"Sum", "int reduction=Sum", IValue(2)}),
                         caseName);

// Not in the table above: the check is only that the value is infinite, not that it equals one value.
TEST(SchemaDefaults, MinusInfIsAFloatSpellingToo) {
  EXPECT_TRUE(std::isinf(defaultOf("float x=-inf").toDouble()));
}

TEST(SchemaDefaults, IntegerLiteralForAFloatIsStoredAsDouble) {
  const IValue value = defaultOf("float x=1");
  EXPECT_TRUE(value.isDouble());
  EXPECT_EQ(value.toDouble(), 1.0);
}

TEST(SchemaDefaults, NoneIsTheEmptyOptional) {
  EXPECT_TRUE(defaultOf("Tensor? weight=None").isNone());
  EXPECT_TRUE(defaultOf("int[1]? dim=None").isNone());
}

TEST(SchemaDefaults, StringsTakeSingleOrDoubleQuotes) {
  EXPECT_EQ(defaultOf("str a='none'").toStringRef(), "none");
  EXPECT_EQ(defaultOf("str a=\"tanh\"").toStringRef(), "tanh");
  EXPECT_EQ(defaultOf(R"(str a='say \'hi\'\n')").toStringRef(), "say 'hi'\n");
}

TEST(SchemaDefaults, ScalarKeepsTheLiteralsKind) {
  EXPECT_TRUE(defaultOf("Scalar alpha=1").isInt());
  EXPECT_TRUE(defaultOf("Scalar alpha=0.01").isDouble());
  EXPECT_TRUE(defaultOf("Scalar alpha=True").isBool());
}

TEST(SchemaDefaults, ListsAreTypedByTheDeclaredElementType) {
  EXPECT_EQ(defaultOf("int[] dims=[0, 1]").toIntListRef(), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(defaultOf("float[] w=[1, 0.5]").toDoubleList(), (std::vector<double>{1.0, 0.5}));
  EXPECT_EQ(defaultOf("bool[3] mask=[True, False, True]").toBoolList(), (std::vector<bool>{true, false, true}));
}

TEST(SchemaDefaults, EmptyListIsAnEmptyTypedList) {
  EXPECT_TRUE(defaultOf("int[2] stride=[]").isIntList());
  EXPECT_TRUE(defaultOf("float[] w=[]").isDoubleList());
  EXPECT_TRUE(defaultOf("Tensor[] ts=[]").isTensorList());
}

TEST(SchemaDefaults, SingleIntegerForASizedListIsRepeated) {
  EXPECT_EQ(defaultOf("int[2] padding=0").toIntListRef(), (std::vector<int64_t>{0, 0}));
}

TEST(SchemaDefaults, ScalarTypeLiteralsAreScalarTypes) {
  EXPECT_EQ(defaultOf("ScalarType t=float").toScalarType(), ScalarType::Float);
  EXPECT_EQ(defaultOf("ScalarType t=double").toScalarType(), ScalarType::Double);
  EXPECT_EQ(defaultOf("ScalarType t=long").toScalarType(), ScalarType::Long);
  EXPECT_EQ(defaultOf("ScalarType t=int").toScalarType(), ScalarType::Int);
  EXPECT_EQ(defaultOf("ScalarType? t=bool").toScalarType(), ScalarType::Bool);
}

// ---- Parse errors --------------------------------------------------------------------------

TEST(SchemaParseErrors, MessageNamesTheColumnAndPointsACaretAtIt) {
  EXPECT_EQ(parserErrorOf("aten::f(Tensor a int b) -> Tensor"),
            "Schema parse error at column 18: expected ')' but found 'int'\n"
            "  aten::f(Tensor a int b) -> Tensor\n"
            "                   ^");
}

TEST(SchemaParseErrors, CaretStaysUnderTheColumnWhenTheSchemaHasTabsAndNewlines) {
  EXPECT_EQ(parserErrorOf("t::f(\tTensor\na b) -> ()"),
            "Schema parse error at column 16: expected ')' but found 'b'\n"
            "  t::f( Tensor a b) -> ()\n"
            "                 ^");
}

struct ErrorCase {
  const char* schema;
  size_t column;
  const char* message;
};
void PrintTo(const ErrorCase& c, std::ostream* os) { *os << '"' << c.schema << '"'; }

class SchemaParseErrorText : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SchemaParseErrorText, NamesWhatWasExpectedAndFound) {
  const ErrorCase& c = GetParam();
  EXPECT_EQ(parserErrorOf(c.schema), expectedError(c.schema, c.column, c.message));
}

INSTANTIATE_TEST_SUITE_P(
    EachMistake, SchemaParseErrorText,
    ::testing::Values(
        ErrorCase{"aten::f(Tensr self) -> Tensor", 9, "unknown type 'Tensr'"},
        ErrorCase{"aten::f(Tensor self, int) -> Tensor", 25, "expected an argument name but found ')'"},
        ErrorCase{"aten::f(Tensor self, int", 25, "unexpected end of schema, expected an argument name"},
        ErrorCase{"aten::f(Tensor self) ->", 24, "unexpected end of schema, expected a type"},
        ErrorCase{"aten::f(Tensor self) -> Tensor extra stuff", 38, "expected end of schema but found 'stuff'"},
        ErrorCase{"aten::f(int x=1.5) -> ()", 15, "default value 1.5 does not fit type int"},
        ErrorCase{"aten::f(int[2] x=[1, 2, 3]) -> ()", 18, "default value [1, 2, 3] does not fit type int[2]"},
        ErrorCase{"aten::f(Tensor x=None) -> ()", 18, "default value None does not fit type Tensor"},
        ErrorCase{"aten::f(bool x=1) -> ()", 16, "default value 1 does not fit type bool"},
        ErrorCase{"aten::f(MemoryFormat m=contiguous) -> ()", 24,
                  "default value contiguous does not fit type MemoryFormat (expected one of: contiguous_format, "
                  "preserve_format, channels_last)"},
        ErrorCase{"aten::f(Tensor self, int self) -> ()", 26, "duplicate argument name 'self'"},
        ErrorCase{"acos(Tensor self) -> Tensor", 5, "expected '::' in operator name 'acos'"},
        ErrorCase{"aten::f(Tensor self) Tensor", 22, "expected '->' but found 'Tensor'"},
        ErrorCase{"aten::f(str s='abc) -> ()", 15, "unterminated string"},
        ErrorCase{"aten::f(Tensor self; int x) -> ()", 20, "unexpected character ';'"},
        ErrorCase{"aten::f(int(a) x) -> ()", 12, "alias annotations are only allowed on Tensor, not on 'int'"},
        ErrorCase{"aten::f(Tensor[](a!) x) -> ()", 17,
                  "an alias annotation must follow 'Tensor' directly, as in 'Tensor(a!)[]'"},
        ErrorCase{"aten::f(Tensor(a -> *) x) -> ()", 18, "alias wildcards ('a -> *') are not supported"},
        ErrorCase{"aten::f(Tensor(a!  x) -> ()", 20, "expected ')' to close the alias annotation but found 'x'"},
        ErrorCase{"aten::f(int?? x) -> ()", 13, "type 'int?' is already optional"},
        ErrorCase{"aten::f(int[x] y) -> ()", 13, "expected ']' but found 'x'"},
        ErrorCase{"aten::f(Tensor a, *, *, Tensor b) -> ()", 22, "the keyword-only marker '*' appears twice"},
        ErrorCase{"aten::f(Tensor a, *) -> ()", 20, "expected ',' after '*' but found ')'"},
        ErrorCase{"aten::f(Tensor a) -> Tensor b=1", 30, "a return cannot have a default value"},
        ErrorCase{"aten::f(Tensor a) -> (Tensor b, Tensor b)", 40, "duplicate return name 'b'"},
        ErrorCase{"aten::f(int x=99999999999999999999) -> ()", 15,
                  "integer 99999999999999999999 is out of range for int"},
        ErrorCase{"aten::f(int x=12ab) -> ()", 15, "malformed number '12ab'"},
        ErrorCase{"aten::f(int x=-y) -> ()", 16, "expected a number after '-' but found 'y'"},
        ErrorCase{"aten::f(int x=) -> ()", 15, "expected a default value but found ')'"},
        ErrorCase{"", 1, "unexpected end of schema, expected an operator name"}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return testing::testNameOf(info.param.message); });

TEST(SchemaParseErrors, ParseOperatorNameRejectsASignature) {
  try {
    parseOperatorName("aten::acos(Tensor self) -> Tensor");
    FAIL() << "expected sy::Error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), expectedError("aten::acos(Tensor self) -> Tensor", 11,
                                                   "expected end of operator name but found '('"));
  }
}

TEST(SchemaParseErrors, MoreThanSixtyFourArgumentsAreRejectedAtTheSixtyFifth) {
  std::string text = "t::f(";
  size_t offset_of_65th = 0;
  for (int i = 0; i < 65; ++i) {
    if (i) text += ", ";
    if (i == 64) offset_of_65th = text.size();
    text += str("int a", i);
  }
  text += ") -> ()";
  EXPECT_EQ(parserErrorOf(text), expectedError(text, offset_of_65th + 1, "too many arguments; a schema may have at most 64"));
}

TEST(SchemaParseErrors, EveryPrefixOfALongSchemaParsesOrThrowsSyError) {
  const std::string schema =
      "aten::f.o(Tensor(a!) self, Tensor?[] i, int[2]? p=[0, -1], *, float e=1e-5, str m=\"x\\'y\", "
      "MemoryFormat? f=channels_last, ScalarType t=long, Tensor(b!)[] outs) -> (Tensor(a!) v, Tensor[] w)";
  for (size_t length = 0; length <= schema.size(); ++length) {
    const std::string prefix = schema.substr(0, length);
    try {
      parseSchema(prefix);
    } catch (const Error&) {
    } catch (...) {
      ADD_FAILURE() << "non-sy::Error exception for prefix: " << prefix;
    }
  }
  EXPECT_NO_THROW(parseSchema(schema));
}

TEST(SchemaParseErrors, CorruptingAnyCharacterParsesOrThrowsSyError) {
  const std::string schema = "aten::f(Tensor(a!) self, int[2] s=[1, 2], *, float e=0.5) -> Tensor(a!)";
  for (size_t i = 0; i < schema.size(); ++i) {
    for (char replacement : {'\0', '(', ')', '[', ']', '-', '!', '?', '\'', '"', '.', ':', '*', '=', '9', ' ', '\xff'}) {
      std::string corrupted = schema;
      corrupted[i] = replacement;
      try {
        parseSchema(corrupted);
      } catch (const Error&) {
      } catch (...) {
        ADD_FAILURE() << "non-sy::Error exception for: " << corrupted;
      }
    }
  }
}

TEST(SchemaParseErrors, DeeplyNestedListDefaultIsAnErrorNotACrash) {
  const std::string schema = "t::f(int[] x=" + std::string(100000, '[') + ") -> ()";
  EXPECT_THROW(parseSchema(schema), Error);
}

}  // namespace
}  // namespace sy
