// What the kernel YAML reader used to accept silently or expand without bound: a key given twice in
// a map, a key or a name that is a list, a second document, a file that is not one, an alias naming
// a value twice or none, and an arg_meta whose combinations exhaust memory. Each is an error naming
// the file and line. See Note [Kernel YAML is checked as written before it is read] and see Note [An
// arg_meta's kernel keys are counted before they are made].
#include <algorithm>
#include <chrono>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernel_yaml_test_support.h"
#include "switchyard/codegen/arg_meta.h"

namespace sy::codegen {
namespace {

using ::testing::HasSubstr;

constexpr const char* kScaleOut = "- func: my::scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)\n";
constexpr const char* kOneFloatKey = "  type_alias:\n    T0: [Float]\n  dim_order_alias:\n    D0: [0]\n  kernels:\n";

// An out variant of six tensors, each with a type alias of its own (T0..T5, listed by `dtypes`), and
// one dim order alias D0 (`orders`): an arg_meta makes (dtypes per alias)^6 x (orders) keys.
std::string sixTensorEntry(const std::string& dtypes, const std::string& orders) {
  std::string yaml = "- func: my::six.out(Tensor a, Tensor b, Tensor c, Tensor d, Tensor e, *, Tensor(a!) out) -> Tensor(a!)\n"
                     "  type_alias:\n";
  for (int i = 0; i < 6; ++i) yaml += "    T" + std::to_string(i) + ": " + dtypes + "\n";
  yaml += "  dim_order_alias:\n    D0: " + orders + "\n  kernels:\n    - arg_meta:\n";
  const char* args[] = {"a", "b", "c", "d", "e", "out"};
  for (int i = 0; i < 6; ++i) yaml += std::string("        ") + args[i] + ": [T" + std::to_string(i) + ", D0]\n";
  return yaml + "      kernel_name: my::six_out\n";
}

TEST_F(KernelYamlRules, RejectAnArgumentNamedTwiceInOneArgMeta) {
  EXPECT_THAT(errorOf(std::string(kScaleOut) + kOneFloatKey +
                      "    - arg_meta:\n        self: [T0, D0]\n        self: [T0, D0]\n        out: [T0, D0]\n"
                      "      kernel_name: my::a\n"),
              HasSubstr("kernels.yaml:9: error: duplicate key: 'self' is given twice in one map (first at line 8)"));
}

TEST_F(KernelYamlRules, RejectAKeyGivenTwiceInAnyMap) {
  EXPECT_THAT(errorOf(std::string(kScaleOut) + "  kernels: [{arg_meta: null, kernel_name: my::a}]\n"
                                               "  kernels: [{arg_meta: null, kernel_name: my::b}]\n"),
              HasSubstr("kernels.yaml:3: error: duplicate key: 'kernels' is given twice in one map (first at line 2)"));
  EXPECT_THAT(errorOf(std::string(kScaleOut) + "  type_alias:\n    T0: [Float]\n    T0: [Double]\n"
                                               "  kernels: [{arg_meta: null, kernel_name: my::a}]\n"),
              HasSubstr("kernels.yaml:4: error: duplicate key: 'T0' is given twice"));
  EXPECT_THAT(errorOf(std::string(kScaleOut) + "  kernels: [{arg_meta: null, kernel_name: my::a, kernel_name: my::b}]\n"),
              HasSubstr("kernels.yaml:2: error: duplicate key: 'kernel_name' is given twice"));
  // An anchored map is checked where it is written, once.
  EXPECT_THAT(errorOf("- op: mul.out\n  kernels: [&k {arg_meta: null, kernel_name: my::a, arg_meta: null}]\n"
                      "- {op: mul.out, kernels: [*k]}\n"),
              HasSubstr("kernels.yaml:2: error: duplicate key: 'arg_meta'"));
}

TEST_F(KernelYamlRules, RejectAKeyOrANameThatIsAListOrAMap) {
  EXPECT_THAT(errorOf("- {[op]: mul.out, kernels: [{arg_meta: null, kernel_name: my::a}]}\n"),
              HasSubstr("kernels.yaml:1: error: key: a key must be a name, not a list, a map or empty"));
  EXPECT_THAT(errorOf("- op: [mul.out]\n  kernels: [{arg_meta: null, kernel_name: my::a}]\n"),
              HasSubstr("kernels.yaml:1: error: op or func: the operator name must be a single value, not a list"));
  EXPECT_THAT(errorOf("- func: {my::f.out: x}\n  kernels: [{arg_meta: null, kernel_name: my::a}]\n"),
              HasSubstr("kernels.yaml:1: error: schema: the schema must be a single value, not a map"));
  EXPECT_THAT(errorOf(std::string(kScaleOut) + kOneFloatKey +
                      "    - arg_meta: {self: [[T0], D0], out: [T0, D0]}\n      kernel_name: my::a\n"),
              HasSubstr("kernels.yaml:7: error: arg_meta: the type alias of 'self' must be a single value, not a list"));
  EXPECT_THAT(errorOf(std::string(kScaleOut) + "  type_alias: {T0: {Float: 1}}\n  kernels: [{arg_meta: null, kernel_name: my::a}]\n"),
              HasSubstr("kernels.yaml:2: error: type_alias: T0 must be a dtype or a list of dtypes"));
}

TEST_F(KernelYamlRules, RejectAFieldAKernelDoesNotHave) {
  EXPECT_THAT(errorOf(std::string(kScaleOut) + "  kernels:\n    - arg_meta: null\n      kernel_name: my::a\n      kernal: my::b\n"),
              HasSubstr("kernels.yaml:5: error: unknown field: 'kernal' (a kernel has arg_meta and kernel_name)"));
}

TEST_F(KernelYamlRules, RejectASecondDocument) {
  EXPECT_THAT(errorOf("- op: mul.out\n  kernels: [{arg_meta: null, kernel_name: my::a}]\n---\n"
                      "- op: mul.out\n  kernels: [{arg_meta: null, kernel_name: my::b}]\n"),
              HasSubstr("kernels.yaml:3: error: kernel YAML: a second YAML document starts here"));
  // A stray comma after the list: YAML::Load alone read the file as the list and dropped the rest.
  EXPECT_THAT(errorOf("- op: mul.out\n  kernels: [{arg_meta: null, kernel_name: my::a}]\n,\n"),
              HasSubstr("kernels.yaml:3: error: kernel YAML: a second YAML document starts here"));
}

TEST_F(KernelYamlRules, RejectAPathThatIsNotARegularFile) {
  KernelLibrary library;
  try {
    parseKernelYaml(dir_.string(), existing_, library);
    ADD_FAILURE() << "a directory was read as an empty kernel YAML file";
  } catch (const CodegenError& e) {
    EXPECT_THAT(e.what(), HasSubstr(dir_.string() + ": error: not a regular file"));
  }
}

TEST_F(KernelYamlRules, RejectAnAliasNamingAValueTwiceOrNone) {
  EXPECT_THAT(errorOf(std::string(kScaleOut) + "  type_alias:\n    T0: [Float, Double, Float]\n"
                                               "  kernels: [{arg_meta: null, kernel_name: my::a}]\n"),
              HasSubstr("kernels.yaml:3: error: type_alias: T0 names Float twice"));
  EXPECT_THAT(errorOf(std::string(kScaleOut) + "  dim_order_alias:\n    D0: [[0, 1], [1, 0], [0, 1]]\n"
                                               "  kernels: [{arg_meta: null, kernel_name: my::a}]\n"),
              HasSubstr("kernels.yaml:3: error: dim_order_alias: D0 names the dim order [0, 1] twice"));
  EXPECT_THAT(errorOf(std::string(kScaleOut) + "  type_alias:\n    T0: []\n"
                                               "  kernels: [{arg_meta: null, kernel_name: my::a}]\n"),
              HasSubstr("kernels.yaml:3: error: type_alias: T0 names no dtype, so it would make no kernel key"));
}

TEST_F(OwnedOperatorYaml, RejectAnArgumentNamedTwiceInCppNoDefaultArgs) {
  EXPECT_THAT(errorOf("- func: clampish(Tensor self, Scalar? min=None) -> Tensor\n  cpp_no_default_args: [min, min]\n"),
              HasSubstr("kernels.yaml:2: error: cpp_no_default_args: 'min' is named twice"));
}

// Six aliases repeating one dtype twenty times would be 20^6 = 64 million keys: refused at the
// first repeated dtype, before anything is expanded.
TEST_F(KernelYamlRules, RefuseRepeatedDtypesBeforeExpandingThem) {
  std::string twenty = "[Float";
  for (int i = 1; i < 20; ++i) twenty += ", Float";
  twenty += "]";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(errorOf(sixTensorEntry(twenty, "[0]")), HasSubstr("kernels.yaml:3: error: type_alias: T0 names Float twice"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST_F(KernelYamlRules, RefuseAnArgMetaThatWouldMakeMoreKeysThanTheBound) {
  // 5 dtypes ^ 6 aliases x 24 dim orders of rank 4 = 375000 keys.
  std::string orders = "[";
  int order[] = {0, 1, 2, 3};
  do {
    orders += std::string(orders.size() > 1 ? ", " : "") + "[" + std::to_string(order[0]) + ", " + std::to_string(order[1]) +
              ", " + std::to_string(order[2]) + ", " + std::to_string(order[3]) + "]";
  } while (std::next_permutation(order, order + 4));
  orders += "]";
  const std::string first = "- op: mul.out\n  type_alias: {T0: [Float, Double]}\n  dim_order_alias: {D0: [0]}\n"
                            "  kernels: [{arg_meta: {self: [T0, D0], other: [T0, D0], out: [T0, D0]}, kernel_name: my::mul}]\n";
  const std::string error = errorOf(first + sixTensorEntry("[Bool, Int, Long, Float, Double]", orders));
  EXPECT_THAT(error, HasSubstr("kernels.yaml:17: error: too many kernel keys: this arg_meta of my::six.out (kernel "
                               "my::native::six_out) would make 375000 kernel keys (T0: 5 x T1: 5 x T2: 5 x T3: 5 x "
                               "T4: 5 x T5: 5 x D0: 24), and a library may have at most " +
                               std::to_string(kMaxKernelKeys) + " (it has 2 before this one)"));
  // Within the bound, every combination is a key.
  KernelLibrary library = parse(sixTensorEntry("[Bool, Int, Long, Float, Double]", "[[0, 1], [1, 0]]"));
  EXPECT_EQ(library.operators.at(0).kernels.size(), 31250u);
}

}  // namespace
}  // namespace sy::codegen
