// A kernel's C++ signature against its operator's: what is checked when a kernel registers, what
// is reported when a boxed kernel returns the wrong type to an unboxed caller, and how long an
// operator's recorded signature lives.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using sy::DispatchKey;
using sy::Library;
using sy::OperatorHandle;
using sy::Stack;
using sy::Tensor;
using sy::testing::errorMessageOf;
using ::testing::AllOf;
using ::testing::HasSubstr;

Tensor freshResult(const Tensor&) { return sy::zeros({1}); }
Tensor& returnsItsArgument(Tensor& self) { return self; }
int64_t answer(const Tensor&) { return 42; }
Tensor timesTwo(const Tensor& self, int64_t) { return sy::ops::mul(self, sy::full({1}, 2.0)); }

auto& signatureDispatcher() { return sy::Dispatcher::singleton(); }

// ---- Returning a reference for a fresh result -------------------------------------------------

TEST(KernelSignature, AReferenceReturnForAFreshResultIsRejectedAtTheFirstKernel) {
  Library def(Library::FRAGMENT, "sig_ref");
  def.def("f(Tensor(a!) self) -> Tensor");
  Library bad(Library::IMPL, "sig_ref", DispatchKey::CPU);
  const std::string error = errorMessageOf([&] { bad.impl("f", &returnsItsArgument); });
  EXPECT_THAT(error, HasSubstr("operator: sig_ref::f"));
  EXPECT_THAT(error, HasSubstr("return 0 is Tensor in the schema, a new value, but Tensor& (a reference) in the C++ "
                               "signature; return it by value"));
}

TEST(KernelSignature, AReferenceReturnIsRejectedWhenTheSchemaArrivesLater) {
  Library bad(Library::IMPL, "sig_ref_late", DispatchKey::CPU);
  bad.impl("f", &returnsItsArgument);
  Library def(Library::FRAGMENT, "sig_ref_late");
  EXPECT_THAT(errorMessageOf([&] { def.def("f(Tensor(a!) self) -> Tensor"); }),
              HasSubstr("return 0 is Tensor in the schema, a new value, but Tensor& (a reference)"));
}

TEST(KernelSignature, AReferenceReturnForAnAliasedResultIsAccepted) {
  Library def(Library::FRAGMENT, "sig_ref_ok");
  def.def("f_(Tensor(a!) self) -> Tensor(a!)");
  Library impl(Library::IMPL, "sig_ref_ok", DispatchKey::CPU);
  impl.impl("f_", &returnsItsArgument);
  Tensor t = sy::zeros({1});
  EXPECT_EQ(&signatureDispatcher().findSchemaOrThrow("sig_ref_ok::f_", "").typed<Tensor&(Tensor&)>().call(t), &t);
}

// ---- A Tensor& return hands back an argument the caller passed as Tensor& ------------------------

Tensor& aTensorOfItsOwn(const Tensor&) {
  static Tensor kept = sy::zeros({1});
  return kept;
}
Tensor& returnsTheFirstOfTwo(Tensor& a, Tensor&) { return a; }
Tensor copiesItsArgument(Tensor& self) { return self; }
std::string signatureSite(int line) { return std::string(__FILE__) + ":" + std::to_string(line); }

TEST(KernelSignature, AReferenceReturnThatHandsBackNoArgumentIsRejectedWithBothReturnsAndTheSites) {
  Library def(Library::FRAGMENT, "sig_ref_plain");
  def.def("f(Tensor self) -> Tensor"); const int def_line = __LINE__;
  Library bad(Library::IMPL, "sig_ref_plain", DispatchKey::CPU);
  const std::string error = errorMessageOf([&] { bad.impl("f", &aTensorOfItsOwn); }); const int impl_line = __LINE__;
  EXPECT_EQ(error,
            "Inferred operator schema for a C++ kernel function doesn't match the expected function schema.\n"
            "  operator: sig_ref_plain::f\n"
            "  expected schema: sig_ref_plain::f(Tensor self) -> Tensor\n"
            "    registered at " + signatureSite(def_line) + "\n"
            "  inferred schema: (Tensor) -> Tensor&\n"
            "    registered at " + signatureSite(impl_line) + "\n"
            "  reason: return 0 is Tensor in the schema, a new value, but Tensor& (a reference) in the C++ "
            "signature, with no Tensor& parameter to hand back (without alias annotations, a reference return is "
            "the only Tensor& parameter, or for several returns the last ones in order); return it by value, or "
            "annotate the argument it writes and hands back in the schema (Tensor(a!))");
}

