// The process-wide registry of delegate backends, by name.
//
//   static const absl::Status registered = sy::register_backend({"MyBackend", &my_backend});
//   sy::BackendInterface* b = sy::get_backend_class("MyBackend");   // null when not registered
//
// Registration is usually static (a namespace-scope variable in the backend's file); a second
// backend under a name already taken is an error naming it. The registry does not own backends:
// each must outlive the methods using it. Thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "switchyard/delegate/backend_interface.h"

namespace sy {

struct Backend {
  std::string_view name;
  BackendInterface* backend;
};

absl::Status register_backend(const Backend& backend);
// Removes a backend registered at run time (a plugin being unloaded, a test); false if absent.
// Methods already loaded with it must be gone.
bool unregister_backend(std::string_view name);
BackendInterface* get_backend_class(std::string_view name);
// Every registered name, sorted.
std::vector<std::string> registered_backend_names();

}  // namespace sy
