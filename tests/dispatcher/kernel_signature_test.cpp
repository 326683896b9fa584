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
  EXPECT_THAT(error, HasSubstr("return 0 is a reference (Tensor&) in the C++ signature"));
}

TEST(KernelSignature, AReferenceReturnIsRejectedWhenTheSchemaArrivesLater) {
  Library bad(Library::IMPL, "sig_ref_late", DispatchKey::CPU);
  bad.impl("f", &returnsItsArgument);
  Library def(Library::FRAGMENT, "sig_ref_late");
  EXPECT_THAT(errorMessageOf([&] { def.def("f(Tensor(a!) self) -> Tensor"); }),
              HasSubstr("return 0 is a reference (Tensor&) in the C++ signature"));
}

TEST(KernelSignature, AReferenceReturnForAnAliasedResultIsAccepted) {
  Library def(Library::FRAGMENT, "sig_ref_ok");
  def.def("f_(Tensor(a!) self) -> Tensor(a!)");
  Library impl(Library::IMPL, "sig_ref_ok", DispatchKey::CPU);
  impl.impl("f_", &returnsItsArgument);
  Tensor t = sy::zeros({1});
  EXPECT_EQ(&signatureDispatcher().findSchemaOrThrow("sig_ref_ok::f_", "").typed<Tensor&(Tensor&)>().call(t), &t);
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
