// Internal to delegate/ and export/: a process-wide, thread-safe map from a backend's name to a
// pointer it does not own. Both halves of a delegate backend (the run-time BackendInterface and
// the ahead-of-time BackendDetails) are registered in one of these.
//
//   static sy::internal::NamedRegistry<BackendInterface>& runtimes() { ... }
//   absl::Status s = runtimes().add("MyBackend", &my_backend, "register_backend");
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "switchyard/core/error.h"

namespace sy::internal {

template <typename T>
class NamedRegistry {
 public:
  // `what` names the registering function in errors ("register_backend").
  absl::Status add(std::string_view name, T* entry, std::string_view what) {
    if (name.empty() || entry == nullptr) {
      return absl::InvalidArgumentError(sy::str(what, ": a backend needs a non-empty name and an implementation"));
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (!entries_.emplace(std::string(name), entry).second) {
      return absl::AlreadyExistsError(
          sy::str(what, ": a backend named '", name, "' is already registered; each backend name must be unique"));
    }
    return absl::OkStatus();
  }
  bool remove(std::string_view name) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(name);
    if (it == entries_.end()) return false;
    entries_.erase(it);
    return true;
  }
  T* find(std::string_view name) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : it->second;
  }
  std::vector<std::string> names() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> names;
    for (const auto& entry : entries_) names.push_back(entry.first);
    return names;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, T*, std::less<>> entries_;
};

}  // namespace sy::internal
