// The dtypes the kernel YAML of each operator declares, recorded by the generated registrations
// (dispatcher/declared_dtypes.h) for the tools: `switchyard ops --coverage` reports them.
#include <gtest/gtest.h>

#include "switchyard/dispatcher/declared_dtypes.h"

namespace sy {
namespace {

unsigned bitOf(ScalarType t) { return 1u << static_cast<int>(t); }

TEST(DeclaredDtypes, ThePortableKernelsDeclareTheirsForEveryFormOfTheirOperators) {
  // backends/devices/cpu/unary_ops.yaml: acos.out, with its derived acos and acos_.
  const unsigned every = bitOf(ScalarType::Bool) | bitOf(ScalarType::Byte) | bitOf(ScalarType::Char) |
                         bitOf(ScalarType::Short) | bitOf(ScalarType::Int) | bitOf(ScalarType::Long) |
                         bitOf(ScalarType::Half) | bitOf(ScalarType::Float) | bitOf(ScalarType::Double) |
                         bitOf(ScalarType::BFloat16);
  EXPECT_EQ(declaredDtypes(OperatorName{"aten::acos", "out"}), every);
  EXPECT_EQ(declaredDtypes(OperatorName{"aten::acos", ""}), every);
  EXPECT_EQ(declaredDtypes(OperatorName{"aten::acos_", ""}), every);
  // reduction_ops.yaml and quantized.yaml.
  EXPECT_EQ(dtypeSetText(*declaredDtypes(OperatorName{"aten::_softmax", "out"})), "Half, Float, Double, BFloat16");
  EXPECT_EQ(dtypeSetText(*declaredDtypes(OperatorName{"quantized_decomposed::dequantize_per_tensor", "out"})),
            "Byte, Char, Short, Int, UInt16");
}

TEST(DeclaredDtypes, AnOperatorWithoutADeclarationHasNone) {
  EXPECT_EQ(declaredDtypes(OperatorName{"aten::no_such_operator", ""}), std::nullopt);
}

}  // namespace
}  // namespace sy
