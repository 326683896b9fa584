// Helpers for dispatcher tests: small CPU tensors that carry extra dispatch keys.
#pragma once

#include "switchyard/switchyard.h"

namespace sy::testing {

// A 1-element Float CPU tensor whose key set is exactly `keys`.
inline Tensor tensorWithKeys(DispatchKeySet keys) {
  Tensor t = sy::zeros({1});
  t.unsafeGetTensorImpl()->set_key_set(keys);
  return t;
}

}  // namespace sy::testing
