// See module.h.
#include "switchyard/program/module.h"

#include "switchyard/core/error.h"
#include "switchyard/program/data_file.h"

namespace sy {

Module::Module(std::string path, ModuleOptions options) : path_(std::move(path)), options_(std::move(options)) {}
Module::Module(Module&&) noexcept = default;
Module& Module::operator=(Module&&) noexcept = default;
Module::~Module() = default;

absl::Status Module::load() {
  if (program_ != nullptr) return absl::OkStatus();
  absl::StatusOr<Program> program = Program::load(path_);
  if (!program.ok()) return program.status();
  std::vector<std::shared_ptr<const DataFile>> files;
  for (const std::string& path : options_.data_files) {
    absl::StatusOr<std::shared_ptr<const DataFile>> file = DataFile::load(path);
    if (!file.ok()) return file.status();
    files.push_back(std::move(*file));
  }
  // The files named here are searched before any the caller put in method_options.
  files.insert(files.end(), options_.method_options.data_files.begin(), options_.method_options.data_files.end());
  options_.method_options.data_files = std::move(files);
  program_ = std::make_unique<Program>(std::move(*program));
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> Module::method_names() {
  if (absl::Status s = load(); !s.ok()) return s;
  return program_->method_names();
}

absl::StatusOr<MethodMeta> Module::method_meta(std::string_view method) {
  if (absl::Status s = load(); !s.ok()) return s;
  return program_->method_meta(method);
}

absl::Status Module::load_method(std::string_view method) {
  if (is_method_loaded(method)) return absl::OkStatus();
  if (absl::Status s = load(); !s.ok()) return s;
  absl::StatusOr<Method> loaded = program_->load_method(method, options_.method_options);
  if (!loaded.ok()) return loaded.status();
  methods_.emplace(std::string(method), std::make_unique<Method>(std::move(*loaded)));
  return absl::OkStatus();
}

bool Module::is_method_loaded(std::string_view method) const { return methods_.find(method) != methods_.end(); }

absl::StatusOr<Method*> Module::method(std::string_view method) {
  if (absl::Status s = load_method(method); !s.ok()) return s;
  return methods_.find(method)->second.get();
}

absl::StatusOr<std::vector<IValue>> Module::execute(std::string_view method, const std::vector<IValue>& inputs) {
  absl::StatusOr<Method*> m = this->method(method);
  if (!m.ok()) return m.status();
  Method& loaded = **m;
  if (inputs.size() > loaded.inputs_size()) {
    return absl::InvalidArgumentError(sy::str("program '", program_->name(), "': method '", method, "' takes ",
                                              loaded.inputs_size(), " input(s), but ", inputs.size(), " were given"));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (absl::Status s = loaded.set_input(i, inputs[i]); !s.ok()) return s;
  }
  if (absl::Status s = loaded.execute(); !s.ok()) return s;
  std::vector<IValue> outputs;
  outputs.reserve(loaded.outputs_size());
  for (size_t i = 0; i < loaded.outputs_size(); ++i) outputs.push_back(loaded.get_output(i));
  return outputs;
}

}  // namespace sy
