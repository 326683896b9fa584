// Internal to program/: the NamedDataMap a loaded method gives its delegates' init
// (delegate/backend_interface.h): the program's own named_data (NamedData in program.fbs: a key
// and the segment holding its bytes) merged with the named entries of the method's .ptd files.
//
//   MethodNamedData named(program, options.data_files);
//   absl::StatusOr<FreeableBuffer> weights = named.get_data("4c3f6bb8...");
//
// Lookups are by binary search over the keys, sorted once when the map is made, so a program with
// many weights and delegates costs O(n log n), never a scan per key. A key in several sources
// resolves to the first (the program, then each data file in order).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "switchyard/delegate/backend_interface.h"
#include "switchyard/program/data_file.h"
#include "switchyard/program/program_internal.h"

namespace sy {
namespace program_internal {

class MethodNamedData final : public NamedDataMap {
 public:
  MethodNamedData(std::shared_ptr<const ProgramData> program, std::vector<std::shared_ptr<const DataFile>> data_files);

  absl::StatusOr<FreeableBuffer> get_data(std::string_view key) const override;
  size_t num_keys() const override { return entries_.size(); }
  absl::StatusOr<std::string_view> get_key(size_t index) const override;

 private:
  struct Entry {
    std::string_view key;
    uint32_t source;  // 0: the program; k > 0: data_files_[k - 1]
    uint32_t index;   // into the program's named_data, or the data file's entries
  };
  std::shared_ptr<const ProgramData> program_;
  std::vector<std::shared_ptr<const DataFile>> data_files_;
  std::vector<Entry> entries_;  // in lookup order
  std::vector<uint32_t> sorted_;  // indices into entries_, by key, then by lookup order
};

}  // namespace program_internal
}  // namespace sy
