#include "switchyard/export/backend_details.h"

#include "switchyard/delegate/named_registry.h"

namespace sy::export_ {

namespace {
// Constructed on first use, so static registrations in any translation unit find it ready.
internal::NamedRegistry<const BackendDetails>& registry() {
  static auto* r = new internal::NamedRegistry<const BackendDetails>();
  return *r;
}
}  // namespace

CompileSpec CompileSpec::ofString(std::string key, std::string_view text) {
  return {std::move(key), std::vector<uint8_t>(text.begin(), text.end())};
}

absl::Status registerBackendDetails(std::string_view backend_id, const BackendDetails* details) {
  return registry().add(backend_id, details, "registerBackendDetails");
}
bool unregisterBackendDetails(std::string_view backend_id) { return registry().remove(backend_id); }
const BackendDetails* findBackendDetails(std::string_view backend_id) { return registry().find(backend_id); }
std::vector<std::string> registeredBackendDetails() { return registry().names(); }

}  // namespace sy::export_
