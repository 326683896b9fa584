#include "switchyard/dispatcher/local_dispatch_key_set.h"

namespace sy {
namespace detail {
__thread LocalDispatchKeySet tls_local_dispatch_key_set __attribute__((tls_model("initial-exec"))) = {0, ~uint64_t{0}};
}  // namespace detail

IncludeDispatchKeyGuard::IncludeDispatchKeyGuard(DispatchKeySet keys) {
  auto& tls = detail::tls_local_dispatch_key_set;
  added_ = keys.raw_repr() & ~tls.included;
  tls.included |= added_;
}

IncludeDispatchKeyGuard::~IncludeDispatchKeyGuard() { detail::tls_local_dispatch_key_set.included &= ~added_; }

ExcludeDispatchKeyGuard::ExcludeDispatchKeyGuard(DispatchKeySet keys) {
  auto& tls = detail::tls_local_dispatch_key_set;
  added_ = keys.raw_repr() & tls.not_excluded;
  tls.not_excluded &= ~added_;
}

ExcludeDispatchKeyGuard::~ExcludeDispatchKeyGuard() { detail::tls_local_dispatch_key_set.not_excluded |= added_; }

}  // namespace sy
