// Internal to export/: assembling a program file from its FlatBuffers data and its data segments.
//
//   std::vector<uint8_t> file = sy::export_::assembleProgramFile(flatbuffer_bytes, {constant_segment});
//
// Note [How the emitter lays out a program file]
// Without segments the file is the FlatBuffers buffer alone. With segments, an extended header
// (See Note [Extended header layouts]) of the 32-byte form is put at byte 8: the FlatBuffers data
// after the file identifier moves 32 bytes up, which keeps every alignment inside it (offsets are
// relative, and 32 is a multiple of the largest alignment the schema asks for), and only the
// root offset at byte 0 grows by 32. The segments follow the FlatBuffers data, each starting at
// a multiple of 16 bytes from the segment base, in the order the Program's `segments` table lists
// them (offsets in that table count from the base, and the emitter computed them the same way).
// The emitter lists the delegates' processed blobs first, one segment each, then the named data
// the delegates put aside (a segment per key, NamedData naming it), and the constant segment
// last, so a delegate's segment index is known when its method is written.
//
// Note [A program always has its constant segment]
// The constant segment is written even when no tensor has constant data: its offsets are then the
// one placeholder entry ([0], for the constant index 0 that means "no data") and its segment is
// empty, as ExecuTorch's exporter writes it. A runtime takes the offsets' presence as the sign that
// the program keeps its constants in a segment; without them it falls back to the deprecated
// `constant_buffer` path, which ExecuTorch's runtime as its CMake builds it (since 2026-05,
// ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0) refuses: "PTE file relies on the constant_buffer path,
// which is disabled in this build". So every emitted program has segments and the extended header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sy::export_ {

inline constexpr uint64_t kSegmentAlignment = 16;

// Where each segment starts, counted from the segment base: what the Program's DataSegment
// table must say.
std::vector<uint64_t> segmentOffsets(const std::vector<std::vector<uint8_t>>& segments);

std::vector<uint8_t> assembleProgramFile(const uint8_t* flatbuffer, size_t size,
                                         const std::vector<std::vector<uint8_t>>& segments);

}  // namespace sy::export_
