// Registering and deregistering: Library lifetimes, stacking, order independence, and the errors
// a registration can raise (each leaves the dispatcher unchanged).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using sy::DispatchKey;
using sy::DispatchKeySet;
using sy::Library;
using sy::OperatorHandle;
using sy::OperatorName;
using sy::Stack;
using sy::Tensor;
using sy::testing::errorMessageOf;
using sy::testing::raisesError;
using sy::testing::filled;
using sy::testing::tensorWithKeys;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string site(int line) { return std::string(__FILE__) + ":" + std::to_string(line); }

Tensor one(const Tensor&) { return filled(1); }
Tensor two(const Tensor&) { return filled(2); }
Tensor three(const Tensor&) { return filled(3); }

auto& registrationDispatcher() { return sy::Dispatcher::singleton(); }

double callOp(const std::string& name, DispatchKeySet keys) {
  return registrationDispatcher().findSchemaOrThrow(name, "").typed<Tensor(const Tensor&)>().call(tensorWithKeys(keys)).item<double>();
}

TEST(Registration, DestroyingALibraryRestoresThePreviousKernel) {
  Library def(Library::Fragment, "reg_restore");
  def.def("op(Tensor self) -> Tensor");
  Library first(Library::Impl, "reg_restore", DispatchKey::CPU);
  first.impl("op", &one);
  {
    Library second(Library::Impl, "reg_restore", DispatchKey::CPU);
    second.impl("op", &two);
    EXPECT_EQ(callOp("reg_restore::op", DispatchKey::CPU), 2);
  }
  EXPECT_EQ(callOp("reg_restore::op", DispatchKey::CPU), 1);
}

TEST(Registration, RemovingAnOlderKernelKeepsTheNewerOne) {
  Library def(Library::Fragment, "reg_older");
  def.def("op(Tensor self) -> Tensor");
  auto first = std::make_unique<Library>(Library::Impl, "reg_older", DispatchKey::CPU);
  first->impl("op", &one);
  Library second(Library::Impl, "reg_older", DispatchKey::CPU);
  second.impl("op", &two);
  first.reset();
  EXPECT_EQ(callOp("reg_older::op", DispatchKey::CPU), 2);
}

TEST(Registration, OperatorGoesWhenItsLastRegistrationGoes) {
  OperatorName name{"reg_goes::op", ""};
  {
    Library def(Library::Fragment, "reg_goes");
    def.def("op(Tensor self) -> Tensor");
    Library impl(Library::Impl, "reg_goes", DispatchKey::CPU);
    impl.impl("op", &one);
    EXPECT_TRUE(registrationDispatcher().findSchema(name).has_value());
  }
  EXPECT_FALSE(registrationDispatcher().findSchema(name).has_value());
  EXPECT_FALSE(registrationDispatcher().findOp(name).has_value());
  auto names = registrationDispatcher().getAllOpNames();
  EXPECT_EQ(std::find(names.begin(), names.end(), name), names.end());
}

TEST(Registration, OperatorWithKernelsButNoSchemaIsNotFoundBySchema) {
  Library impl(Library::Impl, "reg_noschema", DispatchKey::CPU);
  impl.impl("op", &one);
  EXPECT_FALSE(registrationDispatcher().findSchema({"reg_noschema::op", ""}).has_value());
  EXPECT_TRUE(registrationDispatcher().findOp({"reg_noschema::op", ""}).has_value());
}

TEST(Registration, HandleOutlivesTheOperatorAndReportsMissingKernel) {
  std::optional<OperatorHandle> handle;
  {
    Library def(Library::Fragment, "reg_handle");
    def.def("op(Tensor self) -> Tensor");
    Library impl(Library::Impl, "reg_handle", DispatchKey::CPU);
    impl.impl("op", &one);
    handle = registrationDispatcher().findSchemaOrThrow("reg_handle::op", "");
  }
  Stack stack{tensorWithKeys(DispatchKey::CPU)};
  EXPECT_THROW(handle->callBoxed(&stack), sy::Error);
}

