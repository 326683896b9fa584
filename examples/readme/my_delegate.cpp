// docs/export_and_delegates.md, "Writing a delegate backend": both halves of a small delegate (it runs chains of relu
// on Float tensors), registered, partitioned, lowered and run. The region between the markers is
// the README's code block (tests/lint/check_readme_examples.py checks it; ./test.sh builds and runs
// this, and it exits non-zero unless the delegate's result matches eager execution).
#include <cstring>
#include <iostream>

#include <switchyard/switchyard.h>

// README: begin
#include <switchyard/delegate/backend_registry.h>
#include <switchyard/export/backend_details.h>
#include <switchyard/export/capture.h>
#include <switchyard/export/lowering.h>
#include <switchyard/export/partitioners.h>

// Ahead of time: preprocess turns the partition lowered to the backend into its blob. This one
// takes relu chains only, and its blob is just how many relus to apply.
class ReluChainDetails final : public sy::export_::BackendDetails {
 public:
  absl::StatusOr<sy::export_::PreprocessResult> preprocess(
      const sy::export_::ExportedProgram& partition, absl::Span<const sy::export_::CompileSpec>) const override {
    sy::export_::PreprocessResult result;
    int32_t relus = 0;
    for (const sy::export_::Node& node : partition.graph().nodes()) {
      if (node.kind != sy::export_::NodeKind::CallFunction) continue;
      if (node.op->operator_name().toString() != "aten::relu") {
        return absl::InvalidArgumentError("ReluChain cannot run " + node.op->operator_name().toString());
      }
      result.debug_handle_map[relus++] = {node.meta.debug_handle};  // our step -> the graph's node
    }
    result.processed_bytes.resize(sizeof(relus));
    std::memcpy(result.processed_bytes.data(), &relus, sizeof(relus));
    return result;
  }
};

// At run time: init parses the blob once, execute runs it on the call's tensors (inputs, then
// outputs, which it writes in place), destroy frees what init made.
class ReluChainBackend final : public sy::BackendInterface {
 public:
  bool is_available() const override { return true; }
  absl::StatusOr<sy::DelegateHandle*> init(sy::BackendInitContext&, sy::FreeableBuffer* processed,
                                          absl::Span<const sy::CompileSpec>) const override {
    if (processed->size() != sizeof(int32_t)) return absl::InvalidArgumentError("ReluChain: a corrupt blob");
    auto* relus = new int32_t;
    std::memcpy(relus, processed->data(), sizeof(int32_t));
    return relus;
  }
  absl::Status execute(sy::BackendExecutionContext&, sy::DelegateHandle*, absl::Span<sy::IValue*> args) const override {
    const sy::Tensor& in = args[0]->toTensor();
    const sy::Tensor& out = args[1]->toTensor();
    // relu applied once or many times is the same: clamp below at zero.
    for (int64_t i = 0; i < in.numel(); ++i) out.data_ptr<float>()[i] = std::max(in.data_ptr<float>()[i], 0.f);
    return absl::OkStatus();
  }
  void destroy(sy::DelegateHandle* handle) const override { delete static_cast<int32_t*>(handle); }
};

// Both halves under one backend id.
ReluChainDetails relu_chain_details;
ReluChainBackend relu_chain_backend;
const absl::Status aot_registered = sy::export_::registerBackendDetails("ReluChain", &relu_chain_details);
const absl::Status runtime_registered = sy::register_backend({"ReluChain", &relu_chain_backend});

// Partition a model (the relus go to ReluChain, the rest stays portable), lower it, run it.
sy::Tensor run_delegated(const sy::Tensor& x) {
  auto model = [](const std::vector<sy::Tensor>& in) {
    return std::vector<sy::Tensor>{sy::ops::mul(sy::ops::relu(sy::ops::relu(in[0])), in[0])};
  };
  sy::export_::ExportedProgram ep = sy::export_::capture(model, {x});
  sy::export_::OperatorSupportPartitioner partitioner(
      {"ReluChain", {}}, sy::export_::OperatorSupportPartitioner::byOperatorNames({"aten::relu"}));
  sy::export_::ExportedProgram lowered = sy::export_::to_backend(ep, partitioner);  // one delegate call, then mul
  return lowered.run({x})[0];   // or emitProgram(lowered)->save("model.pte") and run it anywhere
}
// README: end

int main() {
  const sy::Tensor x = sy::tensor<float>({-2, -1, 0, 1, 2, 3});
  const sy::Tensor delegated = run_delegated(x);
  const sy::Tensor eager = sy::ops::mul(sy::ops::relu(x), x);
  std::cout << "delegated " << delegated << "\neager     " << eager << "\n";
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (delegated.data_ptr<float>()[i] != eager.data_ptr<float>()[i]) return 1;
  }
  return aot_registered.ok() && runtime_registered.ok() ? 0 : 1;
}
