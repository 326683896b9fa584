// Kernel calls with a call shape (See Note [A shaped kernel call is one typed call through the
// dispatcher], program/kernel_call_shapes.h): the same results and errors as the boxed path, and
// still calls through the dispatcher, which the profiler and fallbacks see.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switchyard/fallback/profiler.h"
#include "switchyard/program/kernel_call.h"
#include "switchyard/program/program.h"
#include "switchyard/program/testing/program_builder.h"
#include "switchyard/switchyard.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using program_internal::CallShaping;
using program_internal::PreparedKernelCall;
using testing::doublesOf;
using testing::ProgramBuilder;

// aten::add.out's schema, with a kernel that is boxed only: it has no C++ signature, so its calls
// run boxed. It runs aten::add.out, so its results are add.out's.
void addThroughABoxedKernel(const OperatorHandle&, Stack* stack) {
  Dispatcher::singleton().findSchemaOrThrow("aten::add", "out").callBoxed(stack);
}
SY_LIBRARY(program_call_shapes_test, m) {
  m.def("add_boxed.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
}
SY_LIBRARY_IMPL(program_call_shapes_test, CPU, m) {
  m.impl("add_boxed.out", CppFunction::makeFromBoxedFunction<&addThroughABoxedKernel>());
}

// ---- The internal path: one prepared call, shaped and boxed ----------------------------------

struct CallResult {
  bool shaped = false;
  Tensor out;
  std::string error;
};

// Runs `op` once on `make_arguments()` (the schema's arguments in order, the out tensor last, which
// is also the call's result), prepared with `shaping`.
CallResult runPrepared(const OperatorHandle& op, const std::function<std::vector<IValue>()>& make_arguments,
                       CallShaping shaping) {
  std::vector<IValue> values = make_arguments();
  std::vector<int32_t> args;
  for (size_t i = 0; i < values.size(); ++i) args.push_back(static_cast<int32_t>(i));
  args.push_back(static_cast<int32_t>(values.size() - 1));
  const std::vector<std::vector<int32_t>> list_items(values.size());
  const std::vector<bool> changing(values.size(), false);
  absl::StatusOr<PreparedKernelCall> call =
      program_internal::prepareKernelCall(op, args, values, list_items, changing, "test", shaping);
  EXPECT_TRUE(call.ok()) << call.status();
  if (!call.ok()) return {};
  CallResult result;
  result.shaped = call->shaped != nullptr;
  Stack stack;
  try {
    if (call->shaped != nullptr) {
      call->shaped->run();
    } else {
      program_internal::runBoxedKernelCall(*call, stack, values);
    }
  } catch (const Error& e) {
    result.error = e.what();
  }
  result.out = values.back().toTensor();
  return result;
}

struct ShapeCase {
  const char* name;
  const char* overload;
  std::function<std::vector<IValue>()> arguments;
};

Tensor floats(std::vector<float> v, std::vector<int64_t> sizes) { return tensor(v, sizes); }

std::vector<ShapeCase> oneOperatorPerShape() {
  auto x = [] { return floats({1, -2, 3, -4, 5, -6}, {2, 3}); };
  auto y = [] { return floats({0.5f, 0.25f, 2, 4, -1, 8}, {2, 3}); };
  auto out = [](std::vector<int64_t> sizes = {2, 3}) { return zeros(sizes); };
  return {
      {"aten::neg", "out", [=] { return std::vector<IValue>{x(), out()}; }},
      {"aten::mul", "out", [=] { return std::vector<IValue>{x(), y(), out()}; }},
      {"aten::ne", "Scalar_out",
       [=] { return std::vector<IValue>{x(), IValue(3), zeros({2, 3}, TensorOptions().dtype(ScalarType::Bool))}; }},
      {"aten::add", "out", [=] { return std::vector<IValue>{x(), y(), IValue(2.5), out()}; }},
      {"aten::add", "Scalar_out", [=] { return std::vector<IValue>{x(), IValue(1.5), IValue(2), out()}; }},
      {"aten::where", "self_out",
       [=] {
         return std::vector<IValue>{tensor<bool>({true, false, true, false, false, true}, {2, 3}), x(), y(), out()};
       }},
      {"aten::addmm", "out",
       [=] {
         return std::vector<IValue>{floats({1, 2}, {2}), x(), floats({1, 0, 2, 1, -1, 3}, {3, 2}), IValue(0.5), IValue(2),
                                    out({2, 2})};
       }},
      {"aten::permute_copy", "out", [=] { return std::vector<IValue>{x(), IValue(std::vector<int64_t>{1, 0}), out({3, 2})}; }},
      {"aten::unsqueeze_copy", "out", [=] { return std::vector<IValue>{x(), IValue(1), out({2, 1, 3})}; }},
      {"aten::select_copy", "int_out", [=] { return std::vector<IValue>{x(), IValue(1), IValue(2), out({2})}; }},
      {"aten::_softmax", "out", [=] { return std::vector<IValue>{x(), IValue(1), IValue(false), out()}; }},
      {"aten::amax", "out",
       [=] { return std::vector<IValue>{x(), IValue(std::vector<int64_t>{1}), IValue(true), out({2, 1})}; }},
      {"aten::mean", "out",
       [=] { return std::vector<IValue>{x(), IValue(std::vector<int64_t>{0}), IValue(false), IValue(), out({3})}; }},
      {"aten::clone", "out", [=] { return std::vector<IValue>{x(), IValue(), out()}; }},
      {"dim_order_ops::_to_dim_order_copy", "out",
       [=] { return std::vector<IValue>{x(), IValue(false), IValue(std::vector<int64_t>{0, 1}), out()}; }},
      {"aten::scalar_tensor", "out", [=] { return std::vector<IValue>{IValue(2.5), out({})}; }},
      {"aten::argmax", "out",
       [=] { return std::vector<IValue>{x(), IValue(1), IValue(false), zeros({2}, TensorOptions().dtype(ScalarType::Long))}; }},
      {"aten::full_like", "out", [=] { return std::vector<IValue>{x(), IValue(7), IValue(), out()}; }},
      {"aten::gather", "out",
       [=] {
         return std::vector<IValue>{x(), IValue(1), tensor<int64_t>({2, 0, 1, 1}, {2, 2}), IValue(false), out({2, 2})};
       }},
      {"aten::scatter", "value_out",
       [=] { return std::vector<IValue>{x(), IValue(1), tensor<int64_t>({2, 0}, {2, 1}), IValue(9), out()}; }},
  };
}

TEST(ProgramCallShapes, EveryShapeIsTheSignatureOfAnOperatorSwitchyardHas) {
  std::vector<std::string> signatures;
  for (const OperatorName& name : Dispatcher::singleton().getAllOpNames()) {
    std::optional<OperatorHandle> op = Dispatcher::singleton().findSchema(name);
    if (!op) continue;
    if (std::optional<std::type_index> signature = op->cppSignature()) signatures.push_back(demangle(signature->name()));
  }
  const std::vector<std::string> shapes = program_internal::callShapeNames();
  EXPECT_GE(shapes.size(), 10u);
  for (const std::string& shape : shapes) {
    EXPECT_THAT(signatures, ::testing::Contains(shape)) << "no operator has the shape " << shape;
  }
}

TEST(ProgramCallShapes, AShapedCallAndABoxedCallGiveTheSameResults) {
  const std::vector<ShapeCase> cases = oneOperatorPerShape();
  std::vector<std::string> covered;
  for (const ShapeCase& c : cases) {
    SCOPED_TRACE(std::string(c.name) + "." + c.overload);
    OperatorHandle op = Dispatcher::singleton().findSchemaOrThrow(c.name, c.overload);
    CallResult shaped = runPrepared(op, c.arguments, CallShaping::WhenPossible);
    CallResult boxed = runPrepared(op, c.arguments, CallShaping::Never);
    EXPECT_TRUE(shaped.shaped);
    EXPECT_FALSE(boxed.shaped);
    EXPECT_EQ(shaped.error, "");
    EXPECT_EQ(boxed.error, "");
    ASSERT_TRUE(shaped.out.defined() && boxed.out.defined());
    EXPECT_EQ(shaped.out.sizes(), boxed.out.sizes());
    EXPECT_EQ(shaped.out.scalar_type(), boxed.out.scalar_type());
    EXPECT_EQ(doublesOf(shaped.out), doublesOf(boxed.out));
    covered.push_back(demangle(op.cppSignature()->name()));
  }
  // One operator for every shape, so that none is untested.
  for (const std::string& shape : program_internal::callShapeNames()) {
    EXPECT_THAT(covered, ::testing::Contains(shape)) << "no case above has the shape " << shape;
  }
}

TEST(ProgramCallShapes, AShapedCallAndABoxedCallRaiseTheSameError) {
  // Float inputs, a Bool out tensor: the kernel refuses the cast either way.
  OperatorHandle op = Dispatcher::singleton().findSchemaOrThrow("aten::add", "out");
  auto arguments = [] {
    return std::vector<IValue>{ones({2}), ones({2}), IValue(1), zeros({2}, TensorOptions().dtype(ScalarType::Bool))};
  };
  CallResult shaped = runPrepared(op, arguments, CallShaping::WhenPossible);
  CallResult boxed = runPrepared(op, arguments, CallShaping::Never);
  EXPECT_TRUE(shaped.shaped);
  EXPECT_THAT(shaped.error, HasSubstr("aten::add.out"));
  EXPECT_EQ(shaped.error, boxed.error);
}

TEST(ProgramCallShapes, AnOperatorWithOnlyBoxedKernelsRunsBoxed) {
  OperatorHandle op = Dispatcher::singleton().findSchemaOrThrow("program_call_shapes_test::add_boxed", "out");
  EXPECT_FALSE(op.cppSignature().has_value());
  CallResult boxed =
      runPrepared(op, [] { return std::vector<IValue>{ones({2}), ones({2}), IValue(2), zeros({2})}; }, CallShaping::WhenPossible);
  EXPECT_FALSE(boxed.shaped);
  EXPECT_EQ(doublesOf(boxed.out), (std::vector<double>{3, 3}));
  // Loading did not make a signature the operator's: an unboxed kernel with another may still come.
  EXPECT_FALSE(op.cppSignature().has_value());
}

// ---- Through Method: a chain of add.out calls -----------------------------------------------

// out_0 = x + alpha * x, out_i = out_{i-1} + alpha * x, for `length` calls of `op` ("aten::add" or
// the boxed-only copy), alternating between two planned results.
Method chainMethod(const std::vector<std::string>& ops, int64_t alpha = 1) {
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int results[2] = {b.plannedTensor(ScalarType::Float, {2}, 1, 16), b.plannedTensor(ScalarType::Float, {2}, 1, 32)};
  int alpha_value = b.intValue(alpha);
  int add = b.op("aten::add", "out");
  int add_boxed = b.op("program_call_shapes_test::add_boxed", "out");
  int previous = x;
  for (size_t i = 0; i < ops.size(); ++i) {
    int out = results[i % 2];
    b.kernelCall(ops[i] == "aten::add" ? add : add_boxed, {previous, x, alpha_value, out, out});
    previous = out;
  }
  b.inputs({x}).outputs({previous}).bufferSizes({0, 48});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "chain.pte");
  EXPECT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  return std::move(*m);
}

