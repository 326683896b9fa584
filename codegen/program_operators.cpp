#include "switchyard/codegen/program_operators.h"

#include <cstdint>
#include <optional>
#include <set>

#include "switchyard/program/file_headers.h"
#include "switchyard/program/schema/program_generated.h"

namespace sy::codegen {
namespace {

bool takesTensor(const Argument& argument) {
  const Type& type = *argument.type;
  return type.kind() == TypeKind::Tensor ||
         (type.kind() == TypeKind::Optional && type.element()->kind() == TypeKind::Tensor);
}

// "6;0,1": the tensor's ExecuTorch dtype code and dim order; a tensor written without a dim order
// (some exporters leave it out for contiguous tensors) is contiguous over its sizes.
std::string metaString(const pte::Tensor& tensor) {
  std::string out = std::to_string(static_cast<int>(tensor.scalar_type())) + ";";
  if (tensor.dim_order() != nullptr) {
    for (flatbuffers::uoffset_t d = 0; d < tensor.dim_order()->size(); ++d) {
      out += (d ? "," : "") + std::to_string(tensor.dim_order()->Get(d));
    }
  } else if (tensor.sizes() != nullptr) {
    for (flatbuffers::uoffset_t d = 0; d < tensor.sizes()->size(); ++d) out += (d ? "," : "") + std::to_string(d);
  }
  return out;
}

}  // namespace

void selectProgramOperators(const std::string& path, const SchemaIndex& schemas, OperatorSelection& selection) {
  absl::StatusOr<FileBytes> file = readFileBytes(path, "program");
  if (!file.ok()) throw CodegenError(path + ": error: cannot read the program: " + std::string(file.status().message()));
  const absl::Span<const uint8_t> bytes(file->bytes.get(), file->size);
  auto damaged = [&](const std::string& why) {
    return CodegenError(path + ": error: not a program selective build can read: " + why);
  };
  if (bytes.size() < 8 || !pte::ProgramBufferHasIdentifier(bytes.data())) {
    throw damaged("expected the file identifier ET12 at byte 4");
  }
  absl::StatusOr<std::optional<ExtendedHeader>> header = parseExtendedHeader(bytes);
  if (!header.ok()) throw damaged(std::string(header.status().message()));
  const size_t flatbuffer_size = *header ? static_cast<size_t>((*header)->program_size) : bytes.size();
  flatbuffers::Verifier verifier(bytes.data(), flatbuffer_size);
  if (!pte::VerifyProgramBuffer(verifier)) throw damaged("the FlatBuffers data fails verification (truncated or corrupt)");
  const pte::Program* program = pte::GetProgram(bytes.data());

  if (program->execution_plan() != nullptr) {
    for (const pte::ExecutionPlan* plan : *program->execution_plan()) {
      const std::string method = plan->name() ? plan->name()->str() : "";
      const auto* operators = plan->operators();
      const auto* values = plan->values();
      if (plan->chains() == nullptr) continue;
      for (const pte::Chain* chain : *plan->chains()) {
        if (chain->instructions() == nullptr) continue;
        for (flatbuffers::uoffset_t i = 0; i < chain->instructions()->size(); ++i) {
          const pte::KernelCall* call = chain->instructions()->Get(i)->instr_args_as_KernelCall();
          if (call == nullptr) continue;
          const std::string where = "method '" + method + "' instruction " + std::to_string(i);
          if (operators == nullptr || call->op_index() < 0 ||
              static_cast<flatbuffers::uoffset_t>(call->op_index()) >= operators->size()) {
            throw damaged(where + " calls operator " + std::to_string(call->op_index()) + ", which the method does not list");
          }
          const pte::Operator* op = operators->Get(static_cast<flatbuffers::uoffset_t>(call->op_index()));
          std::string name = op->name() ? op->name()->str() : "";
          if (op->overload() != nullptr && op->overload()->size() > 0) name += "." + op->overload()->str();
          const auto schema = schemas.find(name);
          if (schema == schemas.end()) {
            throw CodegenError(path + ": error: selective build: " + where + " calls " + name +
                               ", which no schema defines (neither libswitchyard's operators nor an OPS_SCHEMA_YAML `func:` entry)");
          }
          const std::vector<Argument>& arguments = schema->second.arguments();
          std::string key = "v1/";
          bool first = true;
          const size_t num_args = call->args() ? call->args()->size() : 0;
          for (size_t a = 0; a < num_args && a < arguments.size(); ++a) {
            const int32_t index = call->args()->Get(static_cast<flatbuffers::uoffset_t>(a));
            if (values == nullptr || index < 0 || static_cast<flatbuffers::uoffset_t>(index) >= values->size()) {
              throw damaged(where + " (" + name + ") names value " + std::to_string(index) + ", which the method does not have");
            }
            const pte::EValue* value = values->Get(static_cast<flatbuffers::uoffset_t>(index));
            const pte::Tensor* tensor = value ? value->val_as_Tensor() : nullptr;
            if (!takesTensor(arguments[a]) || tensor == nullptr) continue;
            key += (first ? "" : "|") + metaString(*tensor);
            first = false;
          }
          selection.operators.insert(name);
          selection.kernel_keys[name].insert(key);
        }
      }
    }
  }
  selection.programs.push_back(path);
}

namespace {

std::string programsOf(const OperatorSelection& selection) {
  std::string out;
  for (size_t i = 0; i < selection.programs.size(); ++i) out += (i ? ", " : "") + selection.programs[i];
  return out.empty() ? "the selected operators" : out;
}

// "v1/6;0,1|6;0,1 (Float, dim order 0,1; Float, dim order 0,1)"
std::string describeKey(const std::string& key) {
  std::optional<KernelKey> parsed = KernelKey::parse(key);
  if (!parsed) return key;
  std::string out = key + " (";
  for (size_t i = 0; i < parsed->tensorArgs().size(); ++i) out += (i ? "; " : "") + parsed->tensorArgs()[i].describe();
  return out + (parsed->tensorArgs().empty() ? "no tensors)" : ")");
}

}  // namespace

KernelLibrary selectedKernels(const KernelLibrary& library, const OperatorSelection& selection) {
  KernelLibrary kept;
  kept.dispatch_key = library.dispatch_key;
  kept.site_root = library.site_root;
  std::set<std::string> present, namespaces, yamls;
  for (const OperatorEntry& op : library.operators) {
    const std::string name = op.schema.operator_name().toString();
    present.insert(name);
    yamls.insert(op.site.file);
    if (op.defines_schema) namespaces.insert(op.schema.operator_name().name.substr(0, op.schema.operator_name().name.find("::")));
    // An out variant comes with the forms derived from it: the entry is kept when any is selected,
    // and the keys a program gave for a form are matched with the out variant's keys less their outs.
    bool wanted = selection.selects(op.schema.operator_name());
    struct WantedKey {
      std::string form;  // the operator the program calls
      std::string key;
      size_t drop;  // out metas to drop from the out variant's keys before comparing
    };
    std::vector<WantedKey> wanted_keys;
    size_t outs = 0;
    for (const Argument& a : op.schema.arguments()) outs += a.is_out() ? 1 : 0;
    auto addKeysOf = [&](const OperatorName& form, size_t drop) {
      wanted = wanted || selection.selects(form);
      const auto keys = selection.kernel_keys.find(form.toString());
      if (keys == selection.kernel_keys.end()) return;
      for (const std::string& key : keys->second) wanted_keys.push_back({form.toString(), key, drop});
    };
    addKeysOf(op.schema.operator_name(), 0);
    for (const DerivedForm& form : op.derived) {
      present.insert(form.schema.operator_name().toString());
      addKeysOf(form.schema.operator_name(), outs);
    }
    if (!wanted) continue;
    if (wanted_keys.empty()) {
      kept.operators.push_back(op);
      continue;
    }
    OperatorEntry entry = op;
    entry.kernels.clear();
    std::set<size_t> chosen;
    for (const auto& [form, key, drop] : wanted_keys) {
      std::optional<size_t> exact, fallback;
      for (size_t k = 0; k < op.kernels.size(); ++k) {
        const KernelKey& candidate = op.kernels[k].key;
        if (candidate.isDefault()) {
          fallback = k;
        } else if ((drop == 0 ? candidate
                              : KernelKey(std::vector<TensorMeta>(candidate.tensorArgs().begin(), candidate.tensorArgs().end() - drop)))
                       .toString() == key) {
          exact = k;
        }
      }
      if (!exact && !fallback) {
        // Another library's operator: its own kernel (a portable CPU kernel) serves the call at load.
        if (library.dispatch_key.empty() && !op.defines_schema) continue;
        std::string have;
        for (const Kernel& k : op.kernels) have += "\n  " + k.key.toString() + " -> " + k.qualifiedName() + " (" + k.site.str() + ")";
        throw CodegenError(op.site.str() + ": error: selective build: " + programsOf(selection) + " calls " + form +
                           " with kernel key " + describeKey(key) + ", which no kernel here has and " + name +
                           " has no default kernel (`arg_meta: null`); " +
                           (have.empty() ? "its entry lists no kernels" : "its kernels are:" + have));
      }
      chosen.insert(exact ? *exact : *fallback);
    }
    for (size_t k : chosen) entry.kernels.push_back(op.kernels[k]);
    kept.operators.push_back(std::move(entry));
  }
  // The operators a program calls in a namespace this library owns must all be here.
  if (!library.dispatch_key.empty()) {
    for (const auto& [name, keys] : selection.kernel_keys) {
      if (present.count(name) || !namespaces.count(name.substr(0, name.find("::")))) continue;
      std::string files;
      for (const std::string& yaml : yamls) files += (files.empty() ? "" : ", ") + yaml;
      throw CodegenError(programsOf(selection) + ": error: selective build: the program calls " + name +
                         " (kernel key " + describeKey(*keys.begin()) + "), which none of the kernel YAML files (" + files +
                         ") defines: add an entry for it there");
    }
  }
  return kept;
}

}  // namespace sy::codegen