// Registers kernels and fallbacks on several keys in the order given by `order`, and returns the
// resulting table dump.
std::string tableAfterRegisteringInOrder(const std::vector<int>& order) {
  std::vector<std::unique_ptr<Library>> libs;
  std::vector<std::function<void()>> steps = {
      [&] {
        libs.push_back(std::make_unique<Library>(Library::Fragment, "reg_order"));
        libs.back()->def("op(Tensor self) -> Tensor");
      },
      [&] {
        libs.push_back(std::make_unique<Library>(Library::Impl, "reg_order", DispatchKey::CPU));
        libs.back()->impl("op", &one);
      },
      [&] {
        libs.push_back(std::make_unique<Library>(Library::Impl, "reg_order", DispatchKey::PrivateUse1));
        libs.back()->impl("op", &two);
      },
      [&] {
        libs.push_back(std::make_unique<Library>(Library::Impl, "_", DispatchKey::Tracer));
        libs.back()->fallback(sy::CppFunction::makeFallthrough());
      },
      [&] {
        libs.push_back(std::make_unique<Library>(Library::Fragment, "reg_order"));
        libs.back()->impl("op", sy::dispatch(DispatchKey::CompositeImplicit, &three));
      },
  };
  for (int i : order) steps[i]();
  std::string dump = registrationDispatcher().findSchemaOrThrow("reg_order::op", "").dumpComputedTable();
  while (!libs.empty()) libs.pop_back();
  return dump;
}

TEST(Registration, RegisteringTheSameSetInEveryOrderGivesIdenticalTables) {
  std::vector<int> order{0, 1, 2, 3, 4};
  const std::string reference = tableAfterRegisteringInOrder(order);
  EXPECT_THAT(reference, HasSubstr("CPU: kernel"));
  EXPECT_THAT(reference, HasSubstr("PrivateUse2: alias kernel (CompositeImplicit)"));
  EXPECT_THAT(reference, HasSubstr("Tracer: backend fallback (fallthrough)"));
  int permutations = 0;
  while (std::next_permutation(order.begin(), order.end())) {
    EXPECT_EQ(tableAfterRegisteringInOrder(order), reference) << "order " << ::testing::PrintToString(order);
    ++permutations;
  }
  EXPECT_EQ(permutations, 119);
}

TEST(Registration, DumpShowsEachEntrysSourceAndSite) {
  Library def(Library::Fragment, "reg_dump");
  def.def("op(Tensor self) -> Tensor");
  Library impl(Library::Impl, "reg_dump", DispatchKey::CPU);
  impl.impl("op", &one); const int line = __LINE__;
  Library fallthrough(Library::Impl, "_", DispatchKey::PrivateUse3);
  fallthrough.fallback(sy::CppFunction::makeFallthrough()); const int fallthrough_line = __LINE__;
  std::string dump = registrationDispatcher().findSchemaOrThrow("reg_dump::op", "").dumpComputedTable();
  EXPECT_THAT(dump, StartsWith("reg_dump::op (nonFallthroughKeys: DispatchKeySet(CPU, Accel, PrivateUse1, PrivateUse2, "
                               "ZeroTensor, AutogradCPU, AutogradAccel, AutogradPrivateUse1, AutogradPrivateUse2, "
                               "AutogradPrivateUse3, Tracer, Profiler, TESTING_ONLY_GenericWrapper, "
                               "TESTING_ONLY_GenericMode))\n"));
  EXPECT_THAT(dump, HasSubstr("  Undefined: missing\n"));
  EXPECT_THAT(dump, HasSubstr("  CPU: kernel [registered at " + site(line) + "]\n"));
  EXPECT_THAT(dump, HasSubstr("  PrivateUse1: missing\n"));
  EXPECT_THAT(dump, HasSubstr("  PrivateUse3: backend fallback (fallthrough) [registered at " + site(fallthrough_line) + "]\n"));
}

// ---- Errors ----------------------------------------------------------------------------------

