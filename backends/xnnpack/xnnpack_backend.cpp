#include "switchyard/backends/xnnpack/xnnpack_backend.h"

#include <xnnpack.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "switchyard/backends/xnnpack/xnnpack_executable.h"
#include "switchyard/backends/xnnpack/xnnpack_preprocess.h"
#include "switchyard/delegate/backend_registry.h"

namespace sy::xnnpack {
namespace {

constexpr size_t kMaxThreads = 256;

// xnn_initialize once per process; XNNPACK is never deinitialised (delegates may live until exit).
xnn_status initializeXnnpack() {
  static const xnn_status status = xnn_initialize(/*allocator=*/nullptr);
  return status;
}

absl::StatusOr<size_t> parseThreads(absl::string_view text, absl::string_view source) {
  size_t n = 0;
  if (!absl::SimpleAtoi(text, &n) || n < 1 || n > kMaxThreads) {
    return absl::InvalidArgumentError(absl::StrCat("XnnpackBackend init: ", source, " is '", text,
                                                   "'; give a thread count from 1 to ", kMaxThreads));
  }
  return n;
}

}  // namespace

absl::StatusOr<size_t> xnnpackThreadCount(absl::Span<const CompileSpec> compile_specs) {
  for (const CompileSpec& spec : compile_specs) {
    if (spec.key != std::string_view("num_threads")) continue;
    return parseThreads(std::string(spec.value.begin(), spec.value.end()), "compile spec num_threads");
  }
  if (const char* env = std::getenv("SWITCHYARD_XNNPACK_THREADS"); env != nullptr && *env != '\0') {
    return parseThreads(absl::string_view(env), "SWITCHYARD_XNNPACK_THREADS");
  }
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? size_t{1} : std::min<size_t>(cores, kMaxThreads);
}

bool XnnpackBackend::is_available() const { return initializeXnnpack() == xnn_status_success; }

absl::StatusOr<DelegateHandle*> XnnpackBackend::init(BackendInitContext& context, FreeableBuffer* processed,
                                                     absl::Span<const CompileSpec> compile_specs) const {
  if (!is_available()) {
    return absl::FailedPreconditionError("XnnpackBackend init: xnn_initialize failed: XNNPACK cannot run on this CPU");
  }
  if (processed == nullptr) return absl::InvalidArgumentError("XnnpackBackend init: no processed blob");
  absl::StatusOr<size_t> threads = xnnpackThreadCount(compile_specs);
  if (!threads.ok()) return threads.status();
  absl::StatusOr<std::unique_ptr<XnnpackExecutable>> e =
      XnnpackExecutable::create(processed->data(), processed->size(), *threads);
  if (!e.ok()) {
    return absl::Status(e.status().code(), absl::StrCat(e.status().message(), " (method '", std::string(context.method_name),
                                                        "', delegate ", context.delegate_index, ")"));
  }
  return static_cast<DelegateHandle*>(e->release());
}

absl::Status XnnpackBackend::execute(BackendExecutionContext& context, DelegateHandle* handle,
                                     absl::Span<IValue*> args) const {
  if (handle == nullptr) return absl::InvalidArgumentError("XnnpackBackend execute: no handle");
  absl::Status s = static_cast<XnnpackExecutable*>(handle)->execute(args);
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(s.message(), " (method '", std::string(context.method_name), "', delegate ",
                                             context.delegate_index, ")"));
}

void XnnpackBackend::destroy(DelegateHandle* handle) const { delete static_cast<XnnpackExecutable*>(handle); }

namespace {
XnnpackBackend backend;
XnnpackBackendDetails details;
const absl::Status registered = register_backend({kXnnpackBackendId, &backend});
const absl::Status details_registered = export_::registerBackendDetails(kXnnpackBackendId, &details);
}  // namespace

}  // namespace sy::xnnpack
