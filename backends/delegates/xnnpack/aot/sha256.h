// SHA-256 (FIPS 180-4), for naming constant data as ExecuTorch's XNNPACK exporter does: a weight's
// key in the program's named data is the lowercase hex digest of its bytes.
//
//   std::string key = sy::xnnpack::sha256Hex(bytes);   // 64 hex digits
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "absl/types/span.h"

namespace sy::xnnpack {

std::array<uint8_t, 32> sha256(absl::Span<const uint8_t> bytes);
std::string sha256Hex(absl::Span<const uint8_t> bytes);

}  // namespace sy::xnnpack
