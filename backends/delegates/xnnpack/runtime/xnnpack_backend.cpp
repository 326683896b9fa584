#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_backend.h"

#include <xnnpack.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_support.h"
#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph_executable.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/core/error.h"

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

absl::StatusOr<size_t> xnnpackThreadCount(absl::Span<const CompileSpec> compile_specs,
                                          absl::Span<const CompileSpec> runtime_specs) {
  for (const CompileSpec& spec : runtime_specs) {
    if (spec.key != std::string_view("num_threads")) continue;
    return parseThreads(std::string(spec.value.begin(), spec.value.end()), "run-time option num_threads");
  }
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

namespace {

// The run-time option `key`, or null.
const CompileSpec* option(absl::Span<const CompileSpec> runtime_specs, std::string_view key) {
  for (const CompileSpec& spec : runtime_specs) {
    if (spec.key == key) return &spec;
  }
  return nullptr;
}

std::string text(const CompileSpec& spec) { return std::string(spec.value.begin(), spec.value.end()); }

bool verbose(absl::Span<const CompileSpec> runtime_specs) {
  if (const CompileSpec* v = option(runtime_specs, "verbose")) return text(*v) != "0";
  const char* env = std::getenv("SWITCHYARD_XNNPACK_VERBOSE");
  return env != nullptr && *env != '\0' && std::string_view(env) != "0";
}

absl::StatusOr<bool> hostOnly(absl::Span<const CompileSpec> runtime_specs) {
  const CompileSpec* p = option(runtime_specs, "placement");
  if (p == nullptr || text(*p) == "auto") return false;
  if (text(*p) == "host") return true;
  return absl::InvalidArgumentError(absl::StrCat("XnnpackBackend init: run-time option placement is '", text(*p),
                                                 "'; give auto or host"));
}

std::string where(std::string_view method, size_t index) { return sy::str("method '", method, "', delegate ", index); }

}  // namespace

absl::StatusOr<DelegateHandle*> XnnpackBackend::init(BackendInitContext& context, FreeableBuffer* processed,
                                                     absl::Span<const CompileSpec> compile_specs) const {
  if (!is_available()) {
    return absl::FailedPreconditionError("XnnpackBackend init: xnn_initialize failed: XNNPACK cannot run on this CPU");
  }
  if (processed == nullptr) return absl::InvalidArgumentError("XnnpackBackend init: no processed blob");
  absl::StatusOr<size_t> threads = xnnpackThreadCount(compile_specs, context.runtime_specs);
  if (!threads.ok()) return threads.status();
  absl::StatusOr<bool> host_only = hostOnly(context.runtime_specs);
  if (!host_only.ok()) return host_only.status();
  auto failed = [&](const absl::Status& s) {
    return absl::Status(s.code(), absl::StrCat(s.message(), " (", where(context.method_name, context.delegate_index), ")"));
  };
  // The graph points into its blob (constants in the blob's constant region): keep it, copying
  // it when nothing else keeps it alive past init.
  FreeableBuffer blob = std::move(*processed);
  if (!blob.has_owner()) {
    std::shared_ptr<uint8_t[]> copy(new uint8_t[std::max<size_t>(blob.size(), 1)]);
    if (blob.size() != 0) std::memcpy(copy.get(), blob.data(), blob.size());
    blob = FreeableBuffer(copy.get(), blob.size(), copy);
  }
  const absl::Span<const uint8_t> bytes(static_cast<const uint8_t*>(blob.data()), blob.size());
  absl::StatusOr<XnnGraph> graph = readXnnGraph(bytes, context.named_data_map, std::move(blob));
  if (!graph.ok()) return failed(absl::Status(graph.status().code(), absl::StrCat("XnnpackBackend init: ", graph.status().message())));
  absl::StatusOr<std::unique_ptr<GraphExecutable>> e = GraphExecutable::create(*std::move(graph), *threads, *host_only);
  if (!e.ok()) return failed(absl::Status(e.status().code(), absl::StrCat("XnnpackBackend init: ", e.status().message())));
  if (verbose(context.runtime_specs)) {
    for (const std::string& line : (*e)->placement()) {
      std::cerr << "XnnpackBackend (" << where(context.method_name, context.delegate_index) << "): " << line << "\n";
    }
  }
  return static_cast<DelegateHandle*>(e->release());
}

absl::Status XnnpackBackend::execute(BackendExecutionContext& context, DelegateHandle* handle,
                                     absl::Span<IValue*> args) const {
  if (handle == nullptr) return absl::InvalidArgumentError("XnnpackBackend execute: no handle");
  absl::Status s = static_cast<GraphExecutable*>(handle)->execute(args, context.event_tracer);
  if (s.ok()) return s;
  return absl::Status(s.code(), sy::str("XnnpackBackend execute: ", s.message(), " (",
                                        where(context.method_name, context.delegate_index), ")"));
}

void XnnpackBackend::destroy(DelegateHandle* handle) const { delete static_cast<GraphExecutable*>(handle); }

std::vector<std::string> XnnpackBackend::describe(absl::Span<const uint8_t> processed,
                                                  const NamedDataMap* named_data) const {
  absl::StatusOr<XnnGraph> g = readXnnGraph(processed, named_data);
  if (!g.ok()) return {sy::str("cannot read the blob: ", g.status().message())};
  auto value = [&](uint32_t v) {
    if (v == kNoValue) return std::string("none");
    const XnnValue& x = g->values[v];
    return sy::str(datatypeName(x.datatype), dimsString(x.dims), x.isConstant() ? " (constant)" : "");
  };
  auto externals = [&](const std::vector<uint32_t>& list) {
    std::vector<std::string> out;
    for (uint32_t v : list) out.push_back(sy::str("argument ", g->values[v].external_id, ": ", value(v)));
    return absl::StrJoin(out, ", ");
  };
  std::vector<std::string> lines = {sy::str("XNNPACK graph (", g->version.empty() ? "no version" : "version " + g->version, "): ",
                                            g->values.size(), " values, ", g->nodes.size(), " nodes; inputs ",
                                            externals(g->inputs), "; outputs ", externals(g->outputs))};
  for (size_t k = 0; k < g->nodes.size(); ++k) {
    const XnnNode& n = g->nodes[k];
    std::vector<std::string> in, out;
    for (uint32_t v : n.inputs) in.push_back(value(v));
    for (uint32_t v : n.outputs) out.push_back(value(v));
    const std::string why = hostReason(*g, n);
    lines.push_back(sy::str("node ", k, ": ", nodeKindName(n.kind), " ", absl::StrJoin(in, ", "), " -> ",
                            absl::StrJoin(out, ", "), "  (", why.empty() ? "XNNPACK" : "host: " + why, ")"));
  }
  return lines;
}

namespace {
XnnpackBackend backend;
const absl::Status registered = register_backend({kXnnpackBackendId, &backend});
}  // namespace

}  // namespace sy::xnnpack
