// The XNNPACK delegate's run-time half (ExecuTorch's XnnpackBackend, on Debian's XNNPACK): init
// reads ExecuTorch's blob (xnnpack_graph.h; written by ExecuTorch's exporter or by our preprocess,
// aot/xnnpack_preprocess.h), with weights from the program's named data, and makes its XNNPACK
// runtimes and host steps (xnnpack_graph_executable.h); execute runs them on the delegate's
// arguments; destroy releases them. It registers under kXnnpackBackendId
// when libswitchyard loads; the ahead-of-time half (aot/) registers its preprocess under the same id.
//
//   sy::BackendInterface* xnn = sy::get_backend_class("XnnpackBackend");
//   if (xnn->is_available()) { ... }     // false when xnn_initialize failed on this machine
//
// Threads: the run-time option "num_threads" (decimal text, 1 to 256; MethodOptions::
// backend_options["XnnpackBackend"]), else the compile spec of that name, else the environment
// variable SWITCHYARD_XNNPACK_THREADS sizes each delegate's pthreadpool; by default one thread per
// core. A bad value is an init error naming it.
//
// Other run-time options (MethodOptions::backend_options["XnnpackBackend"]):
// - "placement": "auto" (the default: each node in XNNPACK when Debian's XNNPACK runs it, else on
//   the host; See Note [How an XNNPACK delegate runs on Debian's XNNPACK]) or "host" (every node on
//   the host, a reference to compare XNNPACK's results with);
// - "verbose": "1" prints, when the delegate is initialised, where each node runs and why, one
//   line per node on stderr ("XnnpackBackend (method 'forward', delegate 0): node 0
//   (XNNStaticTranspose, fp32): host (XNNPACK 2022-02 has no XNNStaticTranspose)"); the
//   environment variable SWITCHYARD_XNNPACK_VERBOSE=1 does the same for every delegate.
#pragma once

#include <cstddef>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/delegate/backend_interface.h"

namespace sy::xnnpack {

// The id both halves register under (ExecuTorch's).
inline constexpr const char* kXnnpackBackendId = "XnnpackBackend";

class XnnpackBackend final : public BackendInterface {
 public:
  bool is_available() const override;
  absl::StatusOr<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                                       absl::Span<const CompileSpec> compile_specs) const override;
  absl::Status execute(BackendExecutionContext& context, DelegateHandle* handle,
                       absl::Span<IValue*> args) const override;
  void destroy(DelegateHandle* handle) const override;
  // A summary line, then one line per node: its kind, its operands' datatypes and dims ("qint8[2,
  // 8]", constants marked), and where it would run (XNNPACK, or the host and why).
  std::vector<std::string> describe(absl::Span<const uint8_t> processed, const NamedDataMap* named_data) const override;
};

// The thread count init would use for these options and the current environment.
absl::StatusOr<size_t> xnnpackThreadCount(absl::Span<const CompileSpec> compile_specs,
                                          absl::Span<const CompileSpec> runtime_specs = {});

}  // namespace sy::xnnpack
