// The XNNPACK delegate under concurrent execute: threads sharing one delegate take turns on its
// runtimes and buffers (See Note [How an XNNPACK delegate runs on Debian's XNNPACK]); two
// delegates run at the same time. Part of the ThreadSanitizer suite.
#include <gtest/gtest.h>

#include <thread>

#include "xnnpack_test_support.h"

namespace sy::testing {
namespace {

export_::PreprocessResult blobOf(const export_::ExportedProgram& ep) {
  absl::StatusOr<export_::PreprocessResult> r = xnnpackPreprocess(ep);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *std::move(r) : export_::PreprocessResult{};
}

TEST(XnnpackConcurrency, ThreadsSharingOneDelegateEachGetTheirOwnResults) {
  ResidualBlock block;
  const export_::ExportedProgram ep =
      export_::capture(block.model(), {ResidualBlock::exampleInput()}, block.parameters());
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> d =
      XnnpackDelegate::init(blobOf(ep), {export_::CompileSpec::ofString("num_threads", "1")});
  ASSERT_TRUE(d.ok()) << d.status();
  constexpr int kThreads = 4, kRuns = 25;
  std::vector<Tensor> inputs, expected;
  for (int t = 0; t < kThreads; ++t) {
    inputs.push_back(ResidualBlock::exampleInput(1000 + t));
    expected.push_back(block.forward(inputs.back()));
  }
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < kRuns; ++run) {
        std::vector<Tensor> out = outputsLike(ep);
        if (!(*d)->execute({inputs[t]}, out).ok()) {
          ++failures[t];
          continue;
        }
        const std::vector<double> a = doublesOf(out[0]), e = doublesOf(expected[t]);
        for (size_t i = 0; i < a.size(); ++i) {
          if (std::abs(a[i] - e[i]) > 1e-4) {
            ++failures[t];
            break;
          }
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

TEST(XnnpackConcurrency, TwoDelegatesRunAtTheSameTimeOnTwoThreads) {
  Mlp mlp;
  ResidualBlock block;
  const export_::ExportedProgram a = export_::capture(mlp.model(), {Mlp::exampleInput()}, mlp.parameters());
  const export_::ExportedProgram b =
      export_::capture(block.model(), {ResidualBlock::exampleInput()}, block.parameters());
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> da = XnnpackDelegate::init(blobOf(a));
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> db = XnnpackDelegate::init(blobOf(b));
  ASSERT_TRUE(da.ok() && db.ok());
  const Tensor xa = Mlp::exampleInput(5), xb = ResidualBlock::exampleInput(6);
  const Tensor ea = mlp.forward(xa), eb = block.forward(xb);
  std::vector<Tensor> oa = outputsLike(a), ob = outputsLike(b);
  bool ok_a = true, ok_b = true;
  std::thread ta([&] {
    for (int i = 0; i < 30; ++i) ok_a = ok_a && (*da)->execute({xa}, oa).ok();
  });
  std::thread tb([&] {
    for (int i = 0; i < 30; ++i) ok_b = ok_b && (*db)->execute({xb}, ob).ok();
  });
  ta.join();
  tb.join();
  EXPECT_TRUE(ok_a && ok_b);
  expectCloseTo(oa[0], ea, 1e-5);
  expectCloseTo(ob[0], eb, 1e-4);
}

}  // namespace
}  // namespace sy::testing
