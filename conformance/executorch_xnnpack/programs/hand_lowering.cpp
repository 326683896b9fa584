// hand_lowering.cpp: lowers a captured program to a hand-made XNNPACK graph (see graph_maker.h).
//
// Switchyard's lowering looks the preprocess of a backend up by name in its BackendDetails registry.
// For the duration of one to_backend call, the XnnpackBackend entry is replaced by HandMadeBackend,
// whose preprocess ignores the program it is given and serializes the case's graph instead, with
// Switchyard's blob writer. The real XnnpackBackend details are put back afterwards, also when the
// lowering throws.
#include <stdexcept>
#include <string>
#include <utility>

#include "graph_maker.h"
#include "switchyard/export/backend_details.h"
#include "switchyard/export/lowering.h"

namespace conformance {
namespace {

namespace ex = sy::export_;

class HandMadeBackend final : public ex::BackendDetails {
 public:
  HandMadeBackend(std::function<void(GraphMaker&)> build, xnn::ConstantPlacement placement)
      : build_(std::move(build)), placement_(placement) {}

  absl::StatusOr<ex::PreprocessResult> preprocess(const ex::ExportedProgram&,
                                                  absl::Span<const ex::CompileSpec>) const override {
    GraphMaker maker;
    build_(maker);
    absl::StatusOr<xnn::WrittenBlob> blob = xnn::writeXnnBlob(maker.graph(), placement_);
    if (!blob.ok()) return blob.status();
    ex::PreprocessResult result;
    result.processed_bytes = std::move(blob->bytes);
    result.named_data = std::move(blob->named_data);
    return result;
  }

 private:
  std::function<void(GraphMaker&)> build_;
  xnn::ConstantPlacement placement_;
};

// Swaps the registry entry for XnnpackBackend while it lives.
class BackendSwap {
 public:
  explicit BackendSwap(const ex::BackendDetails* replacement) : original_(ex::findBackendDetails("XnnpackBackend")) {
    ex::unregisterBackendDetails("XnnpackBackend");
    if (!ex::registerBackendDetails("XnnpackBackend", replacement).ok()) {
      restore();
      throw std::runtime_error("cannot register the hand-made XnnpackBackend");
    }
  }
  ~BackendSwap() { restore(); }
  BackendSwap(const BackendSwap&) = delete;
  BackendSwap& operator=(const BackendSwap&) = delete;

 private:
  void restore() {
    ex::unregisterBackendDetails("XnnpackBackend");
    if (original_) (void)ex::registerBackendDetails("XnnpackBackend", original_);
  }
  const ex::BackendDetails* original_;
};

}  // namespace

ex::ExportedProgram lowerHandMade(const ex::ExportedProgram& program, const std::function<void(GraphMaker&)>& build,
                                  xnn::ConstantPlacement placement) {
  const HandMadeBackend backend(build, placement);
  const BackendSwap swap(&backend);
  return ex::to_backend("XnnpackBackend", program, {});
}

}  // namespace conformance
