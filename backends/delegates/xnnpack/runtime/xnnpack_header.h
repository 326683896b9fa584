// The XH00 header that starts ExecuTorch's XNNPACK delegate blob, and the blob's three regions.
//
//   absl::StatusOr<sy::xnnpack::BlobRegions> r = sy::xnnpack::splitBlob(bytes);
//   r->flatbuffer;     // the XN01 (or XN00) FlatBuffers buffer
//   r->constant_data;  // what ConstantDataOffset.offset counts from; empty without a header
//
// Note [The XNNPACK blob's layout]
// A blob is: 4 bytes of zeros; the magic "XH00"; the header's length (u16, 30); the FlatBuffers
// buffer's offset and size (u32 each); the constant data's offset (u32) and size (u64); all
// little-endian, 30 bytes. ExecuTorch's writer pads the header to 32 bytes, puts the FlatBuffers
// buffer there, pads it to a multiple of 16, and puts the constant data after it (each constant
// 16-byte aligned); weights usually go to the program's named data instead, leaving the region
// empty. The magic sits where a FlatBuffers file identifier would, so a blob without a header (the
// oldest exporters) is a bare FlatBuffers buffer whose identifier is "XN00" or "XN01"; such a blob
// has no constant region and keeps its constants in XNNGraph.constant_buffer. The reader checks
// that both regions lie inside the blob and that the constant data starts after the buffer ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace sy::xnnpack {

inline constexpr size_t kXnnHeaderSize = 30;
inline constexpr char kXnnHeaderMagic[4] = {'X', 'H', '0', '0'};

struct BlobRegions {
  bool has_header = false;
  absl::Span<const uint8_t> flatbuffer;
  absl::Span<const uint8_t> constant_data;
};

// The regions of `blob`; an error naming the field when the header is inconsistent with the size.
absl::StatusOr<BlobRegions> splitBlob(absl::Span<const uint8_t> blob);

// A whole blob as ExecuTorch's writer lays it out: header padded to 32, `flatbuffer` padded to 16,
// then `constant_data`.
std::vector<uint8_t> joinBlob(absl::Span<const uint8_t> flatbuffer, absl::Span<const uint8_t> constant_data);

}  // namespace sy::xnnpack
