// Module: a program file and its methods behind one object, as ExecuTorch's extension/module gives
// them: the first five minutes with a model.
//
//   sy::Module m("model.pte", {.data_files = {"weights.ptd"}});
//   absl::StatusOr<std::vector<std::string>> names = m.method_names();    // loads the file on first use
//   absl::StatusOr<sy::MethodMeta> meta = m.method_meta("forward");        // dtype, sizes, dynamism, memory
//   absl::StatusOr<std::vector<sy::IValue>> out = m.forward({x});          // loads "forward" once, runs it
//   out = m.execute("encode", {x, mask});                                  // any method by name
//
// (`{.data_files = ...}` is a designated initializer: C++20, which GCC and Clang also take in C++17
// mode; `ModuleOptions options; options.data_files = {...};` is the strict C++17 spelling.)
//
// Everything that can fail returns an absl::Status (the same errors Program::load, load_method,
// set_input and execute return, naming the file, method and value). The program and its data
// files are read on first use (or by load()); a method is loaded on first use (or by
// load_method()) and kept, so later calls only set inputs and execute. Outputs are the method's
// own values, views into its memory as with Method::get_output: the next execute of that method
// overwrites them, so copy what must survive. A Module is movable, not copyable, and not meant to
// be used from two threads at once. The lower-level API (Program, Method) stays available through
// program() and method().
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/program/method.h"
#include "switchyard/program/method_meta.h"
#include "switchyard/program/program.h"

namespace sy {

struct ModuleOptions {
  // .ptd files holding the program's external tensors and named data, searched in order.
  std::vector<std::string> data_files = {};
  // Passed to every method the module loads (planned memory, backend options); its data_files
  // come after those named above.
  MethodOptions method_options = {};
};

class Module {
 public:
  explicit Module(std::string path, ModuleOptions options = {});
  Module(Module&&) noexcept;
  Module& operator=(Module&&) noexcept;
  ~Module();

  // Reads and verifies the program and its data files; a no-op once they are loaded.
  absl::Status load();
  bool is_loaded() const { return program_ != nullptr; }

  absl::StatusOr<std::vector<std::string>> method_names();
  // What the method takes and gives, read from the file without loading the method.
  absl::StatusOr<MethodMeta> method_meta(std::string_view method);

  // Loads `method` (operators resolved, delegates initialised, memory laid out) unless it is loaded.
  absl::Status load_method(std::string_view method);
  bool is_method_loaded(std::string_view method) const;
  // The loaded method, for the lower-level calls (set_input one at a time, get_input, ...);
  // loaded on first use. Valid as long as the Module.
  absl::StatusOr<Method*> method(std::string_view method);

  // Sets `inputs` (in order; the inputs after them keep what was set before), executes, and
  // returns every output.
  absl::StatusOr<std::vector<IValue>> execute(std::string_view method, const std::vector<IValue>& inputs = {});
  absl::StatusOr<std::vector<IValue>> forward(const std::vector<IValue>& inputs = {}) { return execute("forward", inputs); }

  // The loaded program (null before load()).
  const Program* program() const { return program_.get(); }

 private:
  std::string path_;
  ModuleOptions options_;
  std::unique_ptr<Program> program_;
  std::map<std::string, std::unique_ptr<Method>, std::less<>> methods_;
};

}  // namespace sy
