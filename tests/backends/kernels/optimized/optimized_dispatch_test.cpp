// Which calls the optimized kernels take once switchyard::optimized is linked: contiguous Float
// tensors of rank 0 to 8 reach them; every other dtype, layout, rank or device continues to the
// portable CPU kernel, which a counting kernel stacked on the CPU key observes. Also what the
// kernels themselves guarantee: out= resizing, aliasing, empty tensors, errors.
#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/devices/cpu/unary_kernels.h"
#include "switchyard/dispatcher/derived_kernels.h"
#include "switchyard/dispatcher/partial_kernels.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using sy::testing::errorMessageOf;
using sy::testing::functionalCall;
using sy::testing::iota;
using sy::testing::valuesOf;
using sy::testing::viewOf;
using ::testing::HasSubstr;

// The portable kernel of aten::exp's forms, counting the calls that reach it: registered as the
// generator registers it, as the out variant and the functional and in-place forms derived from it.
int g_portable_calls = 0;
Tensor& countingExpOut(const Tensor& self, Tensor& out, const KernelContext& ctx) {
  ++g_portable_calls;
  return cpu::exp_out_cpu(self, out, ctx);
}
constexpr KernelContext kCountingExpOut{"aten::exp.out", OutputForm::Out};
constexpr KernelContext kCountingExp{"aten::exp", OutputForm::Functional};
constexpr KernelContext kCountingExpInplace{"aten::exp_", OutputForm::InPlace};

class OptimizedDispatch : public ::testing::Test {
 protected:
  void SetUp() override {
    g_portable_calls = 0;
    counting_.impl("exp.out", withContext<&countingExpOut, &kCountingExpOut>());
    counting_.impl("exp", functionalKernel<&countingExpOut, &kCountingExp>());
    counting_.impl("exp_", inPlaceKernel<&countingExpOut, &kCountingExpInplace>());
  }
  // Whether an exp_out call reached the portable kernel, and that it computed exp either way.
  bool reachesPortable(const Tensor& self, Tensor& out) {
    const int before = g_portable_calls;
    EXPECT_EQ(&ops::exp_out(out, self), &out);
    expectExpOf(self, out);
    return g_portable_calls > before;
  }
  static void expectExpOf(const Tensor& self, const Tensor& out) {
    const Tensor expected = functionalCall(cpu::exp_out_cpu, "aten::exp", ops::contiguous(self));
    ASSERT_EQ(out.sizes(), self.sizes());
    const std::vector<double> want = sy::testing::doublesOf(expected);
    const std::vector<double> got = sy::testing::doublesOf(out);
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6 * std::abs(want[i])) << "element " << i;
  }
  Library counting_{Library::Impl, "aten", DispatchKey::CPU};
};

TEST_F(OptimizedDispatch, ContiguousFloatTensorsReachTheOptimizedKernel) {
  Tensor out = empty({2, 3});
  EXPECT_FALSE(reachesPortable(iota({2, 3}), out));
  Tensor out1 = empty({7});
  EXPECT_FALSE(reachesPortable(iota({7}), out1));
  Tensor out8 = empty({1, 2, 1, 2, 1, 2, 1, 2});
  EXPECT_FALSE(reachesPortable(iota({1, 2, 1, 2, 1, 2, 1, 2}), out8));
  const int before = g_portable_calls;
  ops::exp(iota({4}));
  Tensor y = iota({4});
  ops::exp_(y);
  EXPECT_EQ(g_portable_calls, before);
}

