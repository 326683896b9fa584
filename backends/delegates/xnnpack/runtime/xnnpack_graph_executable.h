// GraphExecutable: one XNNPACK delegate of ExecuTorch's format, ready to run: the decoded graph
// (xnnpack_graph.h) split into XNNPACK runtimes for the runs of nodes Debian's XNNPACK takes and
// host steps for the others, with the buffers between them. What the XNNPACK backend's init
// returns as its DelegateHandle.
//
//   absl::StatusOr<std::unique_ptr<GraphExecutable>> e = GraphExecutable::create(std::move(graph), /*num_threads=*/2);
//   absl::Status s = (*e)->execute(args);               // the delegate call's arguments, by external id
//   for (const std::string& line : (*e)->placement()) std::cerr << line << "\n";
//
// Note [How an XNNPACK delegate runs on Debian's XNNPACK]
// Nodes run in the blob's order. Each node goes where hostReason (xnnpack_support.h) says, and a
// node XNNPACK refuses when it is defined, or a runtime it cannot create, moves to the host: the
// nodes of a failed runtime are tried one at a time and those that fail alone move (all of them
// when none does); after three rounds every node left runs on the host, so init always ends, in
// time linear in the graph. Each run of consecutive XNNPACK nodes is one XNNPACK runtime; each
// other node is one host step (xnnpack_host_kernels.h) reading and writing float views, with
// values of other datatypes converted on the way (xnnpack_quantize.h).
// A value has a buffer of the executable's own (its "home", padded by XNN_EXTRA_BYTES because
// XNNPACK may read past an input) when it is a delegate argument, a host step reads or writes it,
// or it passes from one runtime to another; a runtime binds such values as its external values,
// once, at init; so does a result nothing reads (Debian's XNNPACK gives such an internal value no
// memory and then asserts on it). Every other value lives inside one runtime. So every external
// value of every runtime has a buffer, and an output the method gave no memory (nobody reads it)
// is simply not copied out. execute
// allocates nothing: it copies the inputs into their homes, invokes the runtimes and host steps,
// and copies the outputs out. Homes are sized by the dims the blob declares, the bound of a
// dynamic input: when an input arrives with other dims (same rank, no larger), every shape is
// derived again (xnnpack_shapes.h), and the runtimes and host steps are made again for them;
// that allocates, once per change of shape. execute holds a mutex: one delegate runs on one
// thread at a time, two delegates at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_host_kernels.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_quantize.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_subgraph.h"
#include "switchyard/delegate/event_tracer.h"
#include "switchyard/ivalue/ivalue.h"

struct pthreadpool;

namespace sy::xnnpack {

class GraphExecutable {
 public:
  // `host_only`: every node on the host (the reference the tests compare XNNPACK with).
  static absl::StatusOr<std::unique_ptr<GraphExecutable>> create(XnnGraph graph, size_t num_threads, bool host_only = false);
  ~GraphExecutable();
  GraphExecutable(const GraphExecutable&) = delete;
  GraphExecutable& operator=(const GraphExecutable&) = delete;

  // `args`: one per external id (the delegate's inputs and outputs, in the blob's numbering).
  // With a tracer, each step is reported to it as it ends: a host step by its node's debug handle,
  // an XNNPACK runtime by name ("XNNPACK runtime 0 (nodes 1-3)"), since it runs several nodes.
  absl::Status execute(absl::Span<IValue*> args, EventTracer* tracer = nullptr);

  // One line per node: where it runs and, for a host step, why.
  std::vector<std::string> placement() const;
  const XnnGraph& graph() const { return g_; }

  // Executables alive in the process (the tests count).
  static size_t live();

 private:
  struct Operand {
    uint32_t value = kNoValue;
    Tensor view;                    // what the kernel reads or writes
    std::unique_ptr<float[]> floats;  // the float copy of a value stored in another datatype
    bool convert = false;           // toFloat before the kernel (input) or fromFloat after it (output)
  };
  struct HostStep {
    uint32_t node = 0;
    std::vector<Operand> inputs, outputs;
    std::unique_ptr<HostKernel> kernel;
  };
  struct Step {
    bool xnnpack = false;
    size_t index = 0;  // into runtimes_ or host_steps_
  };

  explicit GraphExecutable(XnnGraph graph);
  absl::Status place(size_t num_threads, bool host_only);
  absl::Status settle();
  absl::Status build();
  absl::Status makeHostStep(uint32_t node, HostStep& step);
  absl::Status runtimeFor(absl::Span<const uint32_t> nodes, std::unique_ptr<SubgraphRuntime>& out, size_t* refused,
                          bool probe);
  absl::Status bindArguments(absl::Span<IValue*> args);
  absl::Status reshapeFor(absl::Span<IValue*> args);
  absl::Status copyOutputs(absl::Span<IValue*> args);
  std::string argumentName(uint32_t value) const;

  XnnGraph g_;
  pthreadpool* pool_ = nullptr;
  std::vector<Dims> dims_;              // each value's current dims
  std::vector<bool> on_host_;           // per node
  std::vector<std::string> host_reason_;
  std::vector<bool> needs_home_;        // per value
  std::vector<uint8_t*> home_;          // per value: its buffer, or null
  std::vector<std::unique_ptr<uint8_t, void (*)(void*)>> buffers_;
  std::vector<const void*> constants_;  // per constant value: what XNNPACK reads (padded when it may read past)
  std::vector<std::unique_ptr<uint8_t[]>> padded_constants_;
  std::vector<bool> is_index_;          // per value: ArgMaxPooling2d's indices (uint32 in 4 bytes)
  std::vector<std::vector<RowQuantization>> rows_;  // per qdint8 value
  std::vector<Step> steps_;
  std::vector<std::unique_ptr<SubgraphRuntime>> runtimes_;
  std::vector<std::vector<uint32_t>> runtime_nodes_;
  std::vector<std::string> runtime_event_names_;  // per runtime
  std::vector<HostStep> host_steps_;
  uint64_t host_float_bytes_ = 0;
  std::mutex mutex_;
};

}  // namespace sy::xnnpack