std::vector<double> runOnce(Method& m) {
  absl::Status s = m.execute();
  EXPECT_TRUE(s.ok()) << s;
  return doublesOf(m.get_output(0).toTensor());
}

TEST(ProgramCallShapes, ShapedAndBoxedCallsInOneMethodRunInOrder) {
  // x = [1, 2]; five additions of x: 6x whichever way each call runs.
  const std::vector<double> expected{6, 12};
  for (const std::vector<std::string>& ops :
       {std::vector<std::string>(5, "aten::add"), std::vector<std::string>(5, "boxed"),
        std::vector<std::string>{"aten::add", "boxed", "aten::add", "aten::add", "boxed"},
        std::vector<std::string>{"boxed", "aten::add", "boxed", "boxed", "aten::add"}}) {
    Method m = chainMethod(ops);
    EXPECT_EQ(runOnce(m), expected) << ::testing::PrintToString(ops);
    EXPECT_EQ(runOnce(m), expected) << "second execute() of " << ::testing::PrintToString(ops);
  }
}

TEST(ProgramCallShapes, TheProfilerSeesEveryShapedCall) {
  Method m = chainMethod(std::vector<std::string>(4, "aten::add"));
  Profile profile;
  runOnce(m);
  runOnce(m);
  ProfileReport report = profile.stop();
  const OperatorProfile* add = report.find("aten::add.out");
  if (add == nullptr) add = report.find("aten::add");
  ASSERT_NE(add, nullptr) << report.table();
  EXPECT_EQ(add->count, 8);
}

