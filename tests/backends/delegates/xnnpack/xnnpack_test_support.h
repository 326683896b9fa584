// Helpers of the XNNPACK delegate's tests: capture a model, run it through the delegate's two
// halves directly (preprocess, then init / execute / destroy), and compare with the portable
// kernels; list a lowered program's calls, and save, load and run it as a program.
//
//   ExportedProgram ep = capture(model, {x}, params);
//   std::vector<Tensor> y = sy::testing::runThroughXnnpack(ep, {x});   // the whole program delegated
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "export/export_models.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/export/backend_details.h"
#include "switchyard/export/capture.h"
#include "switchyard/export/emit.h"
#include "switchyard/program/method.h"
#include "switchyard/program/program.h"
#include "xnnpack_blob_support.h"

namespace sy::testing {

inline const char* const kXnnpack = "XnnpackBackend";

// The processed bytes of the whole program, or an error.
inline absl::StatusOr<export_::PreprocessResult> xnnpackPreprocess(const export_::ExportedProgram& ep,
                                                                   std::vector<export_::CompileSpec> specs = {}) {
  const export_::BackendDetails* details = export_::findBackendDetails(kXnnpack);
  if (details == nullptr) return absl::NotFoundError("XnnpackBackend preprocess is not registered");
  return details->preprocess(ep, specs);
}

// A delegate initialised from what preprocess made (the blob and its named data), or from a bare
// blob; destroyed when it goes.
class XnnpackDelegate {
 public:
  static absl::StatusOr<std::unique_ptr<XnnpackDelegate>> init(const export_::PreprocessResult& processed,
                                                               std::vector<export_::CompileSpec> specs = {}) {
    return init(processed.processed_bytes, std::move(specs), processed.named_data);
  }
  static absl::StatusOr<std::unique_ptr<XnnpackDelegate>> init(
      const std::vector<uint8_t>& bytes, std::vector<export_::CompileSpec> specs = {},
      const std::vector<std::pair<std::string, std::vector<uint8_t>>>& named_data = {}) {
    BackendInterface* backend = get_backend_class(kXnnpack);
    if (backend == nullptr) return absl::NotFoundError("XnnpackBackend is not registered");
    std::vector<CompileSpec> compile_specs;
    for (const export_::CompileSpec& s : specs) compile_specs.push_back({s.key, s.value});
    FreeableBuffer buffer(bytes.data(), bytes.size(), nullptr);
    const InMemoryNamedData named(named_data);
    BackendInitContext context{"forward", 0, &named};
    absl::StatusOr<DelegateHandle*> handle = backend->init(context, &buffer, compile_specs);
    if (!handle.ok()) return handle.status();
    return std::unique_ptr<XnnpackDelegate>(new XnnpackDelegate(backend, *handle));
  }
  ~XnnpackDelegate() { backend_->destroy(handle_); }

  // Runs on `inputs`, writing into `outputs` (allocated by the caller, as a method's values are).
  absl::Status execute(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) {
    std::vector<IValue> values;
    for (const Tensor& t : inputs) values.emplace_back(t);
    for (const Tensor& t : outputs) values.emplace_back(t);
    std::vector<IValue*> args;
    for (IValue& v : values) args.push_back(&v);
    BackendExecutionContext context{"forward", 0};
    return backend_->execute(context, handle_, absl::MakeSpan(args));
  }

 private:
  XnnpackDelegate(BackendInterface* backend, DelegateHandle* handle) : backend_(backend), handle_(handle) {}
  BackendInterface* backend_;
  DelegateHandle* handle_;
};

// Empty tensors shaped like the program's outputs.
inline std::vector<Tensor> outputsLike(const export_::ExportedProgram& ep) {
  std::vector<Tensor> outs;
  for (export_::ValueId v : ep.graph().outputs()) outs.push_back(sy::empty(ep.graph().value(v).meta.sizes));
  return outs;
}

// The whole program through the delegate: preprocess, init, execute once, destroy.
inline std::vector<Tensor> runThroughXnnpack(const export_::ExportedProgram& ep, const std::vector<Tensor>& inputs,
                                             std::vector<export_::CompileSpec> specs = {}) {
  absl::StatusOr<export_::PreprocessResult> processed = xnnpackPreprocess(ep, specs);
  EXPECT_TRUE(processed.ok()) << processed.status();
  if (!processed.ok()) return {};
  absl::StatusOr<std::unique_ptr<XnnpackDelegate>> d = XnnpackDelegate::init(*processed, specs);
  EXPECT_TRUE(d.ok()) << d.status();
  if (!d.ok()) return {};
  std::vector<Tensor> outs = outputsLike(ep);
  const absl::Status s = (*d)->execute(inputs, outs);
  EXPECT_TRUE(s.ok()) << s;
  return outs;
}

// Captures `model` on `inputs`, runs it through XNNPACK on `inputs`, and compares each output
// with the model run eagerly on the portable kernels.
inline void expectXnnpackMatchesEager(const export_::Model& model, const std::vector<Tensor>& inputs,
                                      std::vector<export_::NamedTensor> params = {}, double tolerance = 1e-4) {
  const export_::ExportedProgram ep = export_::capture(model, inputs, std::move(params));
  const std::vector<Tensor> expected = model(inputs);
  const std::vector<Tensor> actual = runThroughXnnpack(ep, inputs);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) expectCloseTo(actual[i], expected[i], tolerance);
}

// Each call node's operator, in order ("higher_order::executorch_call_delegate", "aten::view").
inline std::vector<std::string> callsOf(const export_::ExportedProgram& ep) {
  std::vector<std::string> out;
  for (const export_::Node& n : ep.graph().nodes()) {
    if (n.kind == export_::NodeKind::CallFunction) out.push_back(n.op->operator_name().toString());
  }
  return out;
}

// Saves `ep` as a program, loads it and runs "forward" on `inputs`.
inline std::vector<Tensor> savedLoadedAndRun(const export_::ExportedProgram& ep, const std::vector<Tensor>& inputs) {
  absl::StatusOr<export_::EmittedProgram> file = export_::emitProgram(ep);
  EXPECT_TRUE(file.ok()) << file.status();
  if (!file.ok()) return {};
  absl::StatusOr<Program> program = Program::loadFromBuffer(file->bytes, "xnnpack.pte");
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return {};
  absl::StatusOr<Method> m = program->load_method("forward");
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return {};
  for (size_t i = 0; i < inputs.size(); ++i) EXPECT_TRUE(m->set_input(i, inputs[i]).ok());
  const absl::Status s = m->execute();
  EXPECT_TRUE(s.ok()) << s;
  std::vector<Tensor> out;
  for (size_t i = 0; i < m->outputs_size(); ++i) out.push_back(ops::clone(m->get_output(i).toTensor()));
  return out;
}

}  // namespace sy::testing
