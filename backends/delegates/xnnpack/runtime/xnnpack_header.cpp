#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_header.h"

#include <cstring>

#include "switchyard/core/error.h"

namespace sy::xnnpack {
namespace {

uint64_t readLE(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

void writeLE(uint8_t* p, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

size_t paddedTo16(size_t n) { return (n + 15) / 16 * 16; }

}  // namespace

absl::StatusOr<BlobRegions> splitBlob(absl::Span<const uint8_t> blob) {
  BlobRegions r;
  if (blob.size() < 8) {
    return absl::InvalidArgumentError(sy::str("the blob has ", blob.size(), " bytes: too short for a header or a FlatBuffers buffer"));
  }
  if (blob.size() < kXnnHeaderSize || std::memcmp(blob.data() + 4, kXnnHeaderMagic, 4) != 0) {
    r.flatbuffer = blob;  // the oldest blobs: no header
    return r;
  }
  r.has_header = true;
  const uint64_t fb_offset = readLE(blob.data() + 10, 4), fb_size = readLE(blob.data() + 14, 4);
  const uint64_t cd_offset = readLE(blob.data() + 18, 4), cd_size = readLE(blob.data() + 22, 8);
  const uint64_t size = blob.size();
  if (fb_size < 8 || fb_offset > size || fb_size > size - fb_offset) {
    return absl::InvalidArgumentError(sy::str("the XH00 header puts the FlatBuffers buffer at [", fb_offset, ", +", fb_size,
                                              ") in a blob of ", size, " bytes"));
  }
  if (cd_offset > size || cd_size > size - cd_offset) {
    return absl::InvalidArgumentError(sy::str("the XH00 header puts the constant data at [", cd_offset, ", +", cd_size,
                                              ") in a blob of ", size, " bytes"));
  }
  if (cd_offset < fb_offset + fb_size) {
    return absl::InvalidArgumentError(sy::str("the XH00 header's constant data at ", cd_offset,
                                              " starts inside the FlatBuffers buffer [", fb_offset, ", +", fb_size, ")"));
  }
  r.flatbuffer = blob.subspan(fb_offset, fb_size);
  r.constant_data = blob.subspan(cd_offset, cd_size);
  return r;
}

std::vector<uint8_t> joinBlob(absl::Span<const uint8_t> flatbuffer, absl::Span<const uint8_t> constant_data) {
  const size_t fb_offset = paddedTo16(kXnnHeaderSize);
  const size_t cd_offset = fb_offset + paddedTo16(flatbuffer.size());
  std::vector<uint8_t> blob(cd_offset + constant_data.size(), 0);
  std::memcpy(blob.data() + 4, kXnnHeaderMagic, 4);
  writeLE(blob.data() + 8, kXnnHeaderSize, 2);
  writeLE(blob.data() + 10, fb_offset, 4);
  writeLE(blob.data() + 14, flatbuffer.size(), 4);
  writeLE(blob.data() + 18, cd_offset, 4);
  writeLE(blob.data() + 22, constant_data.size(), 8);
  if (!flatbuffer.empty()) std::memcpy(blob.data() + fb_offset, flatbuffer.data(), flatbuffer.size());
  if (!constant_data.empty()) std::memcpy(blob.data() + cd_offset, constant_data.data(), constant_data.size());
  return blob;
}

}  // namespace sy::xnnpack
