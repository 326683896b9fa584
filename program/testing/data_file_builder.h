// DataFileBuilder: writes small .ptd data files by hand, in today's layout or in ExecuTorch 0.6's
// (See Note [Data files of ExecuTorch 0.6] in program/data_file.cpp), for the data-file tests.
// Header-only and not installed: it includes flatc's output, which only the build tree has.
//
//   sy::testing::DataFileBuilder b;
//   b.tensor("linear.weight", sy::ScalarType::Float, {2, 2}, bytes).blob("scale", {1, 2, 3, 4});
//   std::vector<uint8_t> now = b.finish();                                   // named_data with layouts
//   std::vector<uint8_t> old = b.finish(DataFileBuilder::Layout::V0_6);      // a tensors table
//
// The FH01 header sits at byte 8, inside the FlatBuffers data (See Note [Extended header
// layouts]); segments follow the FlatBuffers data, each 16-byte aligned.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "switchyard/core/program_scalar_type.h"
#include "switchyard/core/scalar_type.h"
#include "switchyard/program/schema/flat_tensor_generated.h"
#include "switchyard/program/schema/flat_tensor_v0_6_generated.h"

namespace sy {
namespace testing {

class DataFileBuilder {
 public:
  enum class Layout { Current, V0_6 };

  // A tensor: today a named_data entry with a tensor_layout; in 0.6 an entry of the tensors table
  // (all tensors share one segment, each at its own offset).
  DataFileBuilder& tensor(std::string key, ScalarType dtype, std::vector<int32_t> sizes, std::vector<uint8_t> bytes) {
    entries_.push_back({std::move(key), dtype, std::move(sizes), std::move(bytes)});
    return *this;
  }
  // An untyped blob: a named_data entry without a layout, in a segment of its own.
  DataFileBuilder& blob(std::string key, std::vector<uint8_t> bytes) {
    entries_.push_back({std::move(key), std::nullopt, {}, std::move(bytes)});
    return *this;
  }
  DataFileBuilder& version(uint32_t v) {
    version_ = v;
    return *this;
  }

  std::vector<uint8_t> finish(Layout layout = Layout::Current) const {
    flatbuffers::FlatBufferBuilder fb;
    std::vector<std::vector<uint8_t>> segments;
    if (layout == Layout::Current) {
      std::vector<flatbuffers::Offset<ptd::NamedData>> named;
      for (const Entry& e : entries_) {
        segments.push_back(e.bytes);
        flatbuffers::Offset<ptd::TensorLayout> tensor_layout = 0;
        const std::vector<uint8_t> dim_order = contiguousDimOrder(e);
        if (e.dtype) tensor_layout = ptd::CreateTensorLayoutDirect(fb, code(*e.dtype), &e.sizes, &dim_order);
        named.push_back(ptd::CreateNamedDataDirect(fb, e.key.c_str(), static_cast<uint32_t>(segments.size() - 1), tensor_layout));
      }
      const auto table = segmentTable<ptd::DataSegment>(segments, [&](uint64_t offset, uint64_t size) {
        return ptd::CreateDataSegment(fb, offset, size);
      });
      ptd::FinishFlatTensorBuffer(fb, ptd::CreateFlatTensorDirect(fb, version_, &table, &named));
    } else {
      std::vector<flatbuffers::Offset<ptd::v0_6::TensorMetadata>> tensors;
      std::vector<flatbuffers::Offset<ptd::v0_6::NamedData>> named;
      for (const Entry& e : entries_) {
        if (!e.dtype) continue;
        if (segments.empty()) segments.emplace_back();  // segment 0 holds every tensor
        const uint64_t offset = segments[0].size();
        segments[0].insert(segments[0].end(), e.bytes.begin(), e.bytes.end());
        segments[0].resize((segments[0].size() + 15) / 16 * 16, 0);
        const std::vector<uint8_t> dim_order = contiguousDimOrder(e);
        tensors.push_back(ptd::v0_6::CreateTensorMetadataDirect(fb, e.key.c_str(), code(*e.dtype), &e.sizes, &dim_order, 0,
                                                                 offset));
      }
      for (const Entry& e : entries_) {
        if (e.dtype) continue;
        segments.push_back(e.bytes);
        named.push_back(ptd::v0_6::CreateNamedDataDirect(fb, e.key.c_str(), static_cast<uint32_t>(segments.size() - 1)));
      }
      const auto table = segmentTable<ptd::v0_6::DataSegment>(segments, [&](uint64_t offset, uint64_t size) {
        return ptd::v0_6::CreateDataSegment(fb, offset, size);
      });
      ptd::v0_6::FinishFlatTensorBuffer(fb, ptd::v0_6::CreateFlatTensorDirect(fb, version_, 16, &tensors, &table, &named));
    }
    return withHeader(fb, segments);
  }

 private:
  struct Entry {
    std::string key;
    std::optional<ScalarType> dtype;
    std::vector<int32_t> sizes;
    std::vector<uint8_t> bytes;
  };

  static pte::ScalarType code(ScalarType dtype) { return static_cast<pte::ScalarType>(*toProgramScalarType(dtype)); }

  static std::vector<uint8_t> contiguousDimOrder(const Entry& e) {
    std::vector<uint8_t> order;
    for (size_t d = 0; d < e.sizes.size(); ++d) order.push_back(static_cast<uint8_t>(d));
    return order;
  }

  template <class Segment, class Make>
  static std::vector<flatbuffers::Offset<Segment>> segmentTable(const std::vector<std::vector<uint8_t>>& segments, Make make) {
    std::vector<flatbuffers::Offset<Segment>> table;
    uint64_t offset = 0;
    for (const auto& s : segments) {
      table.push_back(make(offset, s.size()));
      offset += (s.size() + 15) / 16 * 16;
    }
    return table;
  }

  // The FH01 header inserted at byte 8 (padded to 48 bytes, keeping the buffer's alignment), then
  // the segments.
  static std::vector<uint8_t> withHeader(flatbuffers::FlatBufferBuilder& fb, const std::vector<std::vector<uint8_t>>& segments) {
    constexpr uint32_t kPadded = 48, kLength = 40;
    const uint8_t* buffer = fb.GetBufferPointer();
    std::vector<uint8_t> out(buffer, buffer + 8);
    out.resize(8 + kPadded, 0);
    out.insert(out.end(), buffer + 8, buffer + fb.GetSize());
    uint32_t root_offset;
    std::memcpy(&root_offset, out.data(), 4);
    root_offset += kPadded;
    std::memcpy(out.data(), &root_offset, 4);
    const uint64_t flatbuffer_offset = 0, flatbuffer_size = out.size();
    const uint64_t base = (flatbuffer_size + 15) / 16 * 16;
    uint64_t segment_size = 0;
    for (const auto& s : segments) segment_size += (s.size() + 15) / 16 * 16;
    std::memcpy(out.data() + 8, "FH01", 4);
    std::memcpy(out.data() + 12, &kLength, 4);
    std::memcpy(out.data() + 16, &flatbuffer_offset, 8);
    std::memcpy(out.data() + 24, &flatbuffer_size, 8);
    std::memcpy(out.data() + 32, &base, 8);
    std::memcpy(out.data() + 40, &segment_size, 8);
    out.resize(base, 0);
    for (const auto& s : segments) {
      out.insert(out.end(), s.begin(), s.end());
      out.resize((out.size() + 15) / 16 * 16, 0);
    }
    return out;
  }

  std::vector<Entry> entries_;
  uint32_t version_ = 0;
};

}  // namespace testing
}  // namespace sy
