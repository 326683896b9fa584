// SourceScope: attributes the operator calls a capture records to a line of C++ source.
//
//   Tensor Block::forward(const Tensor& x) {
//     sy::export_::SourceScope scope;               // this function, this line: one stack frame
//     Tensor h = SY_SOURCE(sy::ops::conv2d(x, w));  // this statement's line: the innermost frame
//     return SY_SOURCE(sy::ops::relu(h));
//   }
//
// Note [Source locations of captured operators]
// Each node a capture records carries the stack of SourceScopes active when its operator was
// called, outermost first: the line that started the capture, then every scope the model's code
// opened (a function, a block, a statement), so the innermost frame is the statement that made
// the node and the frames above it are the path that led there. The emitter writes the stack into
// the program's per-instruction stack traces, inspect_node prints it.
//
// The scopes are plain objects in the model's code; the dispatcher never sees them, so nothing on
// the call path pays for them. Outside a capture a scope is one thread-local read and does nothing
// else. The alternative, a defaulted __builtin_LINE() argument on every sy::ops helper, would put
// a store on every eager helper call and change every helper's signature; the scopes make the
// model's author say which lines matter, at no cost to anyone else.
//
// Scopes must nest (they are RAII objects on one thread). SY_SOURCE(expr) is a scope for the
// duration of one full expression.
#pragma once

#include <cstdint>
#include <vector>

#include "switchyard/export/graph.h"

namespace sy::export_ {

class SourceScope {
 public:
  explicit SourceScope(const char* file = __builtin_FILE(), uint32_t line = __builtin_LINE(),
                       const char* function = __builtin_FUNCTION());
  ~SourceScope();
  SourceScope(const SourceScope&) = delete;
  SourceScope& operator=(const SourceScope&) = delete;

 private:
  bool pushed_ = false;
};

namespace detail {
// The frames of the scopes open on this thread, outermost first (only while a capture is active).
std::vector<SourceFrame> currentSourceStack();
// Whether this thread is capturing; Capture turns it on and off (scopes opened before the capture
// started are not in its stacks).
bool captureActiveOnThisThread();
void setCaptureActiveOnThisThread(bool active);
}  // namespace detail

}  // namespace sy::export_

// Evaluates `expr` with a SourceScope for the line it is written on.
#define SY_SOURCE(...) (::sy::export_::SourceScope(__FILE__, __LINE__, __func__), (__VA_ARGS__))
