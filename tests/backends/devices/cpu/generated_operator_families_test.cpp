// The aten:: operator families generated from backends/devices/cpu/*.yaml (see Note [The aten:: operators are
// generated from their kernel YAML] in ops/CMakeLists.txt): every CPU kernel is registered at its YAML
// line, the kernels a schema-only entry leaves to hand-written code sit on their own keys, and the
// generated helpers keep the sy::ops API the hand-written ones had.
#include <string>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/ops/creation_ops.h"
#include "switchyard/ops/nn_ops.h"
#include "switchyard/ops/reduction_ops.h"
#include "switchyard/ops/shape_ops.h"
#include "switchyard/ops/view_copy_ops.h"

namespace sy {
namespace {

using ::testing::HasSubstr;

std::string tableOf(const char* name, const char* overload) {
  return Dispatcher::singleton().findSchemaOrThrow(name, overload).dumpComputedTable();
}

TEST(GeneratedOperatorFamilies, RegisterTheirCpuKernelsAtTheirYamlLines) {
  const std::vector<std::tuple<const char*, const char*, const char*>> cases = {
      {"aten::zeros", "out", "backends/devices/cpu/creation_ops.yaml:"},
      {"aten::_to_copy", "", "backends/devices/cpu/creation_ops.yaml:"},
      {"aten::cat", "out", "backends/devices/cpu/shape_ops.yaml:"},
      {"aten::clone", "", "backends/devices/cpu/shape_ops.yaml:"},
      {"aten::permute_copy", "out", "backends/devices/cpu/view_copy_ops.yaml:"},
      {"dim_order_ops::_to_dim_order_copy", "out", "backends/devices/cpu/view_copy_ops.yaml:"},
      {"aten::sum", "dim_IntList", "backends/devices/cpu/reduction_ops.yaml:"},
      {"aten::_softmax", "out", "backends/devices/cpu/reduction_ops.yaml:"},
      {"aten::max_pool2d_with_indices", "out", "backends/devices/cpu/nn_ops.yaml:"},
      {"aten::native_layer_norm", "", "backends/devices/cpu/nn_ops.yaml:"},
  };
  for (const auto& [name, overload, yaml] : cases) {
    EXPECT_THAT(tableOf(name, overload), HasSubstr(std::string("  CPU: kernel [registered at ") + yaml))
        << name << "." << overload;
  }
}

TEST(GeneratedOperatorFamilies, LeaveSchemaOnlyOperatorsToTheirHandRegisteredKeys) {
  EXPECT_THAT(tableOf("aten::view", ""), HasSubstr("(CompositeExplicit) [registered at backends/devices/cpu/view_ops.cpp:"));
  EXPECT_THAT(tableOf("aten::softmax", "int"), HasSubstr("(CompositeImplicit) [registered at backends/devices/cpu/softmax_ops.cpp:"));
  EXPECT_THAT(tableOf("aten::conv2d", ""), HasSubstr("(CompositeImplicit) [registered at backends/devices/cpu/convolution.cpp:"));
  EXPECT_THAT(tableOf("aten::layer_norm", ""), HasSubstr("(CompositeImplicit) [registered at backends/devices/cpu/normalization.cpp:"));
  EXPECT_THAT(tableOf("aten::adaptive_avg_pool2d", ""),
              HasSubstr("(CompositeImplicit) [registered at backends/devices/cpu/adaptive_pooling.cpp:"));
}

TEST(GeneratedOperatorFamilies, KeepTheHelperSpellingsCallersUse) {
  Tensor x = ops::arange(6, ScalarType::Float);
  Tensor m = ops::view(x, {2, 3});
  // int[1]? dims as a braced list, a vector and nullopt (sy::OptionalIntArrayRef).
  EXPECT_EQ(ops::sum(m, {1}).sizes(), IntArrayRef({2}));
  const std::vector<int64_t> dims = {0};
  EXPECT_EQ(ops::mean(m, dims, /*keepdim=*/true).sizes(), IntArrayRef({1, 3}));
  EXPECT_EQ(ops::sum(m, std::nullopt, /*keepdim=*/true).sizes(), IntArrayRef({1, 1}));
  // arange.start_out's helper: arange_out(out, start, end, step), as before.
  Tensor out = empty({0});
  ops::arange_out(out, 1, 7, 2);
  EXPECT_EQ(out.sizes(), IntArrayRef({3}));
  // The dim-order copies under their sy::ops names, forwarding to the generated helpers.
  Tensor nhwc = empty({0});
  ops::to_dim_order_copy_out(nhwc, ops::ones({1, 2, 2, 3}), false, std::vector<int64_t>{0, 2, 3, 1});
  const SizesVector order = nhwc.dim_order();
  EXPECT_EQ(IntArrayRef(order), IntArrayRef({0, 2, 3, 1}));
  Tensor copy = empty({0});
  ops::clone_dim_order_out(copy, m);
  EXPECT_EQ(copy.sizes(), m.sizes());
}

}  // namespace
}  // namespace sy
