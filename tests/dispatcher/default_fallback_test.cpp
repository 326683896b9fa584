// A backend's own fallback replaces the library's default on its key (See Note [A backend's own
// fallback replaces the library's default]): without error, in either registration order, until
// it goes; and the table dump says which one is in effect. The autograd recorder is the default on
// AutogradPrivateUse1..3, which real PrivateUse1 backends take over with a fallthrough.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "switchyard/switchyard.h"
#include "test_support.h"

namespace {

using sy::CppFunction;
using sy::DispatchKey;
using sy::DispatchKeySet;
using sy::Library;
using sy::Stack;
using sy::Tensor;
using sy::testing::errorMessageOf;
using sy::testing::filled;
using sy::testing::tensorWithKeys;
using ::testing::HasSubstr;

std::string defaultFallbackSite(int line) { return std::string(__FILE__) + ":" + std::to_string(line); }

// Boxed fallbacks that answer with a tag, so a call shows which one ran.
void answerDefault(const sy::OperatorHandle&, DispatchKeySet, Stack* stack) {
  stack->clear();
  stack->emplace_back(filled(10));
}
void answerOwn(const sy::OperatorHandle&, DispatchKeySet, Stack* stack) {
  stack->clear();
  stack->emplace_back(filled(20));
}
Tensor cpuAnswer(const Tensor&) { return filled(1); }

// An operator with a CPU kernel only, so PrivateUse3 calls reach the key's fallback.
struct FallbackProbe {
  FallbackProbe() : def(Library::Fragment, "default_fallback_probe"), cpu(Library::Impl, "default_fallback_probe", DispatchKey::CPU) {
    def.def("op(Tensor self) -> Tensor");
    cpu.impl("op", &cpuAnswer);
  }
  double callOnPrivateUse3() const {
    return sy::Dispatcher::singleton()
        .findSchemaOrThrow("default_fallback_probe::op", "")
        .typed<Tensor(const Tensor&)>()
        .call(tensorWithKeys({DispatchKey::CPU, DispatchKey::PrivateUse3}))
        .item<double>();
  }
  std::string dump() const {
    return sy::Dispatcher::singleton().findSchemaOrThrow("default_fallback_probe::op", "").dumpComputedTable();
  }
  Library def;
  Library cpu;
};

TEST(DefaultFallback, ABackendsOwnFallbackReplacesTheDefaultWithoutError) {
  FallbackProbe probe;
  Library library_default(Library::Impl, "_", DispatchKey::PrivateUse3);
  library_default.defaultFallback(CppFunction::makeFromBoxedFunction<&answerDefault>());
  EXPECT_EQ(probe.callOnPrivateUse3(), 10);
  {
    Library backend(Library::Impl, "_", DispatchKey::PrivateUse3);
    backend.fallback(CppFunction::makeFromBoxedFunction<&answerOwn>());
    EXPECT_EQ(probe.callOnPrivateUse3(), 20);
  }
  EXPECT_EQ(probe.callOnPrivateUse3(), 10);  // the backend's library is gone: the default is back
}

TEST(DefaultFallback, ADefaultRegisteredAfterTheBackendsFallbackStaysBehindIt) {
  FallbackProbe probe;
  Library backend(Library::Impl, "_", DispatchKey::PrivateUse3);
  backend.fallback(CppFunction::makeFromBoxedFunction<&answerOwn>());
  {
    Library library_default(Library::Impl, "_", DispatchKey::PrivateUse3);
    library_default.defaultFallback(CppFunction::makeFromBoxedFunction<&answerDefault>());
    EXPECT_EQ(probe.callOnPrivateUse3(), 20);
  }
  EXPECT_EQ(probe.callOnPrivateUse3(), 20);
}

TEST(DefaultFallback, AFallthroughReplacesTheDefaultAndSkipsTheKey) {
  FallbackProbe probe;
  Library library_default(Library::Impl, "_", DispatchKey::PrivateUse3);
  library_default.defaultFallback(CppFunction::makeFromBoxedFunction<&answerDefault>());
  auto op = sy::Dispatcher::singleton().findSchemaOrThrow("default_fallback_probe::op", "");
  {
    Library backend(Library::Impl, "_", DispatchKey::PrivateUse3);
    backend.fallback(CppFunction::makeFallthrough());
    EXPECT_FALSE(op.entry().nonFallthroughKeys().has(DispatchKey::PrivateUse3));
    EXPECT_EQ(probe.callOnPrivateUse3(), 1);  // straight to the CPU kernel
  }
  EXPECT_TRUE(op.entry().nonFallthroughKeys().has(DispatchKey::PrivateUse3));
  EXPECT_EQ(probe.callOnPrivateUse3(), 10);
}

TEST(DefaultFallback, TheTableDumpSaysWhichFallbackIsInEffectAndWhy) {
  FallbackProbe probe;
  Library library_default(Library::Impl, "_", DispatchKey::PrivateUse3);
  library_default.defaultFallback(CppFunction::makeFromBoxedFunction<&answerDefault>()); const int default_line = __LINE__;
  EXPECT_THAT(probe.dump(), HasSubstr("  PrivateUse3: backend fallback [registered at " + defaultFallbackSite(default_line) +
                                      "] (the library's default for PrivateUse3; a backend's own fallback there replaces it)\n"));
  Library backend(Library::Impl, "_", DispatchKey::PrivateUse3);
  backend.fallback(CppFunction::makeFallthrough()); const int own_line = __LINE__;
  EXPECT_THAT(probe.dump(), HasSubstr("  PrivateUse3: backend fallback (fallthrough) [registered at " + defaultFallbackSite(own_line) +
                                      "] (a backend's own, replacing the library's default registered at " +
                                      defaultFallbackSite(default_line) + ")\n"));
  EXPECT_EQ(sy::Dispatcher::singleton().backendFallbackSite(DispatchKey::PrivateUse3), defaultFallbackSite(own_line));
}

TEST(DefaultFallback, TwoDefaultsOnOneKeyNameBothSites) {
  Library first(Library::Impl, "_", DispatchKey::PrivateUse3);
  first.defaultFallback(CppFunction::makeFallthrough()); const int first_line = __LINE__;
  Library second(Library::Impl, "_", DispatchKey::PrivateUse3);
  const std::string error = errorMessageOf([&] { second.defaultFallback(CppFunction::makeFallthrough()); });
  const int line = __LINE__ - 1;
  EXPECT_EQ(error,
            "Tried to register a default backend fallback for dispatch key PrivateUse3 at " + defaultFallbackSite(line) +
                ", but one is already registered at " + defaultFallbackSite(first_line) +
                "; a key has at most one default backend fallback");
}

TEST(DefaultFallback, TwoOwnFallbacksOnAKeyWithADefaultAreStillAnError) {
  Library library_default(Library::Impl, "_", DispatchKey::PrivateUse3);
  library_default.defaultFallback(CppFunction::makeFallthrough());
  Library first(Library::Impl, "_", DispatchKey::PrivateUse3);
  first.fallback(CppFunction::makeFallthrough()); const int first_line = __LINE__;
  Library second(Library::Impl, "_", DispatchKey::PrivateUse3);
  EXPECT_THAT(errorMessageOf([&] { second.fallback(CppFunction::makeFallthrough()); }),
              HasSubstr("but one is already registered at " + defaultFallbackSite(first_line) +
                        "; a key has at most one backend fallback"));
}

// ---- The autograd recorder on AutogradPrivateUse1..3 ---------------------------------------------

// `aten::acos` has no backward formula, so its autograd keys show the backend fallbacks.
std::string acosTable() { return sy::Dispatcher::singleton().findSchemaOrThrow("aten::acos", "").dumpComputedTable(); }

TEST(DefaultFallback, TheAutogradRecorderIsOnlyTheDefaultOnThePrivateUseAutogradKeys) {
  for (const char* key : {"AutogradPrivateUse1", "AutogradPrivateUse2", "AutogradPrivateUse3"}) {
    EXPECT_THAT(acosTable(), HasSubstr(std::string("  ") + key + ": backend fallback [registered at autograd/autograd_fallback.cpp:"));
    EXPECT_THAT(acosTable(), HasSubstr(std::string("(the library's default for ") + key + "; a backend's own fallback there replaces it)"));
  }
  // The library's own backends keep theirs: registering another there is still an error.
  EXPECT_THAT(acosTable(), ::testing::ContainsRegex("  AutogradCPU: backend fallback \\[registered at "
                                                    "autograd/autograd_fallback.cpp:[0-9]+\\]\n"));
  Library second(Library::Impl, "_", DispatchKey::AutogradCPU);
  EXPECT_THAT(errorMessageOf([&] { second.fallback(CppFunction::makeFallthrough()); }),
              HasSubstr("Tried to register a backend fallback for dispatch key AutogradCPU"));
}

TEST(DefaultFallback, ARealBackendsAutogradFallthroughReplacesTheRecorderUntilItGoes) {
  auto acos = sy::Dispatcher::singleton().findSchemaOrThrow("aten::acos", "");
  {
    // What PrivateUse1 backends write: TORCH_LIBRARY_IMPL(_, AutogradPrivateUse1, m) { m.fallback(makeFallthrough()); }
    Library backend(Library::Impl, "_", DispatchKey::AutogradPrivateUse1);
    backend.fallback(CppFunction::makeFallthrough());
    EXPECT_FALSE(acos.entry().nonFallthroughKeys().has(DispatchKey::AutogradPrivateUse1));
    EXPECT_THAT(acosTable(), HasSubstr("  AutogradPrivateUse1: backend fallback (fallthrough) [registered at "));
    EXPECT_THAT(acosTable(), HasSubstr("(a backend's own, replacing the library's default registered at "
                                       "autograd/autograd_fallback.cpp:"));
    // The other private-use keys keep the recorder.
    EXPECT_TRUE(acos.entry().nonFallthroughKeys().has(DispatchKey::AutogradPrivateUse2));
  }
  EXPECT_TRUE(acos.entry().nonFallthroughKeys().has(DispatchKey::AutogradPrivateUse1));
  EXPECT_THAT(acosTable(), HasSubstr("(the library's default for AutogradPrivateUse1; a backend's own fallback there replaces it)"));
}

TEST(DefaultFallback, AnOperatorsBackwardFormulaStillRecordsUnderABackendsAutogradFallthrough) {
  // As in PyTorch, per-operator autograd kernels outrank any fallback: mul.Tensor has a formula.
  Library backend(Library::Impl, "_", DispatchKey::AutogradPrivateUse1);
  backend.fallback(CppFunction::makeFallthrough());
  const std::string mul = sy::Dispatcher::singleton().findSchemaOrThrow("aten::mul", "Tensor").dumpComputedTable();
  EXPECT_THAT(mul, HasSubstr("  AutogradPrivateUse1: kernel [registered at "));
}

}  // namespace
