// A backend fallback that raises the backend's own error for every operator it does not implement,
// instead of the dispatcher's generic missing-kernel message:
//
//   SY_LIBRARY_IMPL(_, PrivateUse1, m) {
//     m.fallback(sy::makeUnsupportedOperatorFallback("MyBackend"));
//   }
//   // sy::ops::sin(t) on a PrivateUse1 tensor now raises:
//   //   "MyBackend does not implement aten::sin; supported: aten::add.Tensor, aten::mul.Tensor"
//
// The supported list is what has a kernel on the key at the time of the error, so it stays true as
// kernels are registered and removed.
#pragma once

#include <string>

#include "switchyard/dispatcher/cpp_function.h"

namespace sy {

CppFunction makeUnsupportedOperatorFallback(std::string backend_name);

}  // namespace sy
