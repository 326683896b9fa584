// Internal to program/: KernelCall instructions run as typed calls through the dispatcher, for
// operators whose C++ signature is one of a few common "call shapes".
//
//   std::unique_ptr<ShapedKernelCall> shaped = shapeKernelCall(op, prepared.arguments);
//   if (shaped) shaped->run();   // op.typed<Tensor&(const Tensor&, ...)>().call(...)
//
// Note [A shaped kernel call is one typed call through the dispatcher]
// A method's kernel calls must all go through the dispatcher, so that whatever is registered for
// an operator or as a fallback (the profiler, a backend fallback, a mode) sees every call, exactly
// as it sees a C++ caller's. The boxed path (See Note [Prepared kernel calls]) does that for any
// schema, but copies the arguments onto a Stack, reads the dispatch keys from it and unboxes them
// again in the kernel's wrapper at every call: about 450 instructions per call for add.out.
//
// So at load, a KernelCall whose operator's C++ signature (the one its unboxed kernels were
// registered with, OperatorHandle::cppSignature) is one of the shapes listed below becomes a
// ShapedKernelCall: the operator's TypedOperatorHandle for that signature and each argument held
// as the kernel takes it. A tensor is held as the address of the method's Tensor, a Scalar,
// number, dtype or memory format as its value, an int list as a view of the method's list. Each is
// converted once, from the call's prepared IValues, by the very function that unboxes a boxed
// call's arguments (detail::argumentFromIValue), so a shaped call passes the kernel exactly what
// the boxed path would. Running it is one indirect call into `op.call(args...)`: the dispatcher's
// own unboxed path (key extraction, one TLS read, one table load, the kernel), the same code that
// `sy::ops::add_out` runs. A boxed fallback on the way gets the arguments through the usual bridge
// (See Note [Deferred boxing]).
//
// A call is shaped only when what it holds cannot go stale. The addresses cannot, for the reasons
// borrowing is safe (see Note [Prepared kernel calls]): the value table never reallocates, its
// tensors keep their TensorImpl, and a tensor value stays a tensor (the loader refuses a MoveCall
// between a tensor and another kind of value). Values can, so a call whose arguments include a
// number that changes at run time (an input, a kernel's result, a MoveCall's destination) stays
// boxed, which reads it at every call; so does one whose result must be written back to another
// value, or whose `Tensor&` parameter is not an argument the schema marks as written, and one
// whose operator has no recorded C++ signature (only boxed kernels), because typed<>() would make
// the shape the operator's signature and reject a later unboxed kernel with another.
//
// Each shape is one instantiation of the run function, so the list is kept to the out-variant
// signatures ExecuTorch's exported programs use most (SY_PROGRAM_CALL_SHAPES in
// kernel_call_shapes.cpp); every other operator runs boxed, which handles any schema.
// bench/program_bench.cpp measures both (bench/README.md, "Programs").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "switchyard/dispatcher/operator_handle.h"
#include "switchyard/ivalue/ivalue.h"

namespace sy {
namespace program_internal {

class ShapedKernelCall {
 public:
  virtual ~ShapedKernelCall() = default;
  // Kernel errors propagate as sy::Error.
  void run() const { run_(*this); }

 protected:
  using RunFunction = void (*)(const ShapedKernelCall&);
  explicit ShapedKernelCall(RunFunction run) : run_(run) {}

 private:
  RunFunction run_;
};

// A shaped call of `op` with `prepared`, the call's arguments as prepareKernelCall prepares them
// (borrowed from the method's values, which must outlive the result); null when the
// call is not one to shape (See Note [A shaped kernel call is one typed call through the
// dispatcher]). The caller has already excluded calls with changing numbers or write-backs.
std::unique_ptr<ShapedKernelCall> shapeKernelCall(const OperatorHandle& op, std::vector<IValue>& prepared);

// The shapes' C++ signatures, demangled ("sy::Tensor& (sy::Tensor const&, sy::Tensor&)").
std::vector<std::string> callShapeNames();

}  // namespace program_internal
}  // namespace sy
