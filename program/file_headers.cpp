#include "switchyard/program/file_headers.h"

#include <cstring>

#include "absl/status/status.h"
#include "switchyard/core/error.h"

namespace sy {

namespace {
constexpr size_t kHeaderAt = 8;  // after the root offset (u32) and the file identifier (4 bytes)
}  // namespace

uint32_t readU32LE(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
         static_cast<uint32_t>(p[3]) << 24;
}

uint64_t readU64LE(const uint8_t* p) {
  return static_cast<uint64_t>(readU32LE(p)) | static_cast<uint64_t>(readU32LE(p + 4)) << 32;
}

absl::StatusOr<std::optional<ExtendedHeader>> parseExtendedHeader(absl::Span<const uint8_t> file) {
  if (file.size() < kHeaderAt + 8 || std::memcmp(file.data() + kHeaderAt, "eh00", 4) != 0) {
    return std::optional<ExtendedHeader>();
  }
  ExtendedHeader h;
  h.length = readU32LE(file.data() + kHeaderAt + 4);
  if (h.length < ExtendedHeader::kMinimumLength) {
    return absl::InvalidArgumentError(sy::str("extended header: length ", h.length, " is shorter than the ",
                                                   ExtendedHeader::kMinimumLength, " bytes of its known fields"));
  }
  if (h.length > file.size() - kHeaderAt) {
    return absl::InvalidArgumentError(sy::str("extended header: length ", h.length, " runs past the end of the ",
                                                   file.size(), "-byte file (truncated?)"));
  }
  const uint8_t* p = file.data() + kHeaderAt;
  h.program_size = readU64LE(p + 8);
  h.segment_base_offset = readU64LE(p + 16);
  if (h.length >= 32) h.segment_data_size = readU64LE(p + 24);

  if (h.program_size < kHeaderAt + h.length || h.program_size > file.size()) {
    return absl::InvalidArgumentError(sy::str("extended header: program size ", h.program_size,
                                                   " does not fit the ", file.size(), "-byte file (truncated?)"));
  }
  if (h.segment_base_offset != 0 && (h.segment_base_offset < h.program_size || h.segment_base_offset > file.size())) {
    // A base offset of zero means "no segments" in files that have none.
    return absl::InvalidArgumentError(sy::str("extended header: segment base offset ", h.segment_base_offset,
                                                   " is outside [", h.program_size, ", ", file.size(),
                                                   "] (the program data ends at the first, the file at the second)"));
  }
  if (h.segment_data_size && *h.segment_data_size > file.size() - h.segment_base_offset) {
    return absl::InvalidArgumentError(sy::str("extended header: ", *h.segment_data_size,
                                                   " bytes of segment data from offset ", h.segment_base_offset,
                                                   " run past the end of the ", file.size(), "-byte file (truncated?)"));
  }
  return std::optional<ExtendedHeader>(h);
}

absl::StatusOr<DataFileHeader> parseDataFileHeader(absl::Span<const uint8_t> file) {
  if (file.size() >= 4 && std::memcmp(file.data(), "FH01", 4) == 0) {
    return absl::InvalidArgumentError(
        "the data file has its FH01 header at byte 0, the older .ptd layout; re-export it with a current "
        "ExecuTorch (header at byte 8, inside the FlatBuffers data)");
  }
  if (file.size() < kHeaderAt + DataFileHeader::kMinimumLength || std::memcmp(file.data() + 4, "FT01", 4) != 0 ||
      std::memcmp(file.data() + kHeaderAt, "FH01", 4) != 0) {
    return absl::InvalidArgumentError(sy::str(
        "not a .ptd data file: expected the identifier FT01 at byte 4 and the header FH01 at byte 8 (",
        file.size(), " bytes)"));
  }
  const uint8_t* p = file.data() + kHeaderAt;
  DataFileHeader h;
  h.length = readU32LE(p + 4);
  if (h.length < DataFileHeader::kMinimumLength || h.length > file.size() - kHeaderAt) {
    return absl::InvalidArgumentError(sy::str("data file header: length ", h.length, " is not within [",
                                                   DataFileHeader::kMinimumLength, ", ", file.size() - kHeaderAt,
                                                   "] bytes (truncated?)"));
  }
  h.flatbuffer_offset = readU64LE(p + 8);
  h.flatbuffer_size = readU64LE(p + 16);
  h.segment_base_offset = readU64LE(p + 24);
  h.segment_data_size = readU64LE(p + 32);
  const uint64_t size = file.size();
  if (h.flatbuffer_offset > size || h.flatbuffer_size > size - h.flatbuffer_offset) {
    return absl::InvalidArgumentError(sy::str("data file header: FlatBuffers data [", h.flatbuffer_offset, ", +",
                                                   h.flatbuffer_size, ") runs past the end of the ", size,
                                                   "-byte file (truncated?)"));
  }
  if (h.segment_base_offset < h.flatbuffer_offset + h.flatbuffer_size || h.segment_base_offset > size ||
      h.segment_data_size > size - h.segment_base_offset) {
    return absl::InvalidArgumentError(sy::str("data file header: segment data [", h.segment_base_offset, ", +",
                                                   h.segment_data_size, ") is not after the FlatBuffers data and within the ",
                                                   size, "-byte file (truncated?)"));
  }
  return h;
}

}  // namespace sy