TEST_F(OptimizedDispatch, OtherDtypesLayoutsAndRanksReachThePortableKernel) {
  Tensor d_out = empty({3}, ScalarType::Double);
  EXPECT_TRUE(reachesPortable(iota<double>({3}), d_out));
  Tensor transposed_out = empty({3, 2});
  EXPECT_TRUE(reachesPortable(ops::transpose(iota({2, 3}), 0, 1), transposed_out));  // dim order 1, 0
  Tensor out9 = empty({1, 1, 1, 1, 1, 1, 1, 1, 2});  // rank 9: no key
  EXPECT_TRUE(reachesPortable(iota({1, 1, 1, 1, 1, 1, 1, 1, 2}), out9));
  Tensor double_out = empty({3}, ScalarType::Double);  // Float in, Double out
  EXPECT_TRUE(reachesPortable(iota({3}), double_out));
  Tensor long_out = empty({3});  // Long in: computed in Float by the portable kernel
  EXPECT_TRUE(reachesPortable(iota<int64_t>({3}), long_out));
  const int before = g_portable_calls;
  ops::exp(iota<double>({2}));
  Tensor t = ops::transpose(iota({2, 2}), 0, 1);
  ops::exp_(t);
  EXPECT_EQ(g_portable_calls, before + 2);
}

// Every other column of a matrix has the dim order 0, 1 of a contiguous matrix, so it matches the
// kernel's key; the kernel itself sees it is not dense and hands it on (partial_kernel_decline.h).
TEST_F(OptimizedDispatch, AStridedViewWithAContiguousDimOrderIsHandedOnToThePortableKernel) {
  Tensor base = iota({2, 6});
  Tensor every_other = viewOf(base, {2, 3}, {6, 2});
  EXPECT_EQ(TensorMeta::of(every_other).dim_order, (DimOrder{0, 1}));
  Tensor out = empty({2, 3});
  EXPECT_TRUE(reachesPortable(every_other, out));
  Tensor strided_out_base = empty({2, 6});
  Tensor strided_out = viewOf(strided_out_base, {2, 3}, {6, 2});
  EXPECT_TRUE(reachesPortable(iota({2, 3}), strided_out));
  const int before = g_portable_calls;
  Tensor result = ops::exp(every_other);
  expectExpOf(every_other, result);
  ops::exp_(every_other);
  expectExpOf(viewOf(iota({2, 6}), {2, 3}, {6, 2}), every_other);
  EXPECT_EQ(valuesOf<float>(base)[1], 1.0f);  // the skipped column is untouched
  EXPECT_EQ(g_portable_calls, before + 2);
}

// A functionality key above PartialKernels sees a handed-on call once, not a second time.
int g_mode_exp_out_calls = 0;
void countingMode(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  if (op.schema().operator_name() == OperatorName{"aten::exp", "out"}) ++g_mode_exp_out_calls;
  op.redispatchBoxed(ks.remove(DispatchKey::TESTING_ONLY_GenericMode), stack);
}

TEST_F(OptimizedDispatch, AHandedOnCallPassesTheKeysAboveOnlyOnce) {
  Library mode(Library::Impl, "_", DispatchKey::TESTING_ONLY_GenericMode);
  mode.fallback(CppFunction::makeFromBoxedFunction<&countingMode>());
  Tensor base = iota({2, 6});
  Tensor every_other = viewOf(base, {2, 3}, {6, 2});
  Tensor out = empty({2, 3});
  g_mode_exp_out_calls = 0;
  {
    IncludeDispatchKeyGuard on(DispatchKey::TESTING_ONLY_GenericMode);
    ops::exp_out(out, every_other);
  }
  EXPECT_EQ(g_mode_exp_out_calls, 1);
  EXPECT_EQ(g_portable_calls, 1);
  expectExpOf(every_other, out);
}

TEST_F(OptimizedDispatch, TheComputedTableAndTheRegistryNameTheOptimizedKernels) {
  auto op = Dispatcher::singleton().findSchemaOrThrow("aten::exp", "out");
  EXPECT_THAT(op.dumpComputedTable(), HasSubstr("PartialKernels: kernel"));
  auto& registry = PartialKernelRegistry::singleton();
  for (const char* name : {"exp", "log", "sin", "cos", "tanh", "sigmoid", "acos"}) {
    auto resolved = registry.resolve(OperatorName{std::string("aten::") + name, "out"},
                                     {TensorMeta{ScalarType::Float, {0, 1}}, TensorMeta{ScalarType::Float, {0, 1}}});
    ASSERT_TRUE(resolved.ok()) << name << ": " << resolved.status();
    EXPECT_EQ((*resolved)->kernel_name, std::string("sy::optimized::native::") + name + "_out");
    EXPECT_THAT((*resolved)->site, HasSubstr("optimized.yaml:"));
    auto functional = registry.resolve(OperatorName{std::string("aten::") + name, ""}, {TensorMeta{ScalarType::Float, {}}});
    ASSERT_TRUE(functional.ok()) << name << ": " << functional.status();
    EXPECT_EQ((*functional)->kernel_name, std::string("sy::optimized::native::") + name);
  }
  auto double_key = registry.resolve(OperatorName{"aten::exp", "out"},
                                     {TensorMeta{ScalarType::Double, {0}}, TensorMeta{ScalarType::Double, {0}}});
  EXPECT_FALSE(double_key.ok());  // no default kernel: the portable kernel is the program's to bind
}

