// What the lowering and delegate tests share: models whose partitions the demo backend can take,
// a test backend that forwards to BackendWithCompilerDemo while recording its handles, and a
// helper that loads and runs an emitted program.
//
//   sy::testing::AddSinReluMul model;
//   ExportedProgram ep = capture(model.model(), {model.exampleInput()}, model.parameters());
//   ExportedProgram lowered = to_backend("RecordingDemo", ep, {});
//   lowered.run({x});   // recordingDemo().inits == 1, destroyed handles == init's
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "export/export_models.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/export/backend_details.h"
#include "switchyard/program/program.h"

namespace sy::testing {

// a = add(x, w); s = sin(a); r = relu(s); m = mul(r, r); y = add(m, x)
// With add, mul and sin supported: {add, sin} and {mul, add_1} are the partitions, relu between them.
struct AddSinReluMul {
  Tensor w = randomTensor({2, 3}, 61);

  Tensor forward(const Tensor& x) const {
    export_::SourceScope scope;
    Tensor s = SY_SOURCE(ops::sin(ops::add(x, w)));
    Tensor r = SY_SOURCE(ops::relu(s));
    return SY_SOURCE(ops::add(ops::mul(r, r), x));
  }
  export_::Model model() const {
    return [this](const std::vector<Tensor>& in) { return std::vector<Tensor>{forward(in[0])}; };
  }
  std::vector<export_::NamedTensor> parameters() const { return {{"w", w}}; }
  static Tensor exampleInput(uint32_t seed = 60) { return randomTensor({2, 3}, seed); }
};

// A constant made inside the model and read by two partitions, and a parameter read inside a
// partition and outside it:
//   a = add(x, c); r = relu(a); m = mul(r, c); q = relu(p); s = add(m, q); y = mul(s, p)
// With add and mul supported: {add} reads c, {mul, add_1, mul_1} reads c and p; relu_1 reads p too.
struct SharedConstant {
  Tensor p = randomTensor({4}, 71);

  Tensor forward(const Tensor& x) const {
    const Tensor c = sy::tensor<float>({0.5f, -1.f, 2.f, 0.25f}, {4});
    Tensor r = ops::relu(ops::add(x, c));
    return ops::mul(ops::add(ops::mul(r, c), ops::relu(p)), p);
  }
  export_::Model model() const {
    return [this](const std::vector<Tensor>& in) { return std::vector<Tensor>{forward(in[0])}; };
  }
  std::vector<export_::NamedTensor> parameters() const { return {{"p", p}}; }
  static Tensor exampleInput(uint32_t seed = 70) { return randomTensor({4}, seed); }
};

// "RecordingDemo": BackendWithCompilerDemo under another id (both halves forward to the demo's),
// recording every handle init returns and every handle destroy receives.
class RecordingDemo final : public BackendInterface, public export_::BackendDetails {
 public:
  absl::StatusOr<export_::PreprocessResult> preprocess(const export_::ExportedProgram& subprogram,
                                                       absl::Span<const export_::CompileSpec> specs) const override {
    ++preprocessed;
    return export_::findBackendDetails("BackendWithCompilerDemo")->preprocess(subprogram, specs);
  }
  bool is_available() const override { return true; }
  absl::StatusOr<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                                       absl::Span<const CompileSpec> specs) const override {
    absl::StatusOr<DelegateHandle*> handle = demo()->init(context, processed, specs);
    if (handle.ok()) initialised.push_back(*handle);
    return handle;
  }
  absl::Status execute(BackendExecutionContext& context, DelegateHandle* handle, absl::Span<IValue*> args) const override {
    ++executions;
    return demo()->execute(context, handle, args);
  }
  void destroy(DelegateHandle* handle) const override {
    destroyed.push_back(handle);
    demo()->destroy(handle);
  }
  void reset() const {
    initialised.clear();
    destroyed.clear();
    preprocessed = executions = 0;
  }

  mutable std::vector<DelegateHandle*> initialised, destroyed;
  mutable int preprocessed = 0, executions = 0;

 private:
  static BackendInterface* demo() { return get_backend_class("BackendWithCompilerDemo"); }
};

inline RecordingDemo& recordingDemo() {
  static RecordingDemo* backend = [] {
    auto* b = new RecordingDemo();
    SY_CHECK(register_backend({"RecordingDemo", b}).ok() && export_::registerBackendDetails("RecordingDemo", b).ok(),
             "registering RecordingDemo failed");
    return b;
  }();
  return *backend;
}

// Registered before any test runs.
inline const bool recording_demo_registered = (recordingDemo(), true);

// Loads `bytes` and runs `method` on `inputs`; its outputs, copied.
inline std::vector<Tensor> runProgram(const std::vector<uint8_t>& bytes, const std::string& method,
                                      const std::vector<Tensor>& inputs) {
  absl::StatusOr<Program> program = Program::loadFromBuffer(bytes, "emitted.pte");
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return {};
  absl::StatusOr<Method> m = program->load_method(method);
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return {};
  for (size_t i = 0; i < inputs.size(); ++i) {
    absl::Status s = m->set_input(i, inputs[i]);
    EXPECT_TRUE(s.ok()) << s;
  }
  absl::Status s = m->execute();
  EXPECT_TRUE(s.ok()) << s;
  std::vector<Tensor> out;
  for (size_t i = 0; i < m->outputs_size(); ++i) out.push_back(ops::clone(m->get_output(i).toTensor()));
  return out;
}

// The JSON `flatc --json` decodes the program at `path` into (written beside it, in its folder);
// empty, with a test failure, when flatc fails.
inline std::string flatcJson(const std::filesystem::path& path) {
  const std::string command = sy::str(SWITCHYARD_FLATC, " --json --strict-json -o ", path.parent_path().string(), " ",
                                      SWITCHYARD_PROGRAM_SCHEMA_DIR, "/program.fbs -- ", path.string(), " 2>&1");
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream json(std::filesystem::path(path).replace_extension(".json"));
  std::stringstream text;
  text << json.rdbuf();
  return text.str();
}

}  // namespace sy::testing
