#include "switchyard/delegate/backend_registry.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "switchyard/ivalue/error.h"

namespace sy {

namespace {
struct Registry {
  std::mutex mutex;
  std::map<std::string, BackendInterface*, std::less<>> backends;
};

// Constructed on first use, so static registrations in any translation unit find it ready.
Registry& registry() {
  static Registry* r = new Registry();
  return *r;
}
}  // namespace

absl::Status register_backend(const Backend& backend) {
  if (backend.name.empty() || backend.backend == nullptr) {
    return absl::InvalidArgumentError("register_backend: a backend needs a non-empty name and an implementation");
  }
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto [it, inserted] = r.backends.emplace(std::string(backend.name), backend.backend);
  if (!inserted) {
    return absl::AlreadyExistsError(sy::str("register_backend: a backend named '", backend.name,
                                                 "' is already registered; each backend name must be unique"));
  }
  return absl::OkStatus();
}

bool unregister_backend(std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.backends.find(name);
  if (it == r.backends.end()) return false;
  r.backends.erase(it);
  return true;
}

BackendInterface* get_backend_class(std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.backends.find(name);
  return it == r.backends.end() ? nullptr : it->second;
}

std::vector<std::string> registered_backend_names() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [name, backend] : r.backends) names.push_back(name);
  return names;
}

}  // namespace sy