TEST_F(OptimizedDispatch, OutOfAnotherShapeIsResized) {
  Tensor out = empty({0});
  EXPECT_FALSE(reachesPortable(iota({10}), out));
  EXPECT_EQ(out.sizes(), IntArrayRef({10}));
  Tensor big = empty({4, 4});
  EXPECT_FALSE(reachesPortable(iota({2, 3}), big));
  Tensor other_rank = empty({6});  // rank 1 against rank 2: no key, the portable kernel resizes
  EXPECT_TRUE(reachesPortable(iota({2, 3}), other_rank));
}

TEST_F(OptimizedDispatch, OutMayBeSelf) {
  Tensor x = iota({17});
  const Tensor expected = ops::exp(x);  // the optimized kernel too, so the values are identical
  EXPECT_EQ(&ops::exp_out(x, x), &x);
  EXPECT_EQ(valuesOf<float>(x), valuesOf<float>(expected));
  EXPECT_EQ(g_portable_calls, 0);
}

// An out= one element ahead of self in the same memory would overwrite elements still to be read:
// the kernel hands it on, and the portable kernel stages the result.
TEST_F(OptimizedDispatch, OutPartiallyOverlappingSelfGetsTheUnaliasedResult) {
  Tensor base = iota({18});
  Tensor self = ops::slice(base, 0, 0, 17);
  Tensor out = ops::slice(base, 0, 1, 18);
  const Tensor expected = functionalCall(cpu::exp_out_cpu, "aten::exp", ops::clone(self));
  ops::exp_out(out, self);
  EXPECT_EQ(valuesOf<float>(out), valuesOf<float>(expected));
  EXPECT_EQ(g_portable_calls, 1);
  // An out= sharing self's memory with another shape must not be resized under the loop.
  Tensor shared = iota({6});
  Tensor shared_out = viewOf(shared, {3}, {1});
  const Tensor expected_shared = functionalCall(cpu::exp_out_cpu, "aten::exp", ops::clone(shared));
  ops::exp_out(shared_out, shared);
  EXPECT_EQ(valuesOf<float>(shared_out), valuesOf<float>(expected_shared));
  EXPECT_EQ(g_portable_calls, 2);
}

TEST_F(OptimizedDispatch, EmptyTensorsStayEmpty) {
  Tensor out = empty({5});
  EXPECT_FALSE(reachesPortable(empty({0}), out));
  EXPECT_EQ(out.numel(), 0);
  Tensor out2 = empty({2, 0});
  EXPECT_FALSE(reachesPortable(empty({2, 0}), out2));
  EXPECT_EQ(ops::exp(empty({0, 3})).sizes(), IntArrayRef({0, 3}));
}

TEST_F(OptimizedDispatch, BadArgumentsRaiseThePortableKernelsErrors) {
  Tensor out = empty({3});
  EXPECT_THAT(errorMessageOf([&] { ops::exp_out(out, Tensor()); }), HasSubstr("aten::exp.out"));
  Tensor self = iota({3});
  Tensor undefined_out;
  EXPECT_NE(errorMessageOf([&] { ops::exp_out(undefined_out, self); }), "");
  Tensor long_out = empty({3}, ScalarType::Long);  // Float result into Long: a cast error
  EXPECT_THAT(errorMessageOf([&] { ops::exp_out(long_out, self); }), HasSubstr("can't be cast"));
}

}  // namespace
}  // namespace sy
