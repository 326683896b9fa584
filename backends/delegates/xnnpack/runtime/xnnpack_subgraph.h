// One XNNPACK runtime: a run of consecutive nodes of an XnnGraph defined into an XNNPACK subgraph
// (Debian's 2022-02 API) and created on a thread pool. The values it shares with the rest of the
// delegate (its inputs from and results for host steps, other runtimes and the delegate's
// arguments) are external values bound once to buffers that stay put; the others are XNNPACK's.
//
//   std::vector<SubgraphRuntime::External> ext = {{input_value, in_buffer}, {output_value, out_buffer}};
//   absl::StatusOr<std::unique_ptr<SubgraphRuntime>> r = SubgraphRuntime::create(graph, dims, nodes, constants, ext, pool, &refused);
//   absl::Status s = (*r)->invoke();
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"

struct xnn_runtime;
struct pthreadpool;

namespace sy::xnnpack {

class SubgraphRuntime {
 public:
  struct External {
    uint32_t value;
    void* data;  // at least the value's bytes plus XNN_EXTRA_BYTES
  };
  // Defines `nodes` (indices into graph.nodes, all of which XNNPACK should run) with `dims` as
  // each value's dims, `constants[v]` as the static data of constant value v, and `externals` bound
  // to their buffers. When XNNPACK refuses a node, `refused` is set to its index in `nodes`; when
  // it refuses the runtime as a whole, to nodes.size().
  static absl::StatusOr<std::unique_ptr<SubgraphRuntime>> create(const XnnGraph& graph, const std::vector<Dims>& dims,
                                                                 absl::Span<const uint32_t> nodes,
                                                                 const std::vector<const void*>& constants,
                                                                 absl::Span<const External> externals, pthreadpool* pool,
                                                                 size_t* refused);
  ~SubgraphRuntime();
  SubgraphRuntime(const SubgraphRuntime&) = delete;
  SubgraphRuntime& operator=(const SubgraphRuntime&) = delete;

  absl::Status invoke();

 private:
  SubgraphRuntime() = default;
  xnn_runtime* runtime_ = nullptr;
};

// XNNPACK's name for a status ("invalid_parameter").
const char* xnnStatusName(int status);

}  // namespace sy::xnnpack
