// Counts heap allocations, for the tests of ExecuTorch's rule that nothing is allocated while a
// method executes (program_allocation_test.cpp, optimized/optimized_allocation_test.cpp). A test
// binary that compiles allocation_counter.cpp has its global operator new and delete replaced by
// counting ones; they count only inside allocationsDuring, so the binary's other tests are
// unaffected.
//
//   EXPECT_EQ(sy::testing::allocationsDuring([&] { method.execute(); }), 0);
#pragma once

#include "absl/functional/function_ref.h"

namespace sy::testing {

// Heap allocations made while `fn` runs, by any thread (a thread pool's workers included).
long allocationsDuring(absl::FunctionRef<void()> fn);

}  // namespace sy::testing