TEST(KernelSignature, AReferenceReturnWithTwoTensorParametersToChooseFromIsRejected) {
  Library def(Library::FRAGMENT, "sig_ref_two");
  def.def("f(Tensor a, Tensor b) -> Tensor");
  Library bad(Library::IMPL, "sig_ref_two", DispatchKey::CPU);
  EXPECT_THAT(errorMessageOf([&] { bad.impl("f", &returnsTheFirstOfTwo); }),
              HasSubstr("with no Tensor& parameter to hand back"));
}

TEST(KernelSignature, AByValueReturnForAWrittenReturnIsRejected) {
  Library def(Library::FRAGMENT, "sig_value_out");
  def.def("f_(Tensor(a!) self) -> Tensor(a!)");
  Library bad(Library::IMPL, "sig_value_out", DispatchKey::CPU);
  const std::string error = errorMessageOf([&] { bad.impl("f_", &copiesItsArgument); });
  EXPECT_THAT(error, AllOf(HasSubstr("operator: sig_value_out::f_"), HasSubstr("inferred schema: (Tensor) -> Tensor\n"),
                           HasSubstr("reason: return 0 is Tensor(a!) in the schema, the argument the operator writes, "
                                     "but Tensor (a new value) in the C++ signature; return that argument as Tensor&")));
}

TEST(KernelSignature, ATypedCallMustNameTheReturnAsTheSchemaDoes) {
  Library def(Library::FRAGMENT, "sig_typed_ref");
  def.def("f(Tensor self) -> Tensor");
  def.def("g.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  auto& dispatcher = signatureDispatcher();
  EXPECT_THAT(errorMessageOf([&] { dispatcher.findSchemaOrThrow("sig_typed_ref::f", "").typed<Tensor&(const Tensor&)>(); }),
              HasSubstr("return 0 is Tensor in the schema, a new value, but Tensor& (a reference)"));
  EXPECT_THAT(errorMessageOf([&] {
                dispatcher.findSchemaOrThrow("sig_typed_ref::g", "out").typed<Tensor(const Tensor&, Tensor&)>();
              }),
              HasSubstr("return 0 is Tensor(a!) in the schema, the argument the operator writes"));
}

// PyTorch's convention for a schema without alias annotations (an inferred one here): the only
// Tensor& parameter is the one a Tensor& return hands back.
TEST(KernelSignature, AnUnannotatedSchemaHandsBackTheOnlyTensorReferenceParameter) {
  Library def(Library::FRAGMENT, "sig_inferred_ref");
  def.def("f_", &returnsItsArgument);
  const OperatorHandle op = signatureDispatcher().findSchemaOrThrow("sig_inferred_ref::f_", "");
  EXPECT_EQ(op.schema().toString(), "sig_inferred_ref::f_(Tensor _0) -> Tensor");
  Tensor t = sy::zeros({1});
  EXPECT_EQ(&op.typed<Tensor&(Tensor&)>().call(t), &t);
}

// ---- A boxed kernel returning the wrong type to an unboxed caller ------------------------------

// A PrivateUse2 fallback that drops the arguments and leaves `result` in their place.
void leaveFromFallback(Library& fallback, sy::IValue result) {
  fallback.fallback(sy::CppFunction::makeFromBoxedLambda([result](const OperatorHandle& op, Stack* stack) {
    sy::drop(stack, op.schema().arguments().size());
    stack->push_back(result);
  }));
}

Tensor throughPrivateUse2() {
  Tensor self = sy::zeros({1});
  self.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse2});
  return self;
}

TEST(KernelSignature, AFallbackReturningTheWrongTypeIsNamedWithTheOperatorAndKey) {
  Library def(Library::FRAGMENT, "sig_boxed");
  def.def("f(Tensor self) -> Tensor");
  Library fallback(Library::IMPL, "_", DispatchKey::PrivateUse2);
  leaveFromFallback(fallback, std::string("not a tensor"));
  const auto op = signatureDispatcher().findSchemaOrThrow("sig_boxed::f", "").typed<Tensor(const Tensor&)>();
  EXPECT_THAT(errorMessageOf([&] { op.call(throughPrivateUse2()); }),
              AllOf(HasSubstr("the boxed kernel for sig_boxed::f on dispatch key PrivateUse2"),
                    HasSubstr("return 0 must be Tensor but the kernel left a value of type str")));
}

