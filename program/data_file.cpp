#include "switchyard/program/data_file.h"

#include "switchyard/core/error.h"
#include "switchyard/program/file_headers.h"
#include "switchyard/program/program_internal.h"
#include "switchyard/program/schema/flat_tensor_generated.h"
#include "switchyard/program/schema/flat_tensor_v0_6_generated.h"

namespace sy {

using program_internal::view;

// Note [Data files of ExecuTorch 0.6]
// ExecuTorch 0.6 wrote .ptd files with the same identifier (FT01) and header (FH01) as today's,
// but another root table: after `version` came `tensor_alignment`, then a `tensors` table (name,
// dtype, sizes, dim order, segment and offset of each tensor), then `segments` and `named_data`
// (blobs without a layout). Today's table has `segments` and `named_data` (with an optional
// layout) right after `version`, so a 0.6 file read with today's schema fails verification, or
// worse, passes it and means something else; ExecuTorch 1.4 refuses such files. They are told
// apart by their root table: only the 0.6 table has fields past the third (its `segments` and
// `named_data`), and a 0.6 file with tensors has segments. Such a file is read with the 0.6 schema
// (program/schema/flat_tensor_v0_6.fbs) into the same entries: each tensor becomes a typed entry
// under its fully qualified name, at its offset in its segment, and each named blob an untyped one.

namespace {

absl::Status invalid(const std::string& what, const std::string& why) {
  return absl::InvalidArgumentError(sy::str(what, why));
}

// Checks a tensor entry's layout against its bytes and fills in `entry`.
absl::Status describeTensor(DataFile::Entry& entry, int scalar_type, const flatbuffers::Vector<int32_t>* sizes,
                            const flatbuffers::Vector<uint8_t>* dim_order, const std::string& what) {
  entry.dtype = programScalarTypeFromCode(scalar_type);
  if (!entry.dtype) return invalid(what, sy::str(": scalar type ", scalar_type, " is not one the format defines"));
  int64_t numel = 1;
  if (sizes != nullptr) {
    for (int32_t s : *sizes) {
      if (s < 0 || __builtin_mul_overflow(numel, static_cast<int64_t>(s), &numel)) {
        return invalid(what, ": its sizes are negative or overflow");
      }
      entry.sizes.push_back(s);
    }
  }
  if (dim_order != nullptr) entry.dim_order.assign(dim_order->begin(), dim_order->end());
  int64_t nbytes = 0;
  if (__builtin_mul_overflow(numel, static_cast<int64_t>(elementSize(*entry.dtype)), &nbytes) ||
      static_cast<uint64_t>(nbytes) > entry.bytes.size()) {
    return invalid(what, sy::str(": a ", toString(*entry.dtype), " tensor of ", numel, " elements does not fit its ",
                                 entry.bytes.size(), "-byte segment"));
  }
  entry.bytes = entry.bytes.subspan(0, static_cast<size_t>(nbytes));  // a 0.6 segment may hold the tensors after it
  return absl::OkStatus();
}

// Bytes [offset, end of segment `index`) of the file's segment data, checked.
template <class Segments>
absl::StatusOr<absl::Span<const uint8_t>> segmentBytes(const Segments* segments, uint32_t index, uint64_t offset,
                                                       absl::Span<const uint8_t> segment_data, const std::string& what) {
  const size_t count = segments == nullptr ? 0 : segments->size();
  if (index >= count) return invalid(what, sy::str(" is in segment ", index, ", but the file has ", count));
  const auto* seg = segments->Get(index);
  if (seg->offset() > segment_data.size() || seg->size() > segment_data.size() - seg->offset()) {
    return invalid(what, sy::str(": segment ", index, " [", seg->offset(), ", +", seg->size(), ") runs past the file's ",
                                 segment_data.size(), " bytes of segment data (truncated?)"));
  }
  if (offset > seg->size()) {
    return invalid(what, sy::str(": offset ", offset, " is past the end of segment ", index, " (", seg->size(), " bytes)"));
  }
  return segment_data.subspan(seg->offset() + offset, seg->size() - offset);
}

absl::Status checkVersion(uint32_t version, const std::string& where) {
  if (version <= DataFile::kNewestVersion) return absl::OkStatus();
  return absl::UnimplementedError(sy::str(where, " has format version ", version, ", but this build of Switchyard reads "
                                          "data files up to version ", DataFile::kNewestVersion,
                                          " (written by a newer ExecuTorch; re-export it with the version this build "
                                          "knows, or update Switchyard)"));
}

// Whether the root table is the 0.6 layout: See Note [Data files of ExecuTorch 0.6].
bool isVersion0_6Layout(const uint8_t* file, size_t flatbuffer_end) {
  flatbuffers::Verifier verifier(file, flatbuffer_end);
  if (!ptd::v0_6::VerifyFlatTensorBuffer(verifier)) return false;
  const ptd::v0_6::FlatTensor* root = ptd::v0_6::GetFlatTensor(file);
  return root->segments() != nullptr || root->named_data() != nullptr;
}

}  // namespace

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
  const absl::Span<const uint8_t> segment_data = file.subspan(header->segment_base_offset, header->segment_data_size);
  std::shared_ptr<DataFile> data(new DataFile());
  data->name_ = std::move(name);
  if (isVersion0_6Layout(file.data(), flatbuffer_end)) {
    const ptd::v0_6::FlatTensor* root = ptd::v0_6::GetFlatTensor(file.data());
    if (auto s = checkVersion(root->version(), where); !s.ok()) return s;
    data->layout_ = "ExecuTorch 0.6 (a tensors table)";
    data->version_ = root->version();
    for (uint32_t i = 0; root->tensors() != nullptr && i < root->tensors()->size(); ++i) {
      const ptd::v0_6::TensorMetadata* t = root->tensors()->Get(i);
      Entry entry;
      entry.key = std::string(view(t->fully_qualified_name()));
      const std::string what = sy::str(where, ": tensor ", i, " ('", entry.key, "')");
      absl::StatusOr<absl::Span<const uint8_t>> bytes =
          segmentBytes(root->segments(), t->segment_index(), t->offset(), segment_data, what);
      if (!bytes.ok()) return bytes.status();
      entry.bytes = *bytes;
      if (auto s = describeTensor(entry, static_cast<int>(t->scalar_type()), t->sizes(), t->dim_order(), what); !s.ok()) {
        return s;
      }
      data->entries_.push_back(std::move(entry));
    }
    for (uint32_t i = 0; root->named_data() != nullptr && i < root->named_data()->size(); ++i) {
      const ptd::v0_6::NamedData* named = root->named_data()->Get(i);
      Entry entry;
      entry.key = std::string(view(named->key()));
      absl::StatusOr<absl::Span<const uint8_t>> bytes = segmentBytes(
          root->segments(), named->segment_index(), 0, segment_data, sy::str(where, ": entry ", i, " ('", entry.key, "')"));
      if (!bytes.ok()) return bytes.status();
      entry.bytes = *bytes;
      data->entries_.push_back(std::move(entry));
    }
    data->bytes_ = std::move(bytes);
    return std::shared_ptr<const DataFile>(std::move(data));
  }
  flatbuffers::Verifier verifier(file.data(), flatbuffer_end);
  if (!ptd::VerifyFlatTensorBuffer(verifier)) {
    return absl::InvalidArgumentError(sy::str(where, ": the FlatBuffers data fails verification: truncated or corrupt"));
  }
  const ptd::FlatTensor* root = ptd::GetFlatTensor(file.data());
  if (auto s = checkVersion(root->version(), where); !s.ok()) return s;
  data->version_ = root->version();
  for (uint32_t i = 0; root->named_data() != nullptr && i < root->named_data()->size(); ++i) {
    const ptd::NamedData* named = root->named_data()->Get(i);
    Entry entry;
    entry.key = std::string(view(named->key()));
    const std::string what = sy::str(where, ": entry ", i, " ('", entry.key, "')");
    absl::StatusOr<absl::Span<const uint8_t>> bytes = segmentBytes(root->segments(), named->segment_index(), 0, segment_data, what);
    if (!bytes.ok()) return bytes.status();
    entry.bytes = *bytes;
    if (const ptd::TensorLayout* layout = named->tensor_layout()) {
      if (auto s = describeTensor(entry, static_cast<int>(layout->scalar_type()), layout->sizes(), layout->dim_order(), what);
          !s.ok()) {
        return s;
      }
    }
    data->entries_.push_back(std::move(entry));
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
