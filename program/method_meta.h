// MethodMeta: what a program's method needs and provides, read from the file without loading it.
//
//   sy::Program program = *sy::Program::load("add.pte");
//   sy::MethodMeta meta = *program.method_meta("forward");
//   meta.inputs[0].dtype;                 // ProgramScalarType::Float
//   meta.operators[0].toString();         // "aten::add.out"
//   meta.delegates;                       // backend ids, blob sizes, compile specs
//   meta.planned_buffer_sizes;            // bytes per planned buffer (entry 0 is reserved)
//   meta.instructions[0].text;            // "aten::add.out(%0, %1, 1, %2, %2)"
//
// Everything here is a copy: it stays valid after the Program is gone. This is what
// `switchyard inspect` prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/core/program_scalar_type.h"

namespace sy {

// Whether a tensor's sizes may change from run to run (the file's TensorShapeDynamism).
enum class ShapeDynamism : uint8_t {
  Static = 0,          // its sizes are the ones given
  DynamicBound = 1,    // each dimension is at most the size given (memory is planned for that)
  DynamicUnbound = 2,  // any sizes of its rank (the method allocates its memory as it grows)
};
// "static", "dynamic (bounded)", "dynamic (unbounded)".
const char* toString(ShapeDynamism dynamism);

// One value of a method as the file declares it (an input or output).
struct ValueInfo {
  size_t value_index = 0;
  // "Tensor", "Int", "Double", "Bool", "String", "None", "IntList", "DoubleList", "BoolList",
  // "TensorList", "OptionalTensorList".
  std::string kind;
  // Tensors only.
  std::optional<ProgramScalarType> dtype;
  // The sizes the file gives: the shape of a static tensor, the upper bound of each dimension of
  // a dynamic one.
  std::vector<int64_t> sizes;
  std::vector<int64_t> dim_order;
  ShapeDynamism dynamism = ShapeDynamism::Static;
  uint64_t nbytes = 0;   // at `sizes`: what the method holds for it
  bool planned = false;  // has planned memory (allocation_info)
  // Tensors whose data lives in a .ptd file: their fully qualified name.
  std::string external_name;
  // A tensor the file places on another device than the CPU ("CUDA:0"); empty on the CPU. Such a
  // method does not load (See Note [Programs placed on other devices are refused]).
  std::string device;
};

// A value as `switchyard inspect` shows it: "Float[2, 3]", a bounded dimension as its bound
// ("Float[<=8, 4] dynamic (bounded)"), "Float[2] dynamic (unbounded)", a dim order other than
// the contiguous one appended ("Float[1, 3, 8, 8] dim order [0, 2, 3, 1]"); "Int" for a non-tensor.
std::string toString(const ValueInfo& v);

struct CompileSpecInfo {
  std::string key;
  std::vector<uint8_t> value;
};

struct DelegateInfo {
  std::string backend;        // the registered backend name it needs, e.g. "XnnpackBackend"
  uint64_t processed_size = 0;
  bool processed_inline = false;  // in the FlatBuffers data rather than a segment
  std::vector<CompileSpecInfo> compile_specs;
  // What the backend says the blob holds (BackendInterface::describe), one line per operation;
  // empty when the backend is not registered here or says nothing.
  std::vector<std::string> description;
};

// One instruction of a method's chains, as `switchyard inspect --graph` lists it.
struct InstructionInfo {
  size_t chain = 0;
  // "aten::add.out(%0, %1, 1, %2, %2)": the operator and every argument as the file lists them
  // (for an out variant, the out= tensors and then the results), tensors and tensor lists as
  // %value, other values as their contents; a delegate call as "delegate 0
  // (BackendWithCompilerDemo)(%0, %3)" (inputs, then outputs); moves, jumps and frees in words.
  std::string text;
  // The innermost frame of the instruction's stack trace: "model.cpp:12 (in forward)", or empty.
  std::string source;
  // A delegate call's other frames, one per original operator it runs, each with its location
  // ("delegate debug handle 1: aten::add.Tensor (node 'add') at model.cpp:12 (in forward)").
  std::vector<std::string> delegated;
  // The same, structured (for `switchyard inspect --format dot`): the operator ("aten::add.out")
  // or, for a delegate call, its backend; empty for moves, jumps and frees.
  std::string op;
  int64_t delegate_index = -1;  // a delegate call's delegate
  // Every value an argument names, in argument order, the items of tensor lists included.
  std::vector<size_t> values;
  // For a kernel call whose operator is registered here: the values it writes (its out= and
  // in-place arguments, and the results that follow its arguments), from the operator's schema;
  // `writes_known` is false for delegate calls and unregistered operators, whose arguments do not
  // say which are written.
  std::vector<size_t> writes;
  bool writes_known = false;
};

struct MethodMeta {
  std::string name;
  std::vector<ValueInfo> inputs;
  std::vector<ValueInfo> outputs;
  std::vector<OperatorName> operators;
  std::vector<DelegateInfo> delegates;
  std::vector<int64_t> planned_buffer_sizes;
  // The inputs whose planned bytes the plan also gives another value, each with the first such
  // value; a loaded method keeps a copy of each and restores it before each execute (See Note
  // [Inputs whose memory the plan reuses are restored before each execute]).
  std::vector<std::pair<size_t, size_t>> reused_inputs;
  // Fully qualified names of the tensors the method needs from a .ptd data file.
  std::vector<std::string> external_tensors;
  size_t num_values = 0;
  std::vector<ValueInfo> values;  // every value of the method, by index
  size_t num_instructions = 0;
  std::vector<InstructionInfo> instructions;  // in chain order
};

}  // namespace sy
