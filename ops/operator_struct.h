// OperatorStruct: what a generated sy::_ops struct (PyTorch's at::_ops::<op>) derives from: the
// operator's name, overload and schema as constants, and call / redispatch with the schema's C++
// signature (schema order, out= last), through a typed handle made on first use.
//
//   sy::Tensor y = sy::_ops::add_Tensor::call(a, b, 1);
//   sy::Tensor z = sy::_ops::add_Tensor::redispatch(keys.remove(sy::DispatchKey::PrivateUse1), a, b, 1);
//   const char* schema = sy::_ops::add_Tensor::schema_str;   // "aten::add.Tensor(Tensor self, ...) -> Tensor"
//
// The structs of Switchyard's aten:: operators are generated from their kernel YAML into
// switchyard/ops/<family>/Operators.h (See Note [Tensor methods are generated with the library] in
// codegen/emit_functions.cpp); <switchyard/compat/aten.h> makes them at::_ops.
#pragma once

#include <utility>

#include "switchyard/core/dispatch_key_set.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/dispatcher/operator_handle.h"

namespace sy::detail {

// Op is the struct itself, which defines `name` and `overload_name`.
template <class Op, class Sig>
struct OperatorStruct;

template <class Op, class Ret, class... Args>
struct OperatorStruct<Op, Ret(Args...)> {
  using schema = Ret(Args...);
  static TypedOperatorHandle<schema> typed_handle() {
    // Valid before the operator is defined (Dispatcher::staticTypedHandle): static initialisation
    // order does not matter.
    static const TypedOperatorHandle<schema> handle =
        Dispatcher::singleton().staticTypedHandle<schema>(Op::name, Op::overload_name);
    return handle;
  }
  static Ret call(Args... args) { return typed_handle().call(std::forward<Args>(args)...); }
  static Ret redispatch(DispatchKeySet keys, Args... args) {
    return typed_handle().redispatch(keys, std::forward<Args>(args)...);
  }
};

}  // namespace sy::detail
