// Helpers shared by the Accel backend tests: move CPU tensors to Accel and compare an Accel result
// with the CPU reference by copying it back through the dispatcher (Tensor::to -> empty + copy_).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "switchyard/backends/devices/accel/accel_stats.h"
#include "switchyard/switchyard.h"

namespace sy::testing {

inline Tensor onAccel(const Tensor& cpu) { return cpu.to(kAccel); }

// An Accel result equals the CPU reference: same device kind, shape, dtype and values.
inline ::testing::AssertionResult sameAsCpu(const Tensor& accel_result, const Tensor& cpu_result) {
  if (accel_result.device().type() != DeviceType::Accel) {
    return ::testing::AssertionFailure() << "result is on " << accel_result.device() << ", expected accel";
  }
  if (accel_result.scalar_type() != cpu_result.scalar_type()) {
    return ::testing::AssertionFailure() << "dtype " << accel_result.scalar_type() << " vs " << cpu_result.scalar_type();
  }
  Tensor back = accel_result.to(kCPU);
  if (!sameSizes(back.sizes(), cpu_result.sizes())) {
    return ::testing::AssertionFailure() << "sizes " << formatSizes(back.sizes()) << " vs "
                                         << formatSizes(cpu_result.sizes());
  }
  if (!allclose(back, cpu_result, 1e-5, 1e-6, /*equal_nan=*/true)) {
    return ::testing::AssertionFailure() << "values differ:\n" << back << "\nvs\n" << cpu_result;
  }
  return ::testing::AssertionSuccess();
}

inline int64_t fallbackCount(const std::string& op) {
  auto counts = accel::fallback_counts();
  auto it = counts.find(op);
  return it == counts.end() ? 0 : it->second;
}

inline int64_t nativeCount(const std::string& op) {
  auto counts = accel::native_counts();
  auto it = counts.find(op);
  return it == counts.end() ? 0 : it->second;
}

}  // namespace sy::testing
