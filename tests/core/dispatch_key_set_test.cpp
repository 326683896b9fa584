// DispatchKeySet arithmetic and the thread-local include/exclude guards.
#include <gtest/gtest.h>

#include <thread>

#include "switchyard/switchyard.h"

namespace {

using sy::DispatchKey;
using sy::DispatchKeySet;

TEST(DispatchKeySet, EmptySetResolvesToUndefined) {
  EXPECT_EQ(DispatchKeySet().highestPriorityTypeId(), DispatchKey::Undefined);
}

TEST(DispatchKeySet, HighestPriorityIsTheHighestEnumerator) {
  DispatchKeySet ks{DispatchKey::CPU, DispatchKey::Tracer, DispatchKey::ZeroTensor};
  EXPECT_EQ(ks.highestPriorityTypeId(), DispatchKey::Tracer);
  EXPECT_EQ(ks.remove(DispatchKey::Tracer).highestPriorityTypeId(), DispatchKey::ZeroTensor);
}

TEST(DispatchKeySet, UndefinedIsNeverStored) {
  EXPECT_TRUE(DispatchKeySet(DispatchKey::Undefined).empty());
}

TEST(DispatchKeySet, SetOperations) {
  DispatchKeySet a{DispatchKey::CPU, DispatchKey::Tracer};
  DispatchKeySet b{DispatchKey::Tracer, DispatchKey::Profiler};
  EXPECT_EQ(a | b, (DispatchKeySet{DispatchKey::CPU, DispatchKey::Tracer, DispatchKey::Profiler}));
  EXPECT_EQ(a & b, DispatchKeySet(DispatchKey::Tracer));
  EXPECT_EQ(a - b, DispatchKeySet(DispatchKey::CPU));
  EXPECT_TRUE(a.has(DispatchKey::CPU));
  EXPECT_FALSE(a.has(DispatchKey::Profiler));
  EXPECT_EQ(a.add(DispatchKey::Accel).backends(), (DispatchKeySet{DispatchKey::CPU, DispatchKey::Accel}));
}

TEST(DispatchKeySet, PrintsItsKeysInOrder) {
  EXPECT_EQ((DispatchKeySet{DispatchKey::Tracer, DispatchKey::CPU}).toString(), "DispatchKeySet(CPU, Tracer)");
}

TEST(DispatchKey, BackendKeysAreBelowFunctionalityKeys) {
  for (DispatchKey backend : {DispatchKey::CPU, DispatchKey::Accel, DispatchKey::PrivateUse1, DispatchKey::PrivateUse2,
                              DispatchKey::PrivateUse3}) {
    EXPECT_TRUE(sy::isBackendKey(backend));
    EXPECT_LT(backend, DispatchKey::ZeroTensor);
  }
  EXPECT_FALSE(sy::isBackendKey(DispatchKey::Tracer));
  EXPECT_TRUE(sy::isAliasKey(DispatchKey::CompositeImplicit));
  EXPECT_FALSE(sy::isRuntimeKey(DispatchKey::CompositeExplicit));
}

TEST(DispatchKey, NamesParseBack) {
  for (int i = 0; i < static_cast<int>(DispatchKey::EndOfAliasKeys); ++i) {
    auto k = static_cast<DispatchKey>(i);
    EXPECT_EQ(sy::parseDispatchKey(sy::toString(k)), k);
  }
  EXPECT_EQ(sy::parseDispatchKey("NoSuchKey"), std::nullopt);
}

TEST(DispatchKey, DeviceTypesMapToTheirBackendKeys) {
  EXPECT_EQ(sy::backendKeyFor(sy::DeviceType::CPU), DispatchKey::CPU);
  EXPECT_EQ(sy::backendKeyFor(sy::DeviceType::Accel), DispatchKey::Accel);
  EXPECT_EQ(sy::backendKeyFor(sy::DeviceType::PrivateUse2), DispatchKey::PrivateUse2);
}

TEST(LocalDispatchKeySet, IncludeGuardAddsAndRestores) {
  EXPECT_TRUE(sy::localDispatchKeySet().includedSet().empty());
  {
    sy::IncludeDispatchKeyGuard on(DispatchKey::Profiler);
    EXPECT_EQ(sy::localDispatchKeySet().includedSet(), DispatchKeySet(DispatchKey::Profiler));
  }
  EXPECT_TRUE(sy::localDispatchKeySet().includedSet().empty());
}

TEST(LocalDispatchKeySet, NestedGuardOnTheSameKeyDoesNotRemoveItEarly) {
  sy::IncludeDispatchKeyGuard outer(DispatchKey::Tracer);
  { sy::IncludeDispatchKeyGuard inner(DispatchKey::Tracer); }
  EXPECT_TRUE(sy::localDispatchKeySet().includedSet().has(DispatchKey::Tracer));
}

TEST(LocalDispatchKeySet, ExcludeGuardAddsAndRestores) {
  {
    sy::ExcludeDispatchKeyGuard off({DispatchKey::Tracer, DispatchKey::Profiler});
    EXPECT_EQ(sy::localDispatchKeySet().excludedSet(), (DispatchKeySet{DispatchKey::Tracer, DispatchKey::Profiler}));
    { sy::ExcludeDispatchKeyGuard again(DispatchKey::Tracer); }
    EXPECT_TRUE(sy::localDispatchKeySet().excludedSet().has(DispatchKey::Tracer));
  }
  EXPECT_TRUE(sy::localDispatchKeySet().excludedSet().empty());
}

TEST(LocalDispatchKeySet, GuardsAreThreadLocal) {
  sy::IncludeDispatchKeyGuard on(DispatchKey::Profiler);
  bool other_thread_sees_it = true;
  std::thread([&] { other_thread_sees_it = sy::localDispatchKeySet().includedSet().has(DispatchKey::Profiler); }).join();
  EXPECT_FALSE(other_thread_sees_it);
}

}  // namespace
