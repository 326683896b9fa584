// Internal to program/: one KernelCall instruction, prepared at load so that running it is one
// typed call through the dispatcher when its operator has a call shape (See Note [A shaped kernel
// call is one typed call through the dispatcher], kernel_call_shapes.h), and otherwise a copy of
// its arguments onto the stack and one boxed call through the dispatcher.
//
// Note [Prepared kernel calls]
// At load, each argument of a KernelCall is converted once, by the operator's schema, from the
// method's value to the IValue the kernel takes: a tensor becomes a borrowed reference to the
// method's Tensor (mutably borrowed when the schema writes it), an int list a borrowed view of the
// method's list, a dtype the Switchyard ScalarType for the file's code, and so on (See Note
// [Borrowed IValues]). Running the call copies these prepared IValues onto the method's one Stack with a
// memcpy: a borrowed or trivial IValue is plain bits, and copying its bits is exactly what
// relocating it would be. The few that hold a reference (strings, double/bool/tensor lists) are
// copy-constructed instead, which bumps a refcount and allocates nothing. Then the operator is
// called boxed, and its results are dropped: an out variant returns the very tensor it wrote,
// which is already the method's value. Only a result that is not (a kernel returning a new tensor
// or a number) is written back, into the value the program names for it.
//
// The borrowed IValues point at the method's value table, which never reallocates after load and
// whose tensors keep their TensorImpl for the method's life: set_input copies into them or swaps
// their storage, MoveCall assigns into the slot the borrow points at. A number that changes at run
// time (an input, which set_input replaces, a kernel's int result, a MoveCall's destination) is
// copied from its value at every call instead, and so is an int list's item that reads one (See
// Note [Lists of numbers that change]).
//
// Note [Lists of numbers that change]
// A program with dynamic shapes computes sizes while it runs: executorch_prim::sym_size.int writes
// a tensor's real size into an Int value, prim arithmetic combines such values, and a view_copy
// or expand_copy reads them as items of its int-list argument ([%7, 4], where %7 is the size).
// The list value itself never changes (its items are value indices); its numbers do. So at load,
// each item of an int-list argument that reads a changing Int value is recorded with the address
// of that item in the list value's own elements (which the prepared argument borrows, and which
// never move: a list value read by a call is never replaced, since only numbers may change), and
// before each call the item is copied from its Int value. Such calls run boxed, never shaped; the
// copy is one load and one store per item and allocates nothing.
//
// Note [A kernel call's results keep the kinds of the values they are written into]
// A value of a method keeps its kind (Tensor, int, list, ...) for the method's life: kernel calls
// borrow its Tensor, MoveCalls and refreshes copy numbers by kind, and the caller reads outputs by
// it. So at load each result a call writes back is checked against the value that receives it by
// the schema's return type (an `int` result needs an Int value, a `Tensor` one a Tensor, a
// `Scalar` any number, a `T?` a T or None), as arguments are checked against theirs, and the error
// names the instruction, the operator, the result and both types. The few results whose exact
// kind the schema leaves open (Scalar, optional) are checked again as they are written back,
// which only calls with write-backs pay: calls whose results are their out arguments skip it.
//
// Note [Kernel calls resolve their kernel key at load]
// An operator may have partial kernels (kernel YAML with arg_meta; dispatcher/partial_kernels.h)
// besides, or instead of, its CPU kernel. At load, each kernel call's tensor arguments (their dtype
// and dim order, which a method's tensors keep for its life) are resolved as ExecuTorch's loader
// resolves them: the exact key's kernel, else the operator's default kernel; else its CPU kernel
// when it has one (the portable kernels are every operator's default here); else the method fails
// to load with the metadata the call had and the keys that exist. The call itself still goes
// through the dispatcher, so the profiler and other modes see it: there the PartialKernels key picks
// the same kernel in one table lookup (See Note [Partial kernels decline for one key check]).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "switchyard/dispatcher/operator_handle.h"
#include "switchyard/ivalue/stack.h"
#include "switchyard/program/kernel_call_shapes.h"

namespace sy {
namespace program_internal {

struct PreparedKernelCall {
  OperatorHandle op{nullptr};
  std::vector<IValue> arguments;   // prepared, in schema order
  std::vector<uint32_t> owned;     // positions in `arguments` that hold a reference
  struct WriteBack {
    uint32_t result;  // index among the call's results
    uint32_t value;   // method value that receives it
  };
  std::vector<WriteBack> write_backs;
  // Arguments read from values that instructions change at run time (a kernel's number result, a
  // MoveCall's destination): copied from the value at each call instead of prepared once.
  struct Refresh {
    uint32_t position;
    uint32_t value;
  };
  std::vector<Refresh> refreshes;
  // Items of int-list arguments read from values that change at run time, written into the
  // method's list before each call (See Note [Lists of numbers that change]).
  struct ListRefresh {
    int64_t* slot;   // the item in the list value's own elements, which the prepared argument borrows
    uint32_t value;  // the Int value it is read from
  };
  std::vector<ListRefresh> list_refreshes;
  uint32_t num_results = 0;
  // The partial kernel the call resolved to at load, or "" for the operator's CPU kernel.
  std::string partial_kernel;
  // The same call as one typed dispatcher call, when its operator has a call shape; null to run
  // it boxed (See Note [A shaped kernel call is one typed call through the dispatcher]).
  std::unique_ptr<ShapedKernelCall> shaped;
};
// Moving a call (into the method's vector) must move `arguments`' buffer, never copy its elements:
// a copied borrowed IValue owns a copy (See Note [Borrowed IValues]).
static_assert(std::is_nothrow_move_constructible_v<PreparedKernelCall>);

// Whether prepareKernelCall may give a call a shape; tests compare a call run both ways.
enum class CallShaping : uint8_t { WhenPossible, Never };

// Prepares a call of `op` (which has a schema) with the method's values at `args` (the schema's
// arguments, then its results: one value each, or one TensorList of them). `list_items[v]` holds
// the value indices a list value v was built from; `changing[v]` is true for the non-tensor values
// that instructions write at run time. `what` starts error messages
// ("program 'm.pte': method 'forward': instruction 3 (aten::add.out)").
absl::StatusOr<PreparedKernelCall> prepareKernelCall(OperatorHandle op, absl::Span<const int32_t> args,
                                                     std::vector<IValue>& values,
                                                     const std::vector<std::vector<int32_t>>& list_items,
                                                     const std::vector<bool>& changing, const std::string& what,
                                                     CallShaping shaping = CallShaping::WhenPossible);

// The tensor values a call of `op` with `args` (as for prepareKernelCall) writes: its arguments the
// schema marks written (the items of a written tensor list too) and its results, each once.
std::vector<uint32_t> tensorsWritten(const OperatorHandle& op, absl::Span<const int32_t> args,
                                     const std::vector<IValue>& values, const std::vector<std::vector<int32_t>>& list_items);

// Runs a prepared call boxed, on `stack` (empty before and after); a call with a shape runs as
// `call.shaped->run()` instead, which execute() calls directly. Kernel errors propagate as sy::Error.
void runBoxedKernelCall(const PreparedKernelCall& call, Stack& stack, std::vector<IValue>& values);

}  // namespace program_internal
}  // namespace sy