// A mode fallback on TESTING_ONLY_GenericMode: counts the calls it sees, reads every argument when
// asked (so that they are boxed), and passes the call on.
int fallback_calls = 0;
bool fallback_reads = false;
std::vector<std::string> fallback_operators;
void countingFallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  ++fallback_calls;
  fallback_operators.push_back(op.operator_name().toString());
  if (fallback_reads) {
    for (const IValue& argument : std::as_const(*stack)) (void)argument.typeName();
  }
  op.redispatchBoxed(ks.remove(DispatchKey::TESTING_ONLY_GenericMode), stack);
}

TEST(ProgramCallShapes, AFallbackSeesEveryShapedCallAndItsArguments) {
  Library mode(Library::IMPL, "_", DispatchKey::TESTING_ONLY_GenericMode);
  mode.fallback(CppFunction::makeFromBoxedFunction<&countingFallback>());
  Method m = chainMethod(std::vector<std::string>(3, "aten::add"), /*alpha=*/2);
  for (bool reads : {false, true}) {
    fallback_calls = 0;
    fallback_reads = reads;
    fallback_operators.clear();
    IncludeDispatchKeyGuard on(DispatchKey::TESTING_ONLY_GenericMode);
    EXPECT_EQ(runOnce(m), (std::vector<double>{7, 14})) << "reads: " << reads;  // x + 3 * 2x
    EXPECT_EQ(fallback_calls, 3);
    EXPECT_EQ(fallback_operators, std::vector<std::string>(3, "aten::add.out"));
  }
  fallback_calls = 0;
  runOnce(m);  // outside the mode: the fallback is not on the path
  EXPECT_EQ(fallback_calls, 0);
}

