// SY_KERNEL_CONFORMANCE_TEST: the conformance harness (kernel_conformance.h) as GoogleTest tests,
// one per kernel of a kernel library, in one line:
//
//   #include <switchyard/conformance/conformance_test.h>
//   SY_KERNEL_CONFORMANCE_TEST(OptimizedConformance, "sy::optimized::");
//   SY_KERNEL_CONFORMANCE_TEST(MyLibConformance, "my_lib::", myOptions());  // Options, or {}
//
// Link GoogleTest (GTest::gtest_main) and the library under test into the test executable.
#pragma once

#include <gtest/gtest.h>

#include "switchyard/conformance/kernel_conformance.h"

namespace sy {
// How GoogleTest prints a test's kernel (found by argument-dependent lookup).
inline void PrintTo(const std::shared_ptr<const PartialKernel>& kernel, std::ostream* os) {
  *os << kernel->kernel_name << " for " << kernel->op.toString() << ", key " << kernel->key.toString();
}
}  // namespace sy

// One GoogleTest test per kernel whose name starts with `kernel_name_prefix`. The optional third
// argument initialises an sy::conformance::Options. A prefix that matches no
// registered kernel fails (GoogleTest reports a suite instantiated with no tests).
#define SY_KERNEL_CONFORMANCE_TEST(suite, kernel_name_prefix, ...)                                          \
  class suite : public ::testing::TestWithParam<std::shared_ptr<const ::sy::PartialKernel>> {};             \
  TEST_P(suite, AgreesWithThePortableKernels) {                                                             \
    const ::sy::conformance::Report report =                                                                \
        ::sy::conformance::checkKernel(*GetParam(), ::sy::conformance::Options{__VA_ARGS__});               \
    EXPECT_TRUE(report.ok()) << report.failure;                                                             \
  }                                                                                                         \
  INSTANTIATE_TEST_SUITE_P(Kernels, suite, ::testing::ValuesIn(::sy::conformance::kernelsOf(kernel_name_prefix)), \
                           [](const auto& info) { return ::sy::conformance::testNameOf(*info.param); })
