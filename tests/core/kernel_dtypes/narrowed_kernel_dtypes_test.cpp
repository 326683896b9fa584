// A translation unit compiled as a build configured with SWITCHYARD_KERNEL_DTYPES="Bool;Long;Float"
// compiles it (tests/core/kernel_dtypes/CMakeLists.txt): its dispatches instantiate those dtypes
// only and refuse the others by name. See Note [A build compiles its kernels for the dtypes it
// selects] in core/kernel_dtypes.h.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/backends/devices/cpu/dtype_dispatch.h"
#include "switchyard/core/kernel_dtypes.h"
#include "test_support.h"

namespace sy {
namespace {

using ::testing::HasSubstr;
using sy::testing::errorMessageOf;

// CMake's switchyard_dtype_mask gave Bool (11), Long (4) and Float (6) their enumerators' bits.
static_assert(kKernelDtypes == SY_EXPECTED_KERNEL_DTYPES);
static_assert(kernelDtypeBuilt(ScalarType::Float) && kernelDtypeBuilt(ScalarType::Long) &&
              kernelDtypeBuilt(ScalarType::Bool));
static_assert(!kernelDtypeBuilt(ScalarType::Half) && !kernelDtypeBuilt(ScalarType::Double));

TEST(NarrowedKernelDtypes, ADispatchRunsTheSelectedDtypesOnly) {
  int calls = 0;
  for (ScalarType dtype : {ScalarType::Bool, ScalarType::Long, ScalarType::Float}) {
    cpu::dispatchDtype<cpu::kRealHBBF16Dtypes>(dtype, "test::op", "self", [&](auto) { ++calls; });
  }
  EXPECT_EQ(calls, 3);
}

TEST(NarrowedKernelDtypes, ADtypeTheBuildLeavesOutIsRefusedNamingTheBuildsSet) {
  EXPECT_THAT(errorMessageOf([] {
                cpu::dispatchDtype<cpu::kRealHBBF16Dtypes>(ScalarType::Half, "test::op", "self", [](auto) {});
              }),
              HasSubstr("test::op: argument 'self' has dtype Half, which this build leaves out of its kernels "
                        "(built for: Long, Float, Bool); rebuild with it in SWITCHYARD_KERNEL_DTYPES"));
  // A dtype the kernel never takes is the kernel's own refusal, as in any build.
  EXPECT_THAT(errorMessageOf([] {
                cpu::dispatchDtype<cpu::kFloatingDtypes>(ScalarType::Long, "test::op", "self", [](auto) {});
              }),
              HasSubstr("test::op: argument 'self' has dtype Long, which this kernel does not support "
                        "(supported: Float, Double)"));
}

}  // namespace
}  // namespace sy