TEST(RegistrationErrors, MissingKernelNamesOperatorKeyAndEveryRegistration) {
  Library def(Library::Fragment, "reg_missing");
  def.def("op(Tensor self) -> Tensor");
  Library impl(Library::Impl, "reg_missing", DispatchKey::CPU);
  impl.impl("op", &one); const int cpu_line = __LINE__;
  Library fallthrough(Library::Impl, "_", DispatchKey::Tracer);
  fallthrough.fallback(sy::CppFunction::makeFallthrough()); const int tracer_line = __LINE__;
  const auto call = [] { callOp("reg_missing::op", {DispatchKey::CPU, DispatchKey::PrivateUse1}); };
  EXPECT_TRUE(raisesError(call, sy::ErrorKind::NotImplemented, "Could not run 'reg_missing::op'"));
  const std::string error = errorMessageOf(call);
  EXPECT_THAT(error, StartsWith("Could not run 'reg_missing::op' with arguments from the 'PrivateUse1' backend: it has "
                                "no kernel and no backend fallback registered for PrivateUse1. The call's dispatch key "
                                "set was DispatchKeySet(CPU, PrivateUse1).\n"
                                "'reg_missing::op' has these kernels and fallbacks:\n"
                                "  CPU: kernel registered at " + site(cpu_line) + "\n"));
  // Fallbacks the library registers itself (profiler, zero tensors, ...) are listed too.
  EXPECT_THAT(error, HasSubstr("  Tracer: fallthrough backend fallback registered at " + site(tracer_line) + "\n"));
  EXPECT_THAT(error, HasSubstr("  Profiler: backend fallback registered at fallback/profiler.cpp:"));
}

TEST(RegistrationErrors, CallWithNoTensorArgumentsAndNoFallback) {
  Library def(Library::Fragment, "reg_notensor");
  def.def("op(int x) -> Tensor");
  Library impl(Library::Impl, "reg_notensor", DispatchKey::CPU);
  impl.impl("op", [](int64_t) { return filled(1); });
  auto op = registrationDispatcher().findSchemaOrThrow("reg_notensor::op", "").typed<Tensor(int64_t)>();
  EXPECT_THAT(errorMessageOf([&] { op.call(3); }),
              StartsWith("Could not run 'reg_notensor::op': the call has no tensor arguments to take a dispatch key "
                         "from (nor a Device argument), no key in the thread-local included set, and the operator "
                         "has no CompositeExplicit or CompositeImplicit kernel to run without one.\n"));
}

TEST(RegistrationErrors, DuplicateDefNamesBothSites) {
  Library first(Library::Fragment, "reg_dupdef");
  first.def("op(Tensor self) -> Tensor"); const int first_line = __LINE__;
  Library second(Library::Fragment, "reg_dupdef");
  const std::string error = errorMessageOf([&] { second.def("op(Tensor self) -> Tensor"); }); const int line = __LINE__;
  EXPECT_EQ(error,
            "Tried to register operator reg_dupdef::op(Tensor self) -> Tensor at " + site(line) +
                ", but an operator with that name is already registered at " + site(first_line) +
                "; each operator is defined exactly once");
}

TEST(RegistrationErrors, DuplicateLibraryForANamespaceNamesBothSites) {
  Library first(Library::Def, "reg_duplib"); const int first_line = __LINE__;
  int second_line = 0;
  const std::string error = errorMessageOf([&] { second_line = __LINE__; Library second(Library::Def, "reg_duplib"); });
  EXPECT_EQ(error,
            "Only one SY_LIBRARY/TORCH_LIBRARY block may be defined for namespace 'reg_duplib', but a second one is registered at " +
                site(second_line) + " (the first is at " + site(first_line) +
                "). Use SY_LIBRARY_FRAGMENT/TORCH_LIBRARY_FRAGMENT to add definitions to a namespace from several places.");
}

TEST(RegistrationErrors, TheNamespacesSwitchyardDefinesCannotBeClaimedAgain) {
  for (const char* ns : {"aten", "dim_order_ops"}) {
    const std::string error = errorMessageOf([&] { Library again(Library::Def, ns); });
    EXPECT_THAT(error, HasSubstr(std::string("Only one SY_LIBRARY/TORCH_LIBRARY block may be defined for namespace '") +
                                 ns + "'"));
    EXPECT_THAT(error, HasSubstr("ops/aten_schemas.cpp:"));
  }
}