TEST(ProgramCallShapes, AShapedCallsErrorNamesItsInstruction) {
  // Three shaped add.out calls; the third writes a Bool tensor, which the kernel refuses.
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int out = b.plannedTensor(ScalarType::Float, {2}, 1, 16);
  int flags = b.plannedTensor(ScalarType::Bool, {2}, 1, 32);
  int one = b.intValue(1);
  int add = b.op("aten::add", "out");
  b.kernelCall(add, {x, x, one, out, out}).kernelCall(add, {out, x, one, out, out}).kernelCall(add, {out, x, one, flags, flags});
  b.inputs({x}).outputs({out}).bufferSizes({0, 48});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish(), "flags.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  absl::Status s = m->execute();
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("program 'flags.pte': method 'forward': instruction 2 (aten::add.out) failed: "));
  EXPECT_EQ(doublesOf(m->get_output(0).toTensor()), (std::vector<double>{3, 6}));  // the two calls before it ran
}

TEST(ProgramCallShapes, AJumpIntoARunOfShapedCallsRunsTheRestOfIt) {
  // 0: out = x + 0 * x; 1: if !cond jump to 3; 2, 3, 4: out = out + x. cond: 4x, else 3x.
  ProgramBuilder b;
  int x = b.plannedTensor(ScalarType::Float, {2}, 1, 0);
  int out = b.plannedTensor(ScalarType::Float, {2}, 1, 16);
  int cond = b.boolValue(true);
  int zero = b.intValue(0);
  int one = b.intValue(1);
  int add = b.op("aten::add", "out");
  b.kernelCall(add, {x, x, zero, out, out});
  b.jumpFalseCall(cond, 3);
  for (int i = 0; i < 3; ++i) b.kernelCall(add, {out, x, one, out, out});
  b.inputs({x, cond}).outputs({out}).bufferSizes({0, 32});
  absl::StatusOr<Program> program = Program::loadFromBuffer(b.finish());
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, tensor(std::vector<float>{1, 2}, {2})).ok());
  EXPECT_EQ(runOnce(*m), (std::vector<double>{4, 8}));
  ASSERT_TRUE(m->set_input(1, IValue(false)).ok());
  EXPECT_EQ(runOnce(*m), (std::vector<double>{3, 6}));
}

}  // namespace
}  // namespace sy
