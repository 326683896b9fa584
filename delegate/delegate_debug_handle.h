// How a delegate backend says where in its own program an error happened: the debug handle it
// numbered the operation with (the one its preprocess put in the debug-handle map), carried as a
// payload of the absl::Status its execute (or init) returns.
//
//   if (overflow) {
//     return sy::withDelegateDebugHandle(absl::OutOfRangeError("value exceeds max_value"), instruction.debug_handle);
//   }
//
// Whoever ran the delegate (a loaded Method, ExportedProgram::run) turns the handle into the
// original operators and their source lines: "...; the delegate's debug handle 2 is aten::mul.Tensor
// (node 'mul') at model.cpp:14 (in forward)".
//
// Note [A program file keeps a delegate's debug-handle map in its stack traces]
// ExecuTorch's program format has no field for a delegate's debug-handle map (ExecuTorch keeps it
// beside the program, in an ETRecord), but it has, per instruction, a list of stack frames. The
// emitter gives a DelegateCall instruction one Frame per (delegate debug handle, original node):
// the node's innermost source location (filename, lineno, name = its function) and, as context,
// "delegate debug handle 2: aten::mul.Tensor (node 'mul')". Any reader of the format shows those
// frames as they are; a loaded Method parses the contexts back (parseDelegateFrameContext) into
// the map a failing delegate's message is made from. A frame whose context does not parse is
// only a frame.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"

namespace sy {

// `status` (not OK) with `debug_handle` attached; an OK status stays OK.
absl::Status withDelegateDebugHandle(absl::Status status, int64_t debug_handle);
// The debug handle attached to `status`, if any.
std::optional<int64_t> delegateDebugHandleOf(const absl::Status& status);

// A stack frame's context naming what the delegate's `debug_handle` came from, and back (See Note
// [A program file keeps a delegate's debug-handle map in its stack traces]).
std::string delegateFrameContext(int64_t debug_handle, std::string_view origin);
std::optional<std::pair<int64_t, std::string>> parseDelegateFrameContext(std::string_view context);

}  // namespace sy
