// The small headers that precede the FlatBuffers data in program (.pte) and data (.ptd) files.
//
//   absl::StatusOr<std::optional<sy::ExtendedHeader>> h = sy::parseExtendedHeader(bytes);
//   if (h.ok() && *h) segments_start = (*h)->segment_base_offset;
//
// Both sit at byte 8 of the file, after the FlatBuffers root offset and file identifier, inside
// the FlatBuffers buffer (which is padded to leave room for them). All numbers are little-endian.
//
// Note [Extended header layouts]
// A program's extended header is "eh00", its own length (u32), the FlatBuffers size (u64) and the
// offset of the first data segment (u64): 24 bytes. Newer exporters add the total size of the
// segment data (u64), making it 32; a longer header keeps these fields in place and adds more, so
// any length >= 24 is accepted and fields past the ones we know are ignored. A program without
// data segments may have no extended header at all: then the whole file is the FlatBuffers buffer.
// A data file's header is "FH01", its length (u32, >= 40), the FlatBuffers offset and size, the
// segment base offset and the segment data size (u64 each). The layout ExecuTorch wrote first put
// that header at byte 0, before the FlatBuffers data; such files are refused with a clear error.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/program/file_bytes.h"  // readFileBytes, which the loaders use with these

namespace sy {

struct ExtendedHeader {
  static constexpr uint32_t kMinimumLength = 24;
  uint32_t length = 0;
  uint64_t program_size = 0;         // bytes of FlatBuffers data, from the start of the file
  uint64_t segment_base_offset = 0;  // where DataSegment offsets count from
  std::optional<uint64_t> segment_data_size;  // only in 32-byte (and longer) headers
};

// The program's extended header when the file has one, nullopt when it has none, or an error when
// one is there but inconsistent with the file (sizes past its end, overlapping regions).
absl::StatusOr<std::optional<ExtendedHeader>> parseExtendedHeader(absl::Span<const uint8_t> file);

struct DataFileHeader {
  static constexpr uint32_t kMinimumLength = 40;
  uint32_t length = 0;
  uint64_t flatbuffer_offset = 0;
  uint64_t flatbuffer_size = 0;
  uint64_t segment_base_offset = 0;
  uint64_t segment_data_size = 0;
};

// The header of a .ptd file; an error when it is absent, of the older layout, or inconsistent
// with the file's size.
absl::StatusOr<DataFileHeader> parseDataFileHeader(absl::Span<const uint8_t> file);

// Little-endian integers from raw bytes (callers have checked the bounds).
uint32_t readU32LE(const uint8_t* p);
uint64_t readU64LE(const uint8_t* p);

}  // namespace sy
