#include <algorithm>

#include "switchyard/core/error.h"
#include "switchyard/program/named_data_internal.h"

namespace sy {
namespace program_internal {

MethodNamedData::MethodNamedData(std::shared_ptr<const ProgramData> program,
                                 std::vector<std::shared_ptr<const DataFile>> data_files)
    : program_(std::move(program)), data_files_(std::move(data_files)) {
  if (const auto* named = program_->root->named_data()) {
    for (uint32_t i = 0; i < named->size(); ++i) entries_.push_back({view(named->Get(i)->key()), 0, i});
  }
  for (size_t f = 0; f < data_files_.size(); ++f) {
    if (data_files_[f] == nullptr) continue;
    const std::vector<DataFile::Entry>& entries = data_files_[f]->entries();
    for (size_t i = 0; i < entries.size(); ++i) {
      entries_.push_back({entries[i].key, static_cast<uint32_t>(f + 1), static_cast<uint32_t>(i)});
    }
  }
  sorted_.resize(entries_.size());
  for (uint32_t i = 0; i < sorted_.size(); ++i) sorted_[i] = i;
  std::stable_sort(sorted_.begin(), sorted_.end(),
                   [&](uint32_t a, uint32_t b) { return entries_[a].key < entries_[b].key; });
}

absl::StatusOr<FreeableBuffer> MethodNamedData::get_data(std::string_view key) const {
  const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), key,
                                   [&](uint32_t e, std::string_view k) { return entries_[e].key < k; });
  if (it == sorted_.end() || entries_[*it].key != key) {
    return absl::NotFoundError(sy::str("no named data '", key, "' in ", program_->where(), " or its ",
                                       data_files_.size(), " data file", data_files_.size() == 1 ? "" : "s"));
  }
  const Entry& e = entries_[*it];
  if (e.source > 0) {
    const std::shared_ptr<const DataFile>& file = data_files_[e.source - 1];
    const absl::Span<const uint8_t> bytes = file->entries()[e.index].bytes;
    return FreeableBuffer(bytes.data(), bytes.size(), file);
  }
  const pte::NamedData* named = program_->root->named_data()->Get(e.index);
  absl::StatusOr<absl::Span<const uint8_t>> bytes = program_->segment(named->segment_index());
  if (!bytes.ok()) {
    return absl::InvalidArgumentError(sy::str("named data '", key, "': ", bytes.status().message()));
  }
  return FreeableBuffer(bytes->data(), bytes->size(), program_);
}

absl::StatusOr<std::string_view> MethodNamedData::get_key(size_t index) const {
  if (index >= entries_.size()) {
    return absl::InvalidArgumentError(sy::str("named data key ", index, " of ", entries_.size()));
  }
  return entries_[index].key;
}

}  // namespace program_internal
}  // namespace sy
