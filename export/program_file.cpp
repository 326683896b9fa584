#include "switchyard/export/program_file.h"

#include <cstring>

#include "switchyard/core/error.h"

namespace sy::export_ {
namespace {

constexpr uint32_t kExtendedHeaderLength = 32;
constexpr size_t kHeaderPosition = 8;  // after the root offset and the file identifier

uint64_t alignUp(uint64_t n) { return (n + kSegmentAlignment - 1) / kSegmentAlignment * kSegmentAlignment; }

void writeLE(uint8_t* p, uint64_t v, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

std::vector<uint64_t> segmentOffsets(const std::vector<std::vector<uint8_t>>& segments) {
  std::vector<uint64_t> out;
  uint64_t offset = 0;
  for (const auto& s : segments) {
    out.push_back(offset);
    offset = alignUp(offset + s.size());
  }
  return out;
}

// See Note [How the emitter lays out a program file].
std::vector<uint8_t> assembleProgramFile(const uint8_t* flatbuffer, size_t size,
                                         const std::vector<std::vector<uint8_t>>& segments) {
  SY_CHECK(size >= kHeaderPosition, "a FlatBuffers buffer of ", size, " bytes has no room for its root offset and identifier");
  if (segments.empty()) return std::vector<uint8_t>(flatbuffer, flatbuffer + size);
  std::vector<uint8_t> out(flatbuffer, flatbuffer + kHeaderPosition);
  out.resize(kHeaderPosition + kExtendedHeaderLength, 0);
  out.insert(out.end(), flatbuffer + kHeaderPosition, flatbuffer + size);
  uint32_t root = 0;
  for (size_t i = 0; i < 4; ++i) root |= static_cast<uint32_t>(out[i]) << (8 * i);
  writeLE(out.data(), root + kExtendedHeaderLength, 4);

  const uint64_t program_size = out.size();
  const uint64_t base = alignUp(program_size);
  const std::vector<uint64_t> offsets = segmentOffsets(segments);
  const uint64_t data_size = offsets.back() + segments.back().size();
  uint8_t* header = out.data() + kHeaderPosition;
  std::memcpy(header, "eh00", 4);
  writeLE(header + 4, kExtendedHeaderLength, 4);
  writeLE(header + 8, program_size, 8);
  writeLE(header + 16, base, 8);
  writeLE(header + 24, data_size, 8);
  out.resize(base, 0);
  for (size_t i = 0; i < segments.size(); ++i) {
    out.resize(base + offsets[i], 0);
    out.insert(out.end(), segments[i].begin(), segments[i].end());
  }
  return out;
}

}  // namespace sy::export_
