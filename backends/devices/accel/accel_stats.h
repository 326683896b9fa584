// What ran on Accel: per-operator counts of native Accel kernel calls and of CPU fallbacks, an
// optional warning the first time an operator falls back, and a readable report.
//
//   sy::accel::reset_fallback_counts();
//   sy::ops::sin(x);                                  // no Accel kernel: falls back to the CPU
//   sy::accel::fallback_counts().at("aten::sin");    // 1
//   sy::accel::set_warn_on_fallback(true);           // stderr, once per operator
//   std::cout << sy::accel::report();
//
// Operator names are full names with the overload ("aten::add.Tensor", "aten::acos.out").
// Counts are exact and thread-safe (one mutex; this is bookkeeping, not the dispatch hot path).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace sy::accel {

// Operator name -> number of calls that ran through the CPU fallback.
std::map<std::string, int64_t> fallback_counts();
// Operator name -> number of calls served by a native Accel kernel.
std::map<std::string, int64_t> native_counts();
// Clears both tables (not the warn-once memory).
void reset_fallback_counts();

// When on, the first fallback of each operator prints one line to stderr. Turning it on starts a
// fresh "already warned" set, so every operator warns once again.
void set_warn_on_fallback(bool on);

// A table of every operator seen since the last reset: native calls, then fallbacks, with counts.
std::string report();

namespace detail {
// Called by the native kernels and by the fallback respectively.
void recordNativeCall(std::string_view op);
void recordFallback(std::string_view op);
}  // namespace detail

}  // namespace sy::accel