TEST(KernelSignature, AFallbackReturningTheWrongTypeForAnIntResultIsNamedToo) {
  Library def(Library::FRAGMENT, "sig_boxed_int");
  def.def("f(Tensor self) -> int");
  Library fallback(Library::IMPL, "_", DispatchKey::PrivateUse2);
  leaveFromFallback(fallback, 1.5);
  const auto op = signatureDispatcher().findSchemaOrThrow("sig_boxed_int::f", "").typed<int64_t(const Tensor&)>();
  EXPECT_THAT(errorMessageOf([&] { op.call(throughPrivateUse2()); }),
              AllOf(HasSubstr("sig_boxed_int::f on dispatch key PrivateUse2"),
                    HasSubstr("return 0 must be int but the kernel left a value of type float")));
}

TEST(KernelSignature, AFallbackReturningTheWrongTypeForAnOutResultIsNamedToo) {
  Library def(Library::FRAGMENT, "sig_boxed_out");
  def.def("f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  Library fallback(Library::IMPL, "_", DispatchKey::PrivateUse2);
  leaveFromFallback(fallback, int64_t{3});
  Tensor out = sy::zeros({1});
  const auto op = signatureDispatcher().findSchemaOrThrow("sig_boxed_out::f", "out").typed<Tensor&(const Tensor&, Tensor&)>();
  EXPECT_THAT(errorMessageOf([&] { op.call(throughPrivateUse2(), out); }),
              HasSubstr("return 0 must be Tensor but the kernel left a value of type int"));
}

// ---- The recorded signature goes with the operator's last registration -------------------------

TEST(KernelSignature, AnOperatorRedefinedWithAnotherSignatureAfterItsLibrariesAreGone) {
  {
    Library def(Library::FRAGMENT, "sig_again");
    def.def("f(Tensor self) -> int");
    Library impl(Library::IMPL, "sig_again", DispatchKey::CPU);
    impl.impl("f", &answer);
  }
  Library def(Library::FRAGMENT, "sig_again");
  def.def("f(Tensor self, int n) -> Tensor");
  Library impl(Library::IMPL, "sig_again", DispatchKey::CPU);
  impl.impl("f", &timesTwo);
  const auto op = signatureDispatcher().findSchemaOrThrow("sig_again::f", "").typed<Tensor(const Tensor&, int64_t)>();
  EXPECT_EQ(op.call(sy::full({1}, 3.0), 0).item<double>(), 6.0);
}

TEST(KernelSignature, TheSignatureStaysWhileAKernelOfTheOperatorRemains) {
  auto def = std::make_unique<Library>(Library::FRAGMENT, "sig_stays");
  def->def("f(Tensor self) -> int");
  Library impl(Library::IMPL, "sig_stays", DispatchKey::CPU);
  impl.impl("f", &answer);
  def.reset();
  Library redefinition(Library::FRAGMENT, "sig_stays");
  EXPECT_THAT(errorMessageOf([&] { redefinition.def("f(Tensor self, int n) -> Tensor"); }),
              HasSubstr("doesn't match the expected function schema"));
}

TEST(KernelSignature, ATypedAccessKeepsTheSignatureItWasCheckedAgainst) {
  {
    Library def(Library::FRAGMENT, "sig_typed");
    def.def("f(Tensor self) -> int");
    Library impl(Library::IMPL, "sig_typed", DispatchKey::CPU);
    impl.impl("f", &answer);
    signatureDispatcher().findSchemaOrThrow("sig_typed::f", "").typed<int64_t(const Tensor&)>();
  }
  // A TypedOperatorHandle made above may still be called, so its signature must stay the operator's.
  Library def(Library::FRAGMENT, "sig_typed");
  EXPECT_THAT(errorMessageOf([&] { def.def("f(Tensor self, int n) -> Tensor"); }),
              AllOf(HasSubstr("doesn't match the expected function schema"), HasSubstr("a typed<>() call")));
}

}  // namespace
