// The profiler: one boxed fallback that times every operator, with nesting, only while a Profile
// is active (see Note [The profiler costs nothing when off]).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <thread>

#include "switchyard/fallback/profiler.h"
#include "switchyard/switchyard.h"

namespace {

using sy::DispatchKey;
using sy::Tensor;
using ::testing::HasSubstr;

SY_LIBRARY(profiler_test, m) { m.def("fails(Tensor self) -> Tensor"); }
Tensor alwaysFails(const Tensor&) { SY_ERROR("profiler_test::fails failed on purpose"); }
SY_LIBRARY_IMPL(profiler_test, CPU, m) { m.impl("fails", &alwaysFails); }

Tensor callFails(const Tensor& t) {
  static const auto op = sy::Dispatcher::singleton().findSchemaOrThrow("profiler_test::fails", "").typed<Tensor(const Tensor&)>();
  return op.call(t);
}

TEST(Profiler, CountsEveryOperatorIncludingNestedOnes) {
  sy::Profile profile;
  sy::ops::acos(sy::zeros({4}));
  sy::ops::acos(sy::zeros({4}));
  sy::ProfileReport report = profile.stop();
  ASSERT_NE(report.find("aten::acos"), nullptr);
  ASSERT_NE(report.find("aten::empty.memory_format"), nullptr);
  EXPECT_EQ(report.find("aten::acos")->count, 2);
  EXPECT_EQ(report.find("aten::empty.memory_format")->count, 2);
}

TEST(Profiler, SelfTimeExcludesTheOperatorsItCalled) {
  sy::Profile profile;
  for (int i = 0; i < 10; ++i) sy::ops::acos(sy::zeros({64}));
  sy::ProfileReport report = profile.stop();
  const sy::OperatorProfile& acos = *report.find("aten::acos");
  const sy::OperatorProfile& empty = *report.find("aten::empty.memory_format");
  EXPECT_EQ(acos.self_ns, acos.total_ns - empty.total_ns);
  EXPECT_EQ(empty.self_ns, empty.total_ns);  // empty calls nothing through the dispatcher
  EXPECT_GT(acos.total_ns, 0);
}

TEST(Profiler, RecordsNothingAfterStop) {
  sy::Profile profile;
  sy::ops::sin(sy::zeros({2}));
  sy::ProfileReport first = profile.stop();
  sy::ops::sin(sy::zeros({2}));
  sy::ProfileReport second = profile.stop();
  EXPECT_EQ(second.find("aten::sin")->count, first.find("aten::sin")->count);
}

TEST(Profiler, KeyIsInTheIncludedSetOnlyWhileProfiling) {
  EXPECT_FALSE(sy::localDispatchKeySet().includedSet().has(DispatchKey::Profiler));
  {
    sy::Profile profile;
    EXPECT_TRUE(sy::localDispatchKeySet().includedSet().has(DispatchKey::Profiler));
  }
  EXPECT_FALSE(sy::localDispatchKeySet().includedSet().has(DispatchKey::Profiler));
}

TEST(Profiler, FailingOperatorIsCountedAndLaterCallsNestCorrectly) {
  sy::Profile profile;
  EXPECT_THROW(callFails(sy::zeros({1})), sy::Error);
  sy::ops::acos(sy::zeros({1}));
  sy::ProfileReport report = profile.stop();
  EXPECT_EQ(report.find("profiler_test::fails")->count, 1);
  const sy::OperatorProfile& acos = *report.find("aten::acos");
  EXPECT_EQ(acos.self_ns, acos.total_ns - report.find("aten::empty.memory_format")->total_ns);
}

TEST(Profiler, ErrorsPropagateUnchangedThroughTheFallback) {
  sy::Profile profile;
  try {
    callFails(sy::zeros({1}));
    FAIL();
  } catch (const sy::Error& e) {
    EXPECT_STREQ(e.what(), "profiler_test::fails failed on purpose");
  }
}

TEST(Profiler, OtherThreadsAreNotProfiled) {
  sy::Profile profile;
  std::thread([] { sy::ops::sin(sy::zeros({2})); }).join();
  EXPECT_EQ(profile.stop().find("aten::sin"), nullptr);
}

TEST(Profiler, NestedProfilesBothSeeTheCallsMadeWhileBothRun) {
  sy::Profile outer;
  sy::ops::sin(sy::zeros({2}));
  {
    sy::Profile inner;
    sy::ops::acos(sy::zeros({2}));
    sy::ProfileReport inner_report = inner.stop();
    EXPECT_EQ(inner_report.find("aten::sin"), nullptr);
    EXPECT_EQ(inner_report.find("aten::acos")->count, 1);
  }
  sy::ops::sin(sy::zeros({2}));
  sy::ProfileReport outer_report = outer.stop();
  EXPECT_EQ(outer_report.find("aten::sin")->count, 2);
  EXPECT_EQ(outer_report.find("aten::acos")->count, 1);
}

TEST(Profiler, ProfilesStoppedOutOfOrderKeepTheRestRunning) {
  auto a = std::make_unique<sy::Profile>();
  auto b = std::make_unique<sy::Profile>();
  a.reset();
  auto d = std::make_unique<sy::Profile>();
  sy::ops::sin(sy::zeros({2}));
  sy::ProfileReport b_report = b->stop();
  b.reset();
  sy::ops::acos(sy::zeros({2}));  // only d is running now
  EXPECT_TRUE(sy::localDispatchKeySet().includedSet().has(DispatchKey::Profiler));
  sy::ProfileReport d_report = d->stop();
  EXPECT_FALSE(sy::localDispatchKeySet().includedSet().has(DispatchKey::Profiler));
  EXPECT_EQ(b_report.find("aten::sin")->count, 1);
  EXPECT_EQ(b_report.find("aten::acos"), nullptr);
  EXPECT_EQ(d_report.find("aten::sin")->count, 1);
  EXPECT_EQ(d_report.find("aten::acos")->count, 1);
  d.reset();
  sy::ops::sin(sy::zeros({2}));  // no profile left: nothing recorded anywhere, nothing dangling
}

TEST(Profiler, AProfileStoppedOnAnotherThreadStopsRecordingAndReleasesTheKey) {
  auto profile = std::make_unique<sy::Profile>();
  sy::ops::sin(sy::zeros({2}));
  sy::ProfileReport report = std::async(std::launch::async, [&] {
                               sy::ProfileReport r = profile->stop();
                               profile.reset();
                               return r;
                             }).get();
  EXPECT_EQ(report.find("aten::sin")->count, 1);
  sy::ops::sin(sy::zeros({2}));  // the starting thread notices the profile is gone
  EXPECT_FALSE(sy::localDispatchKeySet().includedSet().has(DispatchKey::Profiler));
}

TEST(Profiler, AProfileStoppedInsideAProfiledCallIsSafe) {
  auto profile = std::make_unique<sy::Profile>();
  sy::Library stopper(sy::Library::IMPL, "_", DispatchKey::PrivateUse3);
  stopper.fallback(sy::CppFunction::makeFromBoxedLambda(
      [&](const sy::OperatorHandle& op, sy::DispatchKeySet ks, sy::Stack* stack) {
        profile.reset();
        op.redispatchBoxed(ks.remove(DispatchKey::PrivateUse3), stack);
      }));
  Tensor x = sy::zeros({1});
  x.unsafeGetTensorImpl()->set_key_set({DispatchKey::CPU, DispatchKey::PrivateUse3});
  sy::ops::sin(x);
  EXPECT_FALSE(sy::localDispatchKeySet().includedSet().has(DispatchKey::Profiler));
}

TEST(Profiler, TableListsOperatorsWithTheirCounts) {
  sy::Profile profile;
  sy::ops::add(sy::ones({2}), sy::ones({2}));
  std::string table = profile.stop().table();
  EXPECT_THAT(table, HasSubstr("operator"));
  EXPECT_THAT(table, HasSubstr("calls"));
  EXPECT_THAT(table, HasSubstr("aten::add.Tensor"));
}

}  // namespace
