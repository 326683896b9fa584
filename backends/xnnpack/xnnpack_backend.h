// The XNNPACK delegate's run-time half (ExecuTorch's XnnpackBackend, on Debian's XNNPACK):
// init builds an XNNPACK runtime from the blob preprocess wrote (xnnpack_preprocess.h), execute
// runs it on the delegate's arguments, destroy releases it. Both halves register under
// "XnnpackBackend" when libswitchyard loads.
//
//   sy::BackendInterface* xnn = sy::get_backend_class("XnnpackBackend");
//   if (xnn->is_available()) { ... }     // false when xnn_initialize failed on this machine
//
// Threads: the compile spec "num_threads" (decimal text, 1 to 256) or else the environment
// variable SWITCHYARD_XNNPACK_THREADS sizes each delegate's pthreadpool; by default one thread
// per core. A bad value is an init error naming it.
#pragma once

#include <cstddef>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/delegate/backend_interface.h"

namespace sy::xnnpack {

class XnnpackBackend final : public BackendInterface {
 public:
  bool is_available() const override;
  absl::StatusOr<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                                       absl::Span<const CompileSpec> compile_specs) const override;
  absl::Status execute(BackendExecutionContext& context, DelegateHandle* handle,
                       absl::Span<IValue*> args) const override;
  void destroy(DelegateHandle* handle) const override;
};

// The thread count init would use for these compile specs and the current environment.
absl::StatusOr<size_t> xnnpackThreadCount(absl::Span<const CompileSpec> compile_specs);

}  // namespace sy::xnnpack
