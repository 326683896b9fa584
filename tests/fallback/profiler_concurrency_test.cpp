// A Profile stopped on another thread while the thread that started it keeps calling operators.
// ./test.sh runs this suite under ThreadSanitizer too.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>

#include "switchyard/fallback/profiler.h"
#include "switchyard/switchyard.h"

namespace {

using sy::DispatchKey;

TEST(ProfilerConcurrency, StoppingFromAnotherThreadWhileTheProfiledThreadCalls) {
  for (int round = 0; round < 20; ++round) {
    std::unique_ptr<sy::Profile> profile;
    std::atomic<bool> started{false};
    std::atomic<bool> stopped{false};
    std::atomic<bool> key_released{false};
    std::thread caller([&] {
      profile = std::make_unique<sy::Profile>();
      started.store(true);
      while (!stopped.load()) sy::ops::sin(sy::zeros({2}));
      sy::ops::sin(sy::zeros({2}));  // notices that its profile was stopped
      key_released.store(!sy::localDispatchKeySet().includedSet().has(DispatchKey::Profiler));
    });
    while (!started.load()) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    sy::ProfileReport report = profile->stop();
    profile.reset();
    stopped.store(true);
    caller.join();
    EXPECT_TRUE(key_released.load());
    // Whatever count it saw, the report is complete for the calls it recorded.
    if (const sy::OperatorProfile* sin = report.find("aten::sin")) EXPECT_GT(sin->count, 0);
  }
}

}  // namespace
