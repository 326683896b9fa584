#include "switchyard/program/data_file.h"

#include "switchyard/core/error.h"
#include "switchyard/program/file_headers.h"
#include "switchyard/program/program_internal.h"
#include "switchyard/program/schema/flat_tensor_generated.h"

namespace sy {

using program_internal::view;

absl::StatusOr<std::shared_ptr<const DataFile>> DataFile::load(const std::string& path) {
  absl::StatusOr<FileBytes> file = readFileBytes(path, "data file");
  if (!file.ok()) return file.status();
  return parse(std::move(file->bytes), file->size, path);
}

absl::StatusOr<std::shared_ptr<const DataFile>> DataFile::loadFromBuffer(absl::Span<const uint8_t> bytes,
                                                                        std::string name) {
  FileBytes copy = copyBytes(bytes);
  return parse(std::move(copy.bytes), copy.size, std::move(name));
}

absl::StatusOr<std::shared_ptr<const DataFile>> DataFile::parse(std::unique_ptr<uint8_t[]> bytes, size_t size,
                                                               std::string name) {
  const std::string where = sy::str("data file '", name, "'");
  absl::Span<const uint8_t> file(bytes.get(), size);
  absl::StatusOr<DataFileHeader> header = parseDataFileHeader(file);
  if (!header.ok()) return absl::InvalidArgumentError(sy::str(where, ": ", header.status().message()));

  const size_t flatbuffer_end = header->flatbuffer_offset + header->flatbuffer_size;  // checked: within the file
  flatbuffers::Verifier verifier(file.data(), flatbuffer_end);
  if (!ptd::VerifyFlatTensorBuffer(verifier)) {
    return absl::InvalidArgumentError(sy::str(where, ": the FlatBuffers data fails verification: truncated or corrupt"));
  }
  const ptd::FlatTensor* root = ptd::GetFlatTensor(file.data());
  const absl::Span<const uint8_t> segment_data = file.subspan(header->segment_base_offset, header->segment_data_size);
  const auto* segments = root->segments();
  const size_t num_segments = segments == nullptr ? 0 : segments->size();

  std::shared_ptr<DataFile> data(new DataFile());
  data->name_ = std::move(name);
  if (root->named_data() != nullptr) {
    for (size_t i = 0; i < root->named_data()->size(); ++i) {
      const ptd::NamedData* named = root->named_data()->Get(static_cast<uint32_t>(i));
      Entry entry;
      entry.key = std::string(view(named->key()));
      const std::string what = sy::str(where, ": entry ", i, " ('", entry.key, "')");
      if (named->segment_index() >= num_segments) {
        return absl::InvalidArgumentError(sy::str(what, " is in segment ", named->segment_index(), ", but the file has ",
                                                       num_segments));
      }
      const ptd::DataSegment* seg = segments->Get(named->segment_index());
      if (seg->offset() > segment_data.size() || seg->size() > segment_data.size() - seg->offset()) {
        return absl::InvalidArgumentError(sy::str(what, ": segment ", named->segment_index(), " [", seg->offset(), ", +",
                                                       seg->size(), ") runs past the file's ", segment_data.size(),
                                                       " bytes of segment data (truncated?)"));
      }
      entry.bytes = segment_data.subspan(seg->offset(), seg->size());
      if (const ptd::TensorLayout* layout = named->tensor_layout()) {
        entry.dtype = programScalarTypeFromCode(static_cast<int>(layout->scalar_type()));
        if (!entry.dtype) {
          return absl::InvalidArgumentError(sy::str(what, ": scalar type ", static_cast<int>(layout->scalar_type()),
                                                         " is not one the format defines"));
        }
        int64_t numel = 1;
        if (layout->sizes() != nullptr) {
          for (int32_t s : *layout->sizes()) {
            if (s < 0 || __builtin_mul_overflow(numel, static_cast<int64_t>(s), &numel)) {
              return absl::InvalidArgumentError(sy::str(what, ": its sizes are negative or overflow"));
            }
            entry.sizes.push_back(s);
          }
        }
        if (layout->dim_order() != nullptr) entry.dim_order.assign(layout->dim_order()->begin(), layout->dim_order()->end());
        int64_t nbytes = 0;
        if (__builtin_mul_overflow(numel, static_cast<int64_t>(elementSize(*entry.dtype)), &nbytes) ||
            static_cast<uint64_t>(nbytes) > entry.bytes.size()) {
          return absl::InvalidArgumentError(sy::str(what, ": a ", toString(*entry.dtype), " tensor of ", numel,
                                                         " elements does not fit its ", entry.bytes.size(), "-byte segment"));
        }
      }
      data->entries_.push_back(std::move(entry));
    }
  }
  data->bytes_ = std::move(bytes);
  return std::shared_ptr<const DataFile>(std::move(data));
}

const DataFile::Entry* DataFile::find(std::string_view key) const {
  for (const Entry& e : entries_) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

}  // namespace sy
