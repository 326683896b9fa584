// See method_meta_text.h.
#include "switchyard/tools/switchyard/method_meta_text.h"

#include "switchyard/core/error.h"

namespace sy::cli {
namespace {

const char* dynamismName(ShapeDynamism d) {
  switch (d) {
    case ShapeDynamism::Static: return "STATIC";
    case ShapeDynamism::DynamicBound: return "DYNAMIC_BOUND";
    case ShapeDynamism::DynamicUnbound: return "DYNAMIC_UNBOUND";
  }
  return "?";
}

std::string valueLine(const ValueInfo& v) {
  if (v.kind != "Tensor") return sy::str(v.kind, " (value ", v.value_index, ")");
  const char* at = v.dynamism == ShapeDynamism::DynamicBound ? " at its bound"
                   : v.dynamism == ShapeDynamism::DynamicUnbound ? " at the sizes the file gives"
                                                                  : "";
  return sy::str(toString(v), ", ", v.nbytes, " bytes", at, " (value ", v.value_index, v.planned ? ", planned" : "",
                 v.external_name.empty() ? "" : sy::str(", external '", v.external_name, "'"), ")");
}

nlohmann::json valueJson(const ValueInfo& v) {
  nlohmann::json out = {{"kind", v.kind}, {"value", v.value_index}};
  if (v.kind != "Tensor") return out;
  out["dtype"] = v.dtype ? toString(*v.dtype) : "?";
  out["sizes"] = v.sizes;
  out["dim_order"] = v.dim_order;
  out["dynamism"] = dynamismName(v.dynamism);
  out["nbytes"] = v.nbytes;
  out["planned"] = v.planned;
  if (!v.external_name.empty()) out["external"] = v.external_name;
  return out;
}

}  // namespace

std::string methodMetaText(const MethodMeta& meta, const std::string& program) {
  std::string out = sy::str("method '", meta.name, "' of program '", program, "':\n");
  for (size_t i = 0; i < meta.inputs.size(); ++i) out += sy::str("  input ", i, ": ", valueLine(meta.inputs[i]), "\n");
  for (size_t i = 0; i < meta.outputs.size(); ++i) out += sy::str("  output ", i, ": ", valueLine(meta.outputs[i]), "\n");
  int64_t planned = 0;
  for (size_t i = 1; i < meta.planned_buffer_sizes.size(); ++i) planned += meta.planned_buffer_sizes[i];
  const size_t buffers = meta.planned_buffer_sizes.empty() ? 0 : meta.planned_buffer_sizes.size() - 1;
  return out + sy::str("  planned memory: ", planned, " bytes in ", buffers, " buffer(s)\n");
}

nlohmann::json methodMetaJson(const MethodMeta& meta) {
  nlohmann::json inputs = nlohmann::json::array();
  for (const ValueInfo& v : meta.inputs) inputs.push_back(valueJson(v));
  nlohmann::json outputs = nlohmann::json::array();
  for (const ValueInfo& v : meta.outputs) outputs.push_back(valueJson(v));
  std::vector<int64_t> buffers;
  if (meta.planned_buffer_sizes.size() > 1) buffers.assign(meta.planned_buffer_sizes.begin() + 1, meta.planned_buffer_sizes.end());
  return {{"name", meta.name}, {"inputs", std::move(inputs)}, {"outputs", std::move(outputs)}, {"planned_buffers", buffers}};
}

}  // namespace sy::cli
