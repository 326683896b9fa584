// Type, FunctionSchema (masks, aliasing, lookups) and printing. Parsing details and parse errors
// are in schema_parser_test.cpp.
#include "switchyard/dispatcher/function_schema.h"

#include <gtest/gtest.h>

#include <sstream>

#include "test_support.h"

namespace sy {
namespace {

TypePtr intList(std::optional<int64_t> size = std::nullopt) { return Type::list(Type::get(TypeKind::Int), size); }

Argument makeArgument(std::string name, TypeKind kind, std::optional<IValue> default_value = std::nullopt,
                      bool kwarg_only = false, std::optional<AliasInfo> alias_info = std::nullopt) {
  Argument argument;
  argument.name = std::move(name);
  argument.type = Type::get(kind);
  argument.default_value = std::move(default_value);
  argument.kwarg_only = kwarg_only;
  argument.alias_info = std::move(alias_info);
  return argument;
}

// ---- Type ----------------------------------------------------------------------------------

TEST(SchemaType, LeafTypesPrintWithTheirSchemaSpelling) {
  const std::pair<TypeKind, const char*> leaves[] = {
      {TypeKind::Tensor, "Tensor"}, {TypeKind::Int, "int"},          {TypeKind::SymInt, "SymInt"},
      {TypeKind::Float, "float"},   {TypeKind::Bool, "bool"},        {TypeKind::Str, "str"},
      {TypeKind::Scalar, "Scalar"}, {TypeKind::ScalarType, "ScalarType"}, {TypeKind::Device, "Device"},
      {TypeKind::Layout, "Layout"}, {TypeKind::MemoryFormat, "MemoryFormat"},
  };
  for (const auto& [kind, spelling] : leaves) EXPECT_EQ(Type::get(kind)->str(), spelling);
}

TEST(SchemaType, ContainerSuffixesPrintInsideOut) {
  const TypePtr tensor = Type::get(TypeKind::Tensor);
  EXPECT_EQ(Type::list(Type::optional(tensor))->str(), "Tensor?[]");
  EXPECT_EQ(Type::optional(intList(2))->str(), "int[2]?");
  EXPECT_EQ(Type::list(Type::get(TypeKind::SymInt))->str(), "SymInt[]");
}

TEST(SchemaType, GetReturnsOneSharedObjectPerLeaf) {
  EXPECT_EQ(Type::get(TypeKind::Tensor).get(), Type::get(TypeKind::Tensor).get());
}

TEST(SchemaType, GetRejectsContainerKinds) {
  EXPECT_THROW(Type::get(TypeKind::List), Error);
  EXPECT_THROW(Type::get(TypeKind::Optional), Error);
}

TEST(SchemaType, SymIntMatchesInt) {
  EXPECT_TRUE(Type::get(TypeKind::SymInt)->matches(*Type::get(TypeKind::Int)));
  EXPECT_TRUE(Type::get(TypeKind::Int)->matches(*Type::get(TypeKind::SymInt)));
  EXPECT_TRUE(Type::list(Type::get(TypeKind::SymInt))->matches(*intList()));
}

TEST(SchemaType, FixedSizeListMatchesUnsizedList) {
  EXPECT_TRUE(intList(2)->matches(*intList()));
  EXPECT_TRUE(intList()->matches(*intList(2)));
}

TEST(SchemaType, DifferentShapesDoNotMatch) {
  const TypePtr tensor = Type::get(TypeKind::Tensor);
  EXPECT_FALSE(Type::get(TypeKind::Int)->matches(*Type::get(TypeKind::Float)));
  EXPECT_FALSE(Type::optional(tensor)->matches(*tensor));
  EXPECT_FALSE(Type::list(tensor)->matches(*Type::optional(tensor)));
  EXPECT_FALSE(Type::list(Type::optional(tensor))->matches(*Type::list(tensor)));
}

TEST(SchemaType, TensorsOptionalTensorsAndTensorListsAreTensorLike) {
  const TypePtr tensor = Type::get(TypeKind::Tensor);
  EXPECT_TRUE(tensor->isTensorLike());
  EXPECT_TRUE(Type::optional(tensor)->isTensorLike());
  EXPECT_TRUE(Type::list(tensor)->isTensorLike());
  EXPECT_TRUE(Type::list(Type::optional(tensor))->isTensorLike());
  EXPECT_TRUE(Type::optional(Type::list(tensor))->isTensorLike());
}

TEST(SchemaType, NonTensorsAndNestedTensorListsAreNotTensorLike) {
  EXPECT_FALSE(Type::get(TypeKind::Scalar)->isTensorLike());
  EXPECT_FALSE(intList()->isTensorLike());
  EXPECT_FALSE(Type::list(Type::list(Type::get(TypeKind::Tensor)))->isTensorLike());
}

// ---- FunctionSchema ------------------------------------------------------------------------

TEST(FunctionSchema, TensorArgumentMaskHasABitPerTensorLikeArgument) {
  const FunctionSchema s =
      parseSchema("t::f(Tensor a, int b, Tensor? c, Tensor[] d, Tensor?[] e, Scalar f, Tensor(a!) out) -> ()");
  EXPECT_EQ(s.tensorArgumentMask(), 0b1011101u);
}

TEST(FunctionSchema, DeviceArgumentMaskHasABitPerDeviceArgument) {
  const FunctionSchema s = parseSchema("t::f(int[] size, Device a, *, Device? device=None) -> Tensor");
  EXPECT_EQ(s.deviceArgumentMask(), 0b110u);
  EXPECT_EQ(s.tensorArgumentMask(), 0u);
}

TEST(FunctionSchema, SixtyFourArgumentsFillTheMask) {
  std::string text = "t::f(";
  for (int i = 0; i < 64; ++i) text += str(i ? ", " : "", "Tensor a", i);
  const FunctionSchema s = parseSchema(text + ") -> ()");
  EXPECT_EQ(s.tensorArgumentMask(), ~uint64_t{0});
}

TEST(FunctionSchema, ConstructorRejectsMoreThanSixtyFourArguments) {
  std::vector<Argument> arguments;
  for (int i = 0; i < 65; ++i) arguments.push_back(makeArgument(str("a", i), TypeKind::Tensor));
  try {
    FunctionSchema(OperatorName{"t::f", ""}, arguments, {});
    FAIL() << "expected sy::Error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "Schema of t::f has 65 arguments; at most 64 are supported");
  }
}

TEST(FunctionSchema, OutReturnAliasesItsOutArgument) {
  const FunctionSchema s =
      parseSchema("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_EQ(s.aliasedArgumentOfReturn(0), 3);
}

TEST(FunctionSchema, InPlaceReturnAliasesSelf) {
  const FunctionSchema s = parseSchema("aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  EXPECT_EQ(s.aliasedArgumentOfReturn(0), 0);
}

TEST(FunctionSchema, EachOutReturnAliasesTheArgumentWithItsSet) {
  const FunctionSchema s = parseSchema(
      "aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> "
      "(Tensor(a!) values, Tensor(b!) indices)");
  EXPECT_EQ(s.aliasedArgumentOfReturn(0), 3);
  EXPECT_EQ(s.aliasedArgumentOfReturn(1), 4);
}

TEST(FunctionSchema, ViewOfAnUnwrittenArgumentIsNotAnAliasedReturn) {
  const FunctionSchema s = parseSchema("aten::alias(Tensor(a) self) -> Tensor(a)");
  EXPECT_EQ(s.aliasedArgumentOfReturn(0), -1);
}

TEST(FunctionSchema, FreshReturnsAliasNothing) {
  const FunctionSchema s = parseSchema("aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  EXPECT_EQ(s.aliasedArgumentOfReturn(0), -1);
  EXPECT_EQ(s.aliasedArgumentOfReturn(1), -1);
}

TEST(FunctionSchema, IsMutableWhenAnyArgumentIsWritten) {
  EXPECT_TRUE(parseSchema("aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)").is_mutable());
  EXPECT_TRUE(parseSchema("t::f(Tensor! self) -> ()").is_mutable());
  EXPECT_FALSE(parseSchema("aten::alias(Tensor(a) self) -> Tensor(a)").is_mutable());
}

TEST(FunctionSchema, ArgumentIndexWithNameFindsArgumentsByName) {
  const FunctionSchema s = parseSchema("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(s.argumentIndexWithName("alpha"), 2u);
  EXPECT_EQ(s.argumentIndexWithName("self"), 0u);
  EXPECT_EQ(s.argumentIndexWithName("beta"), std::nullopt);
}

TEST(FunctionSchema, NameAndNamespaceComeFromTheOperatorName) {
  const FunctionSchema s = parseSchema("aten::sum.dim_IntList(Tensor self, int[1]? dim) -> Tensor");
  EXPECT_EQ(s.name(), "aten::sum");
  EXPECT_EQ(s.operator_name().overload_name, "dim_IntList");
  EXPECT_EQ(s.operator_name().getNamespace(), "aten");
  EXPECT_EQ((OperatorName{"plain", ""}).getNamespace(), "");
}

// ---- Printing ------------------------------------------------------------------------------

class SchemaRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(SchemaRoundTrip, ToStringReproducesThePyTorchSpelling) {
  EXPECT_EQ(parseSchema(GetParam()).toString(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    RealPyTorchSchemas, SchemaRoundTrip,
    ::testing::Values(
        "aten::acos(Tensor self) -> Tensor", "aten::acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        "aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)",
        "aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? "
        "device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
        "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
        "aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> "
        "(Tensor(a!) values, Tensor(b!) indices)",
        "aten::gelu(Tensor self, *, str approximate='none') -> Tensor",
        "aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
        "aten::convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] "
        "dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor",
        "aten::layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float "
        "eps=1e-05, bool cudnn_enable=True) -> Tensor",
        "aten::cat(Tensor[] tensors, int dim=0) -> Tensor",
        "aten::split.Tensor(Tensor(a) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
        "aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
        "aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=[0, 0], int[2] "
        "dilation=[1, 1], bool ceil_mode=False) -> Tensor",
        "aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
        "aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor",
        "aten::upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor",
        "aten::_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()",
        "aten::to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? "
        "memory_format=None) -> Tensor(a)",
        "aten::add.int(int a, int b) -> int", "foo::noop(Tensor self) -> ()"),
    testing::operatorNameOfSchemaParam);

TEST(SchemaToString, FloatDefaultsPrintSoTheyReparseAsFloats) {
  const FunctionSchema s =
      parseSchema("t::f(float a=1.0, float b=.5, float c=-0.25, float d=1e-5, float e=100000000, float f=1e20) -> ()");
  EXPECT_EQ(s.toString(), "t::f(float a=1., float b=0.5, float c=-0.25, float d=1e-05, float e=100000000., float f=1e+20) -> ()");
}

TEST(SchemaToString, PrintedFloatsReadBackAsTheSameDouble) {
  for (double value : {0.1, 1.0 / 3.0, 2.5e-300, 123456.789, -7.0}) {
    const FunctionSchema printed(OperatorName{"t::f", ""}, {makeArgument("x", TypeKind::Float, IValue(value))}, {});
    const FunctionSchema reparsed = parseSchema(printed.toString());
    EXPECT_EQ(reparsed.arguments()[0].default_value->toDouble(), value) << printed.toString();
  }
}

TEST(SchemaToString, StringDefaultsPrintSingleQuotedWithEscapes) {
  EXPECT_EQ(parseSchema(R"(t::f(str a="none", str b="it's") -> ())").toString(), R"(t::f(str a='none', str b='it\'s') -> ())");
}

TEST(SchemaToString, DefaultListsAndBoolsUsePythonSpelling) {
  EXPECT_EQ(parseSchema("t::f(bool[2] a=[True,False], float[] b=[1, 0.5], int[] c=[-1]) -> ()").toString(),
            "t::f(bool[2] a=[True, False], float[] b=[1., 0.5], int[] c=[-1]) -> ()");
}

TEST(SchemaToString, SpacingIsNormalised) {
  EXPECT_EQ(parseSchema("  aten::foo ( Tensor  self ,*,int x = 2 )->Tensor ").toString(),
            "aten::foo(Tensor self, *, int x=2) -> Tensor");
}

TEST(SchemaToString, ALoneNamedReturnKeepsItsParentheses) {
  EXPECT_EQ(parseSchema("t::f(Tensor self) -> (Tensor result)").toString(), "t::f(Tensor self) -> (Tensor result)");
}

TEST(SchemaToString, WriteWithoutAliasSetPrintsAsBang) {
  EXPECT_EQ(parseSchema("t::f(Tensor! self) -> Tensor!").toString(), "t::f(Tensor! self) -> Tensor!");
}

TEST(SchemaToString, ProgrammaticSchemasPrintTheSameWay) {
  const Argument self = makeArgument("self", TypeKind::Tensor);
  const Argument out = makeArgument("out", TypeKind::Tensor, std::nullopt, /*kwarg_only=*/true, AliasInfo{"a", true});
  const Argument result = makeArgument("", TypeKind::Tensor, std::nullopt, false, AliasInfo{"a", true});
  const FunctionSchema s(OperatorName{"aten::acos", "out"}, {self, out}, {result});
  EXPECT_EQ(s.toString(), "aten::acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
}

TEST(SchemaToString, StreamOperatorsPrintSchemaAndArgument) {
  const FunctionSchema s = parseSchema("aten::cat(Tensor[] tensors, int dim=0) -> Tensor");
  std::ostringstream schema_stream, argument_stream;
  schema_stream << s;
  argument_stream << s.arguments()[1];
  EXPECT_EQ(schema_stream.str(), "aten::cat(Tensor[] tensors, int dim=0) -> Tensor");
  EXPECT_EQ(argument_stream.str(), "int dim=0");
}

}  // namespace
}  // namespace sy
