// ops::handle: the typed handle an `ops::` helper calls through, one per operator, made once at
// namespace scope so each call is one dispatch with no "is it initialised yet" guard.
//
//   namespace {
//   const auto acos_op = handle<Tensor(const Tensor&)>("aten::acos", "");
//   }  // namespace
//   Tensor acos(const Tensor& self) { return acos_op.call(self); }
//
// The FuncType must be the kernels' C++ signature exactly (schema order, out= last); a mismatch is
// rejected when either side registers. The handle is valid before the operator is defined
// (Dispatcher::staticTypedHandle), so static initialisation order does not matter.
#pragma once

#include <string_view>

#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/dispatcher/operator_handle.h"

namespace sy::ops {

template <class FuncType>
TypedOperatorHandle<FuncType> handle(std::string_view name, std::string_view overload) {
  return Dispatcher::singleton().staticTypedHandle<FuncType>(name, overload);
}

}  // namespace sy::ops
