// See run_recording.h.
#include "switchyard/tools/switchyard/run_recording.h"

#include <cstring>
#include <filesystem>
#include <fstream>

#include "switchyard/core/error.h"
#include "switchyard/core/program_scalar_type.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/tools/switchyard/json_text.h"
#include "switchyard/tools/switchyard/value_json.h"

namespace sy::cli {
namespace {

// The recorded tensor of an Output event, copied out of the debug buffer with its own strides.
Tensor recordedTensor(const ETDumpRecorder& recorder, const ETDumpRecorder::Event& e) {
  const std::optional<ScalarType> dtype = toSwitchyardScalarType(static_cast<ProgramScalarType>(e.dtype));
  Tensor t = empty_strided(recorder.sizesOf(e), recorder.stridesOf(e), *dtype);  // recorded only when it has one
  const size_t nbytes = static_cast<size_t>(t.numel()) * t.element_size();
  if (nbytes > 0) std::memcpy(t.data_ptr(), recorder.debug_buffer().data() + e.debug_offset, nbytes);
  return t;
}

}  // namespace

nlohmann::json intermediatesJson(const ETDumpRecorder& recorder, const MethodMeta& meta) {
  nlohmann::json list = nlohmann::json::array();
  for (const ETDumpRecorder::Event& e : recorder.events()) {
    if (e.kind != ETDumpRecorder::Event::Kind::Output) continue;
    nlohmann::json entry;
    if (e.method_output) {
      for (size_t i = 0; i < meta.outputs.size(); ++i) {
        if (meta.outputs[i].value_index == e.value) entry["output"] = i;
      }
    } else {
      entry["instruction"] = e.instruction;
      entry["chain"] = e.chain;
      if (e.name < recorder.names().size()) entry["operator"] = recorder.names()[e.name];
      if (e.delegate_debug_id != -1) entry["delegate_debug_id"] = e.delegate_debug_id;
    }
    if (e.value != UINT32_MAX) entry["value"] = e.value;
    if (recorder.runs() > 1) entry["run"] = e.run;
    entry["tensor"] = valueToJson(IValue(recordedTensor(recorder, e)));
    list.push_back(std::move(entry));
  }
  return {{"runs", recorder.runs()}, {"dropped", recorder.dropped_events()}, {"intermediates", std::move(list)}};
}

absl::Status writeRecording(const ETDumpRecorder& recorder, const MethodMeta& meta, const std::string& etdump_path,
                            const std::string& debug_dir) {
  if (!etdump_path.empty()) {
    if (absl::Status s = recorder.write(etdump_path); !s.ok()) return s;
  }
  if (debug_dir.empty()) return absl::OkStatus();
  std::error_code error;
  std::filesystem::create_directories(debug_dir, error);
  if (error) return absl::NotFoundError(sy::str("--debug-outputs: cannot create '", debug_dir, "': ", error.message()));
  const std::filesystem::path dir(debug_dir);
  if (absl::Status s = recorder.write((dir / "etdump.etdp").string(), (dir / "debug_buffer.bin").string()); !s.ok()) return s;
  const std::string json_path = (dir / "intermediates.json").string();
  std::ofstream out(json_path, std::ios::trunc);
  out << dumpJson(intermediatesJson(recorder, meta)) << "\n";
  out.close();
  if (!out) return absl::DataLossError(sy::str("--debug-outputs: writing '", json_path, "' failed"));
  return absl::OkStatus();
}

}  // namespace sy::cli
