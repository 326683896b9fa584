// BackendWithCompilerDemo's processed blob: a small text program of elementwise float operations,
// written by its preprocess (demo_preprocess.cpp) and read by its init (demo_backend.cpp). ExecuTorch's
// demo delegate, on our interfaces: both halves of the backend live in this folder.
//
//   BackendWithCompilerDemo
//   version 0
//   values 4 6 6 6 6                   <- how many value slots, then each slot's element count
//   inputs 1 0                         <- how many user inputs, then their slots in order
//   constants 1 1 0.5 0.25 1 2 -1 3    <- how many constants, then per constant: slot, its elements
//   instructions 2
//   add 2 0 1 debug_handle 1           <- one record per operation: op, result slot, operand
//   sin 3 2 debug_handle 2                slots, and the delegate's own debug handle
//   outputs 1 3
//
// Every value is a Float tensor of the slot's element count; add and mul read two slots of their
// result's count, sin one. The debug handles are the delegate's own numbers (1, 2, ...), which its
// preprocess maps to the graph nodes they came from (See Note [Delegate debug handles map back to
// graph nodes] in export/backend_details.h).
//
// Note [The demo's blob is checked before it is trusted]
// init runs on bytes from a file, so parsing checks everything a later step relies on: the
// header and version first (another version is an incompatibility, reported as such, before any
// other field is read), then every count against a limit, every slot index against the slot
// count, element counts of operands against their result, each slot defined once (input,
// constant or result) before it is read, and every output defined. Execution then indexes
// nothing it has not checked.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace sy::backend_with_compiler_demo {

inline constexpr char kBackendId[] = "BackendWithCompilerDemo";
inline constexpr uint32_t kVersion = 0;
// The most slots and elements (in all slots together) a program may have.
inline constexpr uint64_t kMaxSlots = uint64_t{1} << 16;
inline constexpr uint64_t kMaxElements = uint64_t{1} << 26;

enum class DemoOp : uint8_t { Add, Mul, Sin };
std::string_view toString(DemoOp op);
inline int operandCount(DemoOp op) { return op == DemoOp::Sin ? 1 : 2; }

struct DemoInstruction {
  DemoOp op = DemoOp::Add;
  uint32_t result = 0;
  uint32_t operands[2] = {0, 0};
  int64_t debug_handle = 0;
};

struct DemoConstant {
  uint32_t slot = 0;
  std::vector<float> values;
};

struct DemoProgram {
  uint32_t version = kVersion;
  std::vector<uint64_t> slot_elements;
  std::vector<uint32_t> inputs;
  std::vector<DemoConstant> constants;
  std::vector<DemoInstruction> instructions;
  std::vector<uint32_t> outputs;

  std::string serialize() const;
  // See Note [The demo's blob is checked before it is trusted]. A version other than kVersion is a
  // FailedPrecondition error; anything else malformed is InvalidArgument, naming the field.
  static absl::StatusOr<DemoProgram> parse(std::string_view text);
};

}  // namespace sy::backend_with_compiler_demo
