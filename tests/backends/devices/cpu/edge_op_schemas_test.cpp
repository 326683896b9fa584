// Every operator that programs exported by ExecuTorch call is registered under its upstream name,
// overload and schema. A program names its operators as (name, overload) and calls them with
// arguments in schema order, so a schema that differs from upstream in one argument's name, type,
// default or position would misread a program's arguments.
//
// The expected strings are copied from PyTorch's native_functions.yaml (aten::) and ExecuTorch's
// exir/passes/dim_order_ops_registry.py (dim_order_ops::), with the namespace in front; the
// registered schema and the upstream string are compared parsed, both printed with
// FunctionSchema::toString() (which spells a broadcast list default such as `int[2] padding=0` as
// `[0, 0]`, as PyTorch's printer does).
#include <string>

#include "gtest/gtest.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using testing::operatorNameOfSchemaParam;

class EdgeOperatorSchema : public ::testing::TestWithParam<const char*> {};

// "aten::add.out(Tensor self, ...) -> ..." -> {"aten::add", "out"}.
std::pair<std::string, std::string> nameAndOverload(const std::string& schema) {
  const std::string full = schema.substr(0, schema.find('('));
  const size_t dot = full.find('.');
  if (dot == std::string::npos) return {full, ""};
  return {full.substr(0, dot), full.substr(dot + 1)};
}

TEST_P(EdgeOperatorSchema, IsRegisteredWithTheUpstreamSchemaAndACpuKernel) {
  const std::string expected = GetParam();
  const auto [name, overload] = nameAndOverload(expected);
  const auto handle = Dispatcher::singleton().findSchema(OperatorName{name, overload});
  ASSERT_TRUE(handle.has_value()) << name << "." << overload << " is not registered";
  EXPECT_EQ(handle->schema().toString(), parseSchema(expected).toString());
  EXPECT_TRUE(handle->hasKernelForDispatchKey(DispatchKey::CPU)) << name << "." << overload;
}

// The operators the programs in ExecuTorch's test suite call (found with `strings` on the .pte files).
INSTANTIATE_TEST_SUITE_P(
    CalledByExportedPrograms, EdgeOperatorSchema,
    ::testing::Values(
        "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        "aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        "aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::_log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> "
        "Tensor(a!)",
        "aten::sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) "
        "out) -> Tensor(a!)",
        "aten::eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)",
        "aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> "
        "Tensor(a!)",
        "aten::exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> "
        "Tensor(a!)",
        "aten::argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::view_copy.out(Tensor self, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::permute_copy.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::squeeze_copy.dims_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::unsqueeze_copy.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::alias_copy.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) -> Tensor(a!)",
        "aten::scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::scalar_tensor.out(Scalar s, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
        "int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))",
        "dim_order_ops::_to_dim_order_copy.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, "
        "Tensor(a!) out) -> Tensor(a!)",
        "dim_order_ops::_clone_dim_order.out(Tensor self, *, bool non_blocking=False, int[]? dim_order=None, "
        "Tensor(a!) out) -> Tensor(a!)"),
    operatorNameOfSchemaParam);

// The rest of the edge dialect's view copies, and core-ATen out= forms small CNN/MLP exports use.
INSTANTIATE_TEST_SUITE_P(
    EdgeDialect, EdgeOperatorSchema,
    ::testing::Values(
        "aten::expand_copy.out(Tensor self, SymInt[] size, *, bool implicit=False, Tensor(a!) out) -> Tensor(a!)",
        "aten::select_copy.int_out(Tensor self, int dim, SymInt index, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::slice_copy.Tensor_out(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1, *, "
        "Tensor(a!) out) -> Tensor(a!)",
        "aten::transpose_copy.int_out(Tensor self, int dim0, int dim1, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool "
        "ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] "
        "dilation, bool transposed, SymInt[] output_padding, SymInt groups, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::_adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::log.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
        "aten::cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)"),
    operatorNameOfSchemaParam);

}  // namespace
}  // namespace sy
