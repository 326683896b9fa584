#include "switchyard/delegate/backend_registry.h"

#include "switchyard/delegate/named_registry.h"

namespace sy {

namespace {
// Constructed on first use, so static registrations in any translation unit find it ready.
internal::NamedRegistry<BackendInterface>& registry() {
  static auto* r = new internal::NamedRegistry<BackendInterface>();
  return *r;
}
}  // namespace

absl::Status register_backend(const Backend& backend) {
  return registry().add(backend.name, backend.backend, "register_backend");
}
bool unregister_backend(std::string_view name) { return registry().remove(name); }
BackendInterface* get_backend_class(std::string_view name) { return registry().find(name); }
std::vector<std::string> registered_backend_names() { return registry().names(); }

}  // namespace sy
