// XnnpackExecutable: one delegate's XNNPACK runtime, built once from a checked blob at init and
// run by execute; what the XNNPACK backend's init returns as its DelegateHandle.
//
//   absl::StatusOr<std::unique_ptr<XnnpackExecutable>> e = XnnpackExecutable::create(bytes, size, /*num_threads=*/2);
//   absl::Status s = (*e)->execute(args);   // inputs, then outputs, as BackendInterface::execute gets them
//
// Note [An XNNPACK blob is checked before XNNPACK sees it]
// The blob comes from a file. create() verifies the FlatBuffers buffer, its identifier and
// version, every value id, dimension count, element count (with overflow checks) and constant
// size, every node's operand and parameter counts, and that parameters fit XNNPACK's 32-bit
// fields, before any xnn_define_* call; what XNNPACK itself then refuses (a shape that does not
// fit a node) is an error naming the node and the operator it came from. Nothing in a bad blob
// reaches memory it does not own.
//
// Note [XNNPACK runs in staging buffers]
// XNNPACK may read up to XNN_EXTRA_BYTES past an input and its runtime is not reentrant. Each
// executable owns padded staging buffers for its inputs (copied, or transposed from NCHW) and for
// its channels-last outputs (transposed back after the run); other outputs are written in place.
// execute holds the executable's mutex from staging to the last copy out, so two threads running
// one delegate take turns, and two delegates run at the same time. execute allocates nothing: the
// staging buffers and the list of external values it hands xnn_setup_runtime are made at init,
// as ExecuTorch asks of a method while it executes (a strided input, which a program never
// passes, is the one exception: it is read through a dense copy).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/backends/xnnpack/runtime/xnnpack_graph.h"
#include "switchyard/ivalue/ivalue.h"

struct xnn_runtime;
struct pthreadpool;
struct xnn_external_value;

namespace sy::xnnpack {

// The blob's format version; init refuses any other.
inline constexpr uint32_t kXnnpackBlobVersion = 1;

class XnnpackExecutable {
 public:
  // Checks the blob, defines the XNNPACK subgraph, and creates its runtime on a thread pool of
  // `num_threads` (1: no pool). The blob may be freed afterwards.
  static absl::StatusOr<std::unique_ptr<XnnpackExecutable>> create(const void* data, size_t size, size_t num_threads);
  ~XnnpackExecutable();
  XnnpackExecutable(const XnnpackExecutable&) = delete;
  XnnpackExecutable& operator=(const XnnpackExecutable&) = delete;

  // `args`: the delegate's inputs, then its outputs (Float CPU tensors of the shapes the blob was
  // made for; outputs contiguous, a strided input is read through a dense copy). An error names
  // the argument, or the XNNPACK nodes that ran.
  absl::Status execute(absl::Span<IValue*> args);

  // Executables alive in the process (destroy releases each exactly once; the tests count).
  static size_t live();

  struct Edge {
    uint32_t arg = 0;
    uint32_t value = 0;
    bool transpose = false;           // NCHW <-> NHWC at the edge
    std::vector<size_t> dims;         // the XNNPACK value's dims
    size_t numel = 0;
    std::vector<float> staging;       // inputs and transposed outputs; padded
  };
  struct NodeInfo {
    std::string operator_name;
  };

 private:
  XnnpackExecutable() = default;
  absl::Status checkArgument(absl::Span<IValue*> args, const Edge& edge, bool output) const;
  std::string nodesDescription() const;

  uint32_t num_inputs_ = 0, num_outputs_ = 0;
  std::vector<std::vector<float>> constants_;  // static data, alive as long as the runtime
  std::vector<Edge> inputs_, outputs_;
  std::vector<xnn_external_value> externals_;  // execute's list for xnn_setup_runtime, reused
  std::vector<NodeInfo> nodes_;
  xnn_runtime* runtime_ = nullptr;
  pthreadpool* pool_ = nullptr;
  std::mutex mutex_;

  friend class ExecutableBuilder;
};

}  // namespace sy::xnnpack