TEST(RegistrationErrors, DuplicateFallbackForAKeyNamesBothSites) {
  Library first(Library::Impl, "_", DispatchKey::PrivateUse3);
  first.fallback(sy::CppFunction::makeFallthrough()); const int first_line = __LINE__;
  Library second(Library::Impl, "_", DispatchKey::PrivateUse3);
  const std::string error = errorMessageOf([&] { second.fallback(sy::CppFunction::makeFallthrough()); }); const int line = __LINE__;
  EXPECT_EQ(error,
            "Tried to register a backend fallback for dispatch key PrivateUse3 at " + site(line) +
                ", but one is already registered at " + site(first_line) + "; a key has at most one backend fallback");
}

TEST(RegistrationErrors, FallbackOutsideTheUnderscoreNamespace) {
  Library lib(Library::Impl, "aten", DispatchKey::CPU); const int lib_line = __LINE__;
  const std::string error = errorMessageOf([&] { lib.fallback(sy::CppFunction::makeFallthrough()); }); const int line = __LINE__;
  EXPECT_EQ(error,
            "fallback() at " + site(line) + " is not allowed in SY_LIBRARY_IMPL/TORCH_LIBRARY_IMPL(aten, CPU) at " + site(lib_line) +
                ": backend fallbacks apply to every operator, so they are registered in SY_LIBRARY_IMPL/TORCH_LIBRARY_IMPL(_, Key, m) "
                "blocks");
}

TEST(RegistrationErrors, ImplSignatureDisagreeingWithTheSchemaShowsBoth) {
  Library def(Library::Fragment, "reg_sig");
  def.def("scale(Tensor self, float s) -> Tensor"); const int def_line = __LINE__;
  Library impl(Library::Impl, "reg_sig", DispatchKey::CPU);
  const std::string error = errorMessageOf([&] { impl.impl("scale", [](const Tensor& t, int64_t) { return t; }); });
  const int impl_line = __LINE__ - 1;
  EXPECT_EQ(error,
            "Inferred operator schema for a C++ kernel function doesn't match the expected function schema.\n"
            "  operator: reg_sig::scale\n"
            "  expected schema: reg_sig::scale(Tensor self, float s) -> Tensor\n"
            "    registered at " + site(def_line) + "\n"
            "  inferred schema: (Tensor, int) -> Tensor\n"
            "    registered at " + site(impl_line) + "\n"
            "  reason: argument 1 ('s') has type float in the schema but int in the C++ signature");
}

TEST(RegistrationErrors, KernelRegisteredBeforeItsSchemaIsCheckedWhenTheSchemaArrives) {
  Library impl(Library::Impl, "reg_late", DispatchKey::CPU);
  impl.impl("op", [](const Tensor& t) { return t; });
  Library def(Library::Fragment, "reg_late");
  EXPECT_THAT(errorMessageOf([&] { def.def("op(Tensor self, int n) -> Tensor"); }),
              HasSubstr("reason: the schema has 2 arguments but the C++ signature has 1"));
  EXPECT_FALSE(registrationDispatcher().findSchema({"reg_late::op", ""}).has_value());
}

TEST(RegistrationErrors, TypedCallWithTheWrongSignature) {
  Library def(Library::Fragment, "reg_typed");
  def.def("op(Tensor self) -> Tensor");
  OperatorHandle op = registrationDispatcher().findSchemaOrThrow("reg_typed::op", "");
  EXPECT_EQ(errorMessageOf([&] { op.typed<Tensor(const Tensor&, int64_t)>(); }),
            "typed<sy::Tensor (sy::Tensor const&, long)>() does not fit the schema of reg_typed::op: the schema has 1 "
            "arguments but the C++ signature has 2.\n  schema: reg_typed::op(Tensor self) -> Tensor\n"
            "  signature: (Tensor, int) -> Tensor");
}

