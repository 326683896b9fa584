// Every kernel key of the optimized library (backends/optimized/optimized.yaml) against the
// portable kernels, by the conformance harness: one line.
#include "switchyard/conformance/conformance_test.h"

SY_KERNEL_CONFORMANCE_TEST(OptimizedKernelConformance, "sy::optimized::");
