// BackendDetails: the ahead-of-time half of a delegate backend, turning the subgraph lowered to it
// into the bytes its run-time half (sy::BackendInterface, delegate/backend_interface.h) will init.
// ExecuTorch's BackendDetails.preprocess, in C++.
//
//   class MyBackendDetails final : public sy::export_::BackendDetails {
//    public:
//     absl::StatusOr<sy::export_::PreprocessResult> preprocess(
//         const sy::export_::ExportedProgram& subprogram,
//         absl::Span<const sy::export_::CompileSpec> compile_specs) const override {
//       sy::export_::PreprocessResult result;
//       for (const sy::export_::Node& node : subprogram.graph().nodes()) { ... }   // serialise
//       return result;
//     }
//   };
//   static MyBackendDetails details;
//   static const absl::Status registered = sy::export_::registerBackendDetails("MyBackend", &details);
//
// A backend registers both halves under the same id, and keeps both under backends/<name>/.
// `subprogram` is self-contained: its user inputs are the delegate call's inputs in order, its
// parameters and constants are the tensors the delegate owns (the lowered program no longer holds
// those only the partition reads), and its outputs are what the call returns, in order.
//
// Note [Delegate debug handles map back to graph nodes]
// A delegate numbers its own operations however it likes (an instruction index, a node id in its
// runtime) and reports errors with those numbers. `debug_handle_map` says, for each of its own
// numbers, which graph nodes (by NodeMeta::debug_handle) it came from; the emitter stores the map
// with the delegate, so the runtime can turn "delegate error at 3" into the original operators
// and their source lines.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/export/exported_program.h"

namespace sy::export_ {

// One option for a backend, recorded in the program and handed to its init as sy::CompileSpec.
struct CompileSpec {
  std::string key;
  std::vector<uint8_t> value;

  // A spec whose value is the bytes of `text` (no terminating zero).
  static CompileSpec ofString(std::string key, std::string_view text);
  friend bool operator==(const CompileSpec& a, const CompileSpec& b) { return a.key == b.key && a.value == b.value; }
};

struct PreprocessResult {
  std::vector<uint8_t> processed_bytes;
  // Bytes the blob names by key rather than carries (ExecuTorch's data_store_output: weights, by
  // the XNNPACK exporter's convention under the SHA-256 of their bytes). The emitter stores each
  // key once in the program's named data (a segment each); the same key with other bytes in two
  // delegates is an emit error. ExportedProgram::run gives them to init as its named data map.
  std::vector<std::pair<std::string, std::vector<uint8_t>>> named_data;
  // The delegate's own identifier -> the debug handles of the graph nodes it came from
  // (See Note [Delegate debug handles map back to graph nodes]).
  std::map<int64_t, std::vector<int64_t>> debug_handle_map;
};

class BackendDetails {
 public:
  virtual ~BackendDetails() = default;
  // An error (naming the node and why) when the subprogram has something the backend cannot take.
  virtual absl::StatusOr<PreprocessResult> preprocess(const ExportedProgram& subprogram,
                                                      absl::Span<const CompileSpec> compile_specs) const = 0;
};

// Process-wide, by backend id; the registry does not own `details`. A second registration under an
// id already taken, or an empty id, is an error. Thread-safe.
absl::Status registerBackendDetails(std::string_view backend_id, const BackendDetails* details);
bool unregisterBackendDetails(std::string_view backend_id);
// Null when no backend registered its ahead-of-time half under `backend_id`.
const BackendDetails* findBackendDetails(std::string_view backend_id);
// Every registered id, sorted.
std::vector<std::string> registeredBackendDetails();

}  // namespace sy::export_
