// Named data a delegate's preprocess puts aside (PreprocessResult::named_data): ExportedProgram::run
// gives it to init, the emitter stores each key once in the program's named data, and the loaded
// program hands it to init again.
#include <cstring>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "export/export_models.h"
#include "switchyard/delegate/backend_registry.h"
#include "switchyard/export/backend_details.h"
#include "switchyard/export/capture.h"
#include "switchyard/export/emit.h"
#include "switchyard/export/lowering.h"
#include "switchyard/export/partitioners.h"
#include "switchyard/program/program.h"

namespace sy::testing {
namespace {

// "NamedScale": neg(x) delegated as x * -s, where s is the compile spec "scale" (decimal text). The
// blob is only the key "scale"; the float itself goes to the named data.
class NamedScale final : public BackendInterface, public export_::BackendDetails {
 public:
  absl::StatusOr<export_::PreprocessResult> preprocess(const export_::ExportedProgram&,
                                                       absl::Span<const export_::CompileSpec> specs) const override {
    float scale = 1;
    for (const export_::CompileSpec& s : specs) {
      if (s.key == "scale") scale = std::stof(std::string(s.value.begin(), s.value.end()));
    }
    export_::PreprocessResult r;
    r.processed_bytes = {'s', 'c', 'a', 'l', 'e'};
    std::vector<uint8_t> bytes(sizeof(float));
    std::memcpy(bytes.data(), &scale, sizeof(float));
    r.named_data.emplace_back("scale", bytes);
    return r;
  }
  bool is_available() const override { return true; }
  absl::StatusOr<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                                       absl::Span<const CompileSpec>) const override {
    if (context.named_data_map == nullptr) return absl::FailedPreconditionError("no named data");
    absl::StatusOr<FreeableBuffer> data =
        context.named_data_map->get_data(std::string(static_cast<const char*>(processed->data()), processed->size()));
    if (!data.ok()) return data.status();
    auto* scale = new float;
    std::memcpy(scale, data->data(), sizeof(float));
    return scale;
  }
  absl::Status execute(BackendExecutionContext&, DelegateHandle* handle, absl::Span<IValue*> args) const override {
    const float scale = *static_cast<float*>(handle);
    const Tensor& in = args[0]->toTensor();
    const Tensor& out = args[1]->toTensor();
    for (int64_t i = 0; i < in.numel(); ++i) out.data_ptr<float>()[i] = -scale * in.data_ptr<float>()[i];
    return absl::OkStatus();
  }
  void destroy(DelegateHandle* handle) const override { delete static_cast<float*>(handle); }
};

NamedScale named_scale;
const absl::Status named_scale_runtime = register_backend({"NamedScale", &named_scale});
const absl::Status named_scale_aot = export_::registerBackendDetails("NamedScale", &named_scale);

// y = neg(relu(neg(x))): two negations, each its own partition around the relu.
export_::ExportedProgram twoNegations(const Tensor& x) {
  auto model = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::neg(ops::relu(ops::neg(in[0])))}; };
  return export_::capture(model, {x}, {});
}

export_::ExportedProgram lowerNegations(const Tensor& x, const char* first_scale, const char* second_scale) {
  const export_::ExportedProgram ep = twoNegations(x);
  std::vector<std::vector<std::string>> groups;
  for (const export_::Node& n : ep.graph().nodes()) {
    if (n.kind == export_::NodeKind::CallFunction && n.op->operator_name().toString() == "aten::neg") groups.push_back({n.name});
  }
  EXPECT_EQ(groups.size(), 2u);
  const export_::NodeGroupsPartitioner partitioner(
      {{groups[0], {"NamedScale", {export_::CompileSpec::ofString("scale", first_scale)}}},
       {groups[1], {"NamedScale", {export_::CompileSpec::ofString("scale", second_scale)}}}});
  return export_::to_backend(ep, partitioner);
}

TEST(ExportNamedData, ADelegatesNamedDataReachesItsInitDirectlyAndFromTheProgramFile) {
  ASSERT_TRUE(named_scale_runtime.ok() && named_scale_aot.ok());
  const Tensor x = tensor<float>({1, -2, 3}, {3});
  const export_::ExportedProgram lowered = lowerNegations(x, "2", "2");
  // y = -2 * relu(-2 * x)
  const Tensor expected = tensor<float>({-0.0f, -8, -0.0f}, {3});
  expectCloseTo(lowered.run({x})[0], expected, 0);
  absl::StatusOr<export_::EmittedProgram> file = export_::emitProgram(lowered);
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<Program> program = Program::loadFromBuffer(file->bytes, "named.pte");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Method> m = program->load_method("forward");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->set_input(0, x).ok());
  ASSERT_TRUE(m->execute().ok());
  expectCloseTo(m->get_output(0).toTensor(), expected, 0);
}

TEST(ExportNamedData, TwoDelegatesStoringDifferentBytesUnderOneKeyAreAnEmitError) {
  const export_::ExportedProgram lowered = lowerNegations(tensor<float>({1, -2, 3}, {3}), "2", "3");
  absl::StatusOr<export_::EmittedProgram> file = export_::emitProgram(lowered);
  ASSERT_FALSE(file.ok());
  EXPECT_THAT(std::string(file.status().message()),
              ::testing::HasSubstr("two delegates store different bytes under the named data key 'scale'"));
}

}  // namespace
}  // namespace sy::testing
