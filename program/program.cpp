#include "switchyard/program/program.h"

#include "switchyard/core/error.h"
#include "switchyard/program/program_internal.h"

namespace sy {

using program_internal::ProgramData;
using program_internal::view;

namespace program_internal {

std::string ProgramData::where() const { return sy::str("program '", name, "'"); }

std::string ProgramData::where(const pte::ExecutionPlan& plan) const {
  return sy::str("program '", name, "': method '", view(plan.name()), "'");
}

const pte::ExecutionPlan* ProgramData::findPlan(std::string_view method) const {
  if (root->execution_plan() == nullptr) return nullptr;
  for (const pte::ExecutionPlan* plan : *root->execution_plan()) {
    if (view(plan->name()) == method) return plan;
  }
  return nullptr;
}

absl::StatusOr<absl::Span<const uint8_t>> ProgramData::segment(size_t index) const {
  const auto* segments = root->segments();
  if (segments == nullptr || index >= segments->size()) {
    return absl::InvalidArgumentError(sy::str(where(), ": segment ", index, " does not exist (the program has ",
                                                   segments == nullptr ? 0 : segments->size(), ")"));
  }
  const pte::DataSegment* s = segments->Get(static_cast<uint32_t>(index));
  const uint64_t base = header ? header->segment_base_offset : 0;
  if (s->size() == 0) return absl::Span<const uint8_t>();
  if (!header || base == 0) {
    return absl::InvalidArgumentError(
        sy::str(where(), ": segment ", index, " holds ", s->size(),
                     " bytes but the file has no extended header saying where segments start"));
  }
  const uint64_t available = file.size() - base;  // base <= file.size(), checked with the header
  if (s->offset() > available || s->size() > available - s->offset()) {
    return absl::InvalidArgumentError(sy::str(where(), ": segment ", index, " [", s->offset(), ", +", s->size(),
                                                   ") runs past the end of the file's ", available,
                                                   " bytes of segment data (truncated?)"));
  }
  return file.subspan(base + s->offset(), s->size());
}

absl::StatusOr<absl::Span<const uint8_t>> ProgramData::storedTensorData(const pte::Tensor& t, uint64_t nbytes) const {
  const uint32_t index = t.data_buffer_idx();
  const pte::ExtraTensorInfo* extra = t.extra_tensor_info();
  if (index == 0 || (extra != nullptr && extra->location() == pte::TensorDataLocation::EXTERNAL)) {
    return absl::Span<const uint8_t>();
  }
  auto fits = [&](absl::Span<const uint8_t> bytes, uint64_t offset, const char* what) -> absl::StatusOr<absl::Span<const uint8_t>> {
    if (offset > bytes.size() || nbytes > bytes.size() - offset) {
      return absl::InvalidArgumentError(sy::str("data_buffer_idx ", index, ": ", nbytes, " bytes at offset ",
                                                     offset, " run past the end of the ", bytes.size(), "-byte ", what));
    }
    return bytes.subspan(offset, nbytes);
  };
  const pte::SubsegmentOffsets* subsegments = nullptr;
  if (t.allocation_info() != nullptr) {
    // A mutable tensor with an initial value.
    const auto* mutable_segments = root->mutable_data_segments();
    const uint64_t which = extra != nullptr ? extra->mutable_data_segments_idx() : 0;
    if (mutable_segments == nullptr || which >= mutable_segments->size()) {
      return absl::InvalidArgumentError(sy::str("data_buffer_idx ", index,
                                                     " gives a planned tensor an initial value, but mutable_data_segments[",
                                                     which, "] does not exist"));
    }
    subsegments = mutable_segments->Get(static_cast<uint32_t>(which));
  } else if (root->constant_buffer() != nullptr && root->constant_buffer()->size() > 0) {
    const auto* buffers = root->constant_buffer();
    if (index >= buffers->size()) {
      return absl::InvalidArgumentError(sy::str("data_buffer_idx ", index, " is past the end of constant_buffer (",
                                                     buffers->size(), " entries)"));
    }
    const auto* storage = buffers->Get(index)->storage();
    absl::Span<const uint8_t> bytes = storage == nullptr ? absl::Span<const uint8_t>()
                                                         : absl::Span<const uint8_t>(storage->data(), storage->size());
    return fits(bytes, 0, "constant buffer");
  } else {
    subsegments = root->constant_segment();
    if (subsegments == nullptr) {
      return absl::InvalidArgumentError(sy::str("data_buffer_idx ", index,
                                                     " names constant data, but the program has neither constant_buffer "
                                                     "nor constant_segment"));
    }
  }
  const auto* offsets = subsegments->offsets();
  if (offsets == nullptr || index >= offsets->size()) {
    return absl::InvalidArgumentError(sy::str("data_buffer_idx ", index, " is past the end of the segment's offsets (",
                                                   offsets == nullptr ? 0 : offsets->size(), " entries)"));
  }
  absl::StatusOr<absl::Span<const uint8_t>> seg = segment(subsegments->segment_index());
  if (!seg.ok()) return seg.status();
  return fits(*seg, elementAt(offsets, index), "segment");
}

absl::StatusOr<absl::Span<const uint8_t>> ProgramData::delegateData(const pte::BackendDelegate& d) const {
  const pte::BackendDelegateDataReference* ref = d.processed();
  if (ref == nullptr) return absl::InvalidArgumentError("the delegate has no processed data reference");
  if (ref->location() == pte::DataLocation::SEGMENT) return segment(ref->index());
  const auto* inline_data = root->backend_delegate_data();
  if (inline_data == nullptr || ref->index() >= inline_data->size()) {
    return absl::InvalidArgumentError(sy::str("inline delegate data ", ref->index(), " does not exist (the program has ",
                                                   inline_data == nullptr ? 0 : inline_data->size(), ")"));
  }
  const auto* data = inline_data->Get(ref->index())->data();
  if (data == nullptr) return absl::Span<const uint8_t>();
  return absl::Span<const uint8_t>(data->data(), data->size());
}

}  // namespace program_internal

absl::StatusOr<Program> Program::load(const std::string& path) {
  absl::StatusOr<FileBytes> file = readFileBytes(path, "program");
  if (!file.ok()) return file.status();
  return fromOwnedBytes(std::move(file->bytes), file->size, path);
}

absl::StatusOr<Program> Program::loadFromBuffer(absl::Span<const uint8_t> bytes, std::string name) {
  FileBytes copy = copyBytes(bytes);
  return fromOwnedBytes(std::move(copy.bytes), copy.size, std::move(name));
}

absl::StatusOr<Program> Program::fromOwnedBytes(std::unique_ptr<uint8_t[]> bytes, size_t size, std::string name) {
  auto data = std::make_shared<ProgramData>();
  data->name = std::move(name);
  data->owned = std::move(bytes);
  data->file = absl::Span<const uint8_t>(data->owned.get(), size);
  if (size < 8 || !pte::ProgramBufferHasIdentifier(data->file.data())) {
    return absl::InvalidArgumentError(sy::str(data->where(), ": not an ExecuTorch program (expected the file identifier ",
                                                   "ET12 at byte 4; the file has ", size, " bytes)"));
  }
  absl::StatusOr<std::optional<ExtendedHeader>> header = parseExtendedHeader(data->file);
  if (!header.ok()) return absl::InvalidArgumentError(sy::str(data->where(), ": ", header.status().message()));
  data->header = *header;
  const size_t flatbuffer_size = data->header ? data->header->program_size : size;

  flatbuffers::Verifier verifier(data->file.data(), flatbuffer_size);
  if (!pte::VerifyProgramBuffer(verifier)) {
    return absl::InvalidArgumentError(sy::str(data->where(), ": the FlatBuffers data (", flatbuffer_size,
                                                   " bytes) fails verification: truncated or corrupt"));
  }
  data->root = pte::GetProgram(data->file.data());
  if (data->root->version() > kNewestFormatVersion) {
    return absl::UnimplementedError(sy::str(data->where(), " has format version ", data->root->version(),
                                            ", but this build of Switchyard reads programs up to version ",
                                            kNewestFormatVersion, " (written by a newer ExecuTorch; re-export it with "
                                            "the version this build knows, or update Switchyard)"));
  }
  if (absl::Status s = program_internal::validateProgram(*data); !s.ok()) return s;
  return Program(std::move(data));
}

const std::string& Program::name() const { return data_->name; }

uint32_t Program::version() const { return data_->root->version(); }

std::vector<NamedDataInfo> Program::named_data() const {
  std::vector<NamedDataInfo> out;
  if (const auto* named = data_->root->named_data()) {
    for (const pte::NamedData* n : *named) {
      absl::StatusOr<absl::Span<const uint8_t>> bytes = data_->segment(n->segment_index());
      out.push_back({std::string(view(n->key())), bytes.ok() ? bytes->size() : 0,
                     bytes.ok() ? std::string() : std::string(bytes.status().message())});
    }
  }
  return out;
}

std::vector<std::string> Program::method_names() const {
  std::vector<std::string> names;
  if (data_->root->execution_plan() != nullptr) {
    for (const pte::ExecutionPlan* plan : *data_->root->execution_plan()) names.emplace_back(view(plan->name()));
  }
  return names;
}

}  // namespace sy
