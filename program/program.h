// Program: an ExecuTorch program file (.pte) loaded, verified and ready to run its methods.
//
//   absl::StatusOr<sy::Program> program = sy::Program::load("model.pte");
//   if (!program.ok()) { std::cerr << program.status() << "\n"; return 1; }
//   absl::StatusOr<sy::Method> forward = program->load_method("forward");
//   forward->set_input(0, x);
//   forward->execute();
//   sy::Tensor y = forward->get_output(0).toTensor();
//
// The file is never trusted: loading runs the FlatBuffers verifier and then checks every index,
// offset and size the methods use (program/program_validation.cpp), so a truncated or hostile file
// is an absl::Status error naming the file, the method and the value or instruction at fault, and
// everything read after load is in bounds. Loading the program does not look at operators or
// backends; load_method does (method.h). A Program is cheap to copy (it shares the loaded bytes),
// and the methods loaded from it keep those bytes alive.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/program/method.h"
#include "switchyard/program/method_meta.h"

namespace sy {

namespace program_internal {
struct ProgramData;
}

// One blob of the program's own named data (Program.named_data): bytes a delegate (or, through
// the merged map a method's delegates get, a .ptd file) provides under a key.
struct NamedDataInfo {
  std::string key;
  uint64_t size = 0;  // bytes
  std::string error;  // why its bytes cannot be read (a segment past the file's), or empty
};

class Program {
 public:
  // Reads and verifies the file at `path`.
  static absl::StatusOr<Program> load(const std::string& path);
  // Verifies a copy of `bytes` (the caller's buffer is not used after this returns). `name` is what
  // error messages call it.
  static absl::StatusOr<Program> loadFromBuffer(absl::Span<const uint8_t> bytes, std::string name = "<buffer>");

  // The path it was loaded from, or the name given with the buffer.
  const std::string& name() const;
  // The newest Program.version this build reads (ExecuTorch's EXECUTORCH_SCHEMA_VERSION, 0 so far);
  // a newer file is refused at load, naming both versions.
  static constexpr uint32_t kNewestFormatVersion = 0;
  // The format version written in the file (0 when absent).
  uint32_t version() const;
  std::vector<std::string> method_names() const;
  // The program's own named data, in file order.
  std::vector<NamedDataInfo> named_data() const;
  absl::StatusOr<MethodMeta> method_meta(std::string_view method) const;

  // Prepares `method` to run: resolves its operators, initialises its delegates, lays out its
  // memory (see method.h). Errors name everything that is missing at once.
  absl::StatusOr<Method> load_method(std::string_view method, const MethodOptions& options = {}) const;

 private:
  explicit Program(std::shared_ptr<const program_internal::ProgramData> data) : data_(std::move(data)) {}
  static absl::StatusOr<Program> fromOwnedBytes(std::unique_ptr<uint8_t[]> bytes, size_t size, std::string name);

  std::shared_ptr<const program_internal::ProgramData> data_;
};

}  // namespace sy
