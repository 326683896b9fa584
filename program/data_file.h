// DataFile: an ExecuTorch data file (.ptd) of named tensors, for programs that keep tensors outside
// the program file (Tensor.extra_tensor_info.location = EXTERNAL, found by fully qualified name).
//
//   auto data = sy::DataFile::load("xor.ptd");
//   sy::MethodOptions options;
//   options.data_files.push_back(*data);
//   auto method = program.load_method("forward", options);
//
// Loading verifies the FlatBuffers data (identifier FT01) and checks that every entry's segment,
// type, shape and byte size are consistent, so lookups never read out of bounds. Files of
// ExecuTorch 0.6, whose root table listed tensors in a table of their own, are read too (See Note
// [Data files of ExecuTorch 0.6] in data_file.cpp); the layout before that, with its header at
// byte 0, is refused with a clear error (See Note [Extended header layouts]), and so is a file
// whose format version is newer than kNewestVersion, naming both versions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/core/program_scalar_type.h"

namespace sy {

class DataFile {
 public:
  struct Entry {
    std::string key;
    // Present when the entry describes a tensor.
    std::optional<ProgramScalarType> dtype;
    std::vector<int64_t> sizes;
    std::vector<int64_t> dim_order;
    absl::Span<const uint8_t> bytes;  // into the file's bytes, which the DataFile owns
  };

  static absl::StatusOr<std::shared_ptr<const DataFile>> load(const std::string& path);
  // Copies `bytes`; `name` is what error messages call the file.
  static absl::StatusOr<std::shared_ptr<const DataFile>> loadFromBuffer(absl::Span<const uint8_t> bytes,
                                                                       std::string name = "<buffer>");

  // The newest FlatTensor.version this build reads (ExecuTorch has written 0 so far).
  static constexpr uint32_t kNewestVersion = 0;

  const std::string& name() const { return name_; }
  // Which layout the file has: "ExecuTorch 1.x (named data)" or "ExecuTorch 0.6 (a tensors table)".
  const std::string& layout() const { return layout_; }
  // The format version written in the file (FlatTensor.version).
  uint32_t version() const { return version_; }
  const std::vector<Entry>& entries() const { return entries_; }
  // The entry called `key`, or null.
  const Entry* find(std::string_view key) const;

 private:
  DataFile() = default;
  static absl::StatusOr<std::shared_ptr<const DataFile>> parse(std::unique_ptr<uint8_t[]> bytes, size_t size,
                                                              std::string name);

  std::string name_;
  std::string layout_ = "ExecuTorch 1.x (named data)";
  uint32_t version_ = 0;
  std::unique_ptr<uint8_t[]> bytes_;
  std::vector<Entry> entries_;
};

}  // namespace sy