TEST(RegistrationErrors, TypedCallWithADifferentCppSignatureThanTheKernel) {
  Library def(Library::Fragment, "reg_cppsig");
  def.def("op(Tensor self) -> Tensor");
  Library impl(Library::Impl, "reg_cppsig", DispatchKey::CPU);
  impl.impl("op", &one); const int line = __LINE__;
  OperatorHandle op = registrationDispatcher().findSchemaOrThrow("reg_cppsig::op", "");
  EXPECT_EQ(errorMessageOf([&] { op.typed<Tensor(Tensor)>(); }),
            "Tried to access or call reg_cppsig::op with a wrong C++ signature.\n"
            "  correct signature: sy::Tensor (sy::Tensor const&)\n"
            "    registered at " + site(line) + "\n"
            "  accessed/called as: sy::Tensor (sy::Tensor)");
}

TEST(RegistrationErrors, MalformedSchemaNamesTheColumnAndTheSite) {
  Library def(Library::Fragment, "reg_malformed");
  EXPECT_THAT(errorMessageOf([&] { def.def("reg_malformed::op(Tensor self int x) -> Tensor"); }),
              StartsWith("Schema parse error at column "));
  const std::string error = errorMessageOf([&] { def.def("reg_malformed::op(Tensor self int x) -> Tensor"); });
  EXPECT_THAT(error, HasSubstr("(in def() at " + site(__LINE__ - 1)));
  EXPECT_FALSE(registrationDispatcher().findSchema({"reg_malformed::op", ""}).has_value());
}

TEST(RegistrationErrors, DefInAnotherNamespaceThanTheLibrary) {
  Library def(Library::Fragment, "reg_ns");
  EXPECT_THAT(errorMessageOf([&] { def.def("other::op(Tensor self) -> Tensor"); }),
              HasSubstr("the operator's namespace must be 'reg_ns'"));
}

TEST(RegistrationErrors, ImplInTheUnderscoreNamespace) {
  Library lib(Library::Impl, "_", DispatchKey::CPU);
  EXPECT_THAT(errorMessageOf([&] { lib.impl("op", &one); }), HasSubstr("the _ namespace only takes fallback()"));
}

TEST(RegistrationErrors, FallbackOnAnAliasKey) {
  Library lib(Library::Impl, "_", DispatchKey::CompositeImplicit);
  EXPECT_THAT(errorMessageOf([&] { lib.fallback(sy::CppFunction::makeFallthrough()); }),
              HasSubstr("for dispatch key CompositeImplicit; a fallback needs a backend or functionality key (alias keys "
                        "only take per-operator kernels)"));
}

TEST(RegistrationErrors, FailedRegistrationLeavesTheTableUnchanged) {
  Library def(Library::Fragment, "reg_unchanged");
  def.def("op(Tensor self) -> Tensor");
  Library impl(Library::Impl, "reg_unchanged", DispatchKey::CPU);
  impl.impl("op", &one);
  OperatorHandle op = registrationDispatcher().findSchemaOrThrow("reg_unchanged::op", "");
  const std::string before = op.dumpComputedTable();
  Library bad(Library::Impl, "reg_unchanged", DispatchKey::PrivateUse1);
  EXPECT_THROW(bad.impl("op", [](const Tensor& t, double) { return t; }), sy::Error);
  EXPECT_THROW(def.def("op(Tensor self) -> Tensor"), sy::Error);
  Library bad_fallback(Library::Impl, "_", DispatchKey::CompositeExplicit);
  EXPECT_THROW(bad_fallback.fallback(sy::CppFunction::makeFallthrough()), sy::Error);
  EXPECT_EQ(op.dumpComputedTable(), before);
  EXPECT_EQ(callOp("reg_unchanged::op", DispatchKey::CPU), 1);
}

TEST(RegistrationErrors, FindSchemaOrThrowListsOtherOverloads) {
  Library def(Library::Fragment, "reg_find");
  def.def("op(Tensor self) -> Tensor");
  def.def("op.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_EQ(errorMessageOf([] { registrationDispatcher().findSchemaOrThrow("reg_find::op", "Tensor"); }),
            "Could not find schema for reg_find::op.Tensor; reg_find::op has the overloads '', 'out'");
}

}  // namespace
