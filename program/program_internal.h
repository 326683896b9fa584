// Internal to program/: the loaded bytes of a program and the FlatBuffers view of them, shared by
// Program, MethodMeta and Method. Not installed (it includes the flatc-generated headers, which
// live in the build tree only).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/program/file_headers.h"
#include "switchyard/core/program_scalar_type.h"
#include "switchyard/program/schema/program_generated.h"

namespace sy {
namespace program_internal {

// The size of a tensor described by the file, computed with every multiplication checked.
struct TensorGeometry {
  ProgramScalarType dtype = ProgramScalarType::Float;
  std::vector<int64_t> sizes;
  std::vector<int64_t> dim_order;
  std::vector<int64_t> strides;  // dense, in dim order (a size 0 steps as 1)
  int64_t numel = 1;
  uint64_t nbytes = 0;  // numel * element size (storage_offset included)
};

// Checks a serialized tensor's type, sizes, dim order and byte size; errors name what is wrong.
absl::StatusOr<TensorGeometry> tensorGeometry(const pte::Tensor& t);

struct ProgramData {
  std::string name;  // the path, or "<buffer>"
  std::unique_ptr<uint8_t[]> owned;
  absl::Span<const uint8_t> file;
  const pte::Program* root = nullptr;
  std::optional<ExtendedHeader> header;

  // "program 'add.pte'": the start of every error message.
  std::string where() const;
  std::string where(const pte::ExecutionPlan& plan) const;

  const pte::ExecutionPlan* findPlan(std::string_view method) const;
  // The bytes of Program.segments[index], bounds-checked against the file.
  absl::StatusOr<absl::Span<const uint8_t>> segment(size_t index) const;
  // The initial data of tensor `t` stored in this file (constant_buffer, constant_segment or
  // mutable_data_segments), at least `nbytes` long; an empty span when it has none.
  absl::StatusOr<absl::Span<const uint8_t>> storedTensorData(const pte::Tensor& t, uint64_t nbytes) const;
  // A delegate's processed blob (inline or in a segment).
  absl::StatusOr<absl::Span<const uint8_t>> delegateData(const pte::BackendDelegate& d) const;
};

// Structural checks of the whole program (every method): indices, offsets and sizes in range, so
// that nothing read later can go out of bounds. Run once by Program::load after the verifier.
absl::Status validateProgram(const ProgramData& program);

// Note [Tensor data is aligned for its dtype]
// Kernels read a tensor's elements through typed pointers (float*, int64_t*), which C++ allows only
// at addresses that are multiples of the element's size. Memory the runtime allocates is aligned
// to 16 bytes; data whose address a file or a caller chooses is checked when a method loads: a
// tensor's offset in a planned buffer, a constant read in place from its segment or buffer, a data
// file's entry, and a PlannedMemory buffer the caller passes. A misaligned one is an error naming
// the value and where its data sits. ExecuTorch's exporter aligns all of these, so only a corrupt
// or hand-made file meets the error. Because the invariant holds wherever data enters, the kernel
// code is built without UBSan's alignment (and null) checks in ./test.sh's sanitizer stage (See
// Note [Kernel code skips UBSan's null and alignment checks] in cmake/SwitchyardComponent.cmake).

// Note [Vectors of 8-byte numbers may be misaligned]
// The FlatBuffers verifier (2.0) checks the alignment of a vector's length but not of its
// elements, and files ExecuTorch wrote hold vectors of int64 at addresses that are not multiples
// of 8 (its extended header shifts the data by an amount that is). Reading such an element through
// FlatBuffers' accessors is undefined behaviour, so every vector of 8-byte numbers (IntList and
// DoubleList items, non_const_buffer_sizes, subsegment offsets) is read with these, by memcpy.
template <class T>
T elementAt(const flatbuffers::Vector<T>* v, size_t i) {
  T x;
  std::memcpy(&x, v->Data() + i * sizeof(T), sizeof(T));
  return x;
}
template <class T>
std::vector<T> elementsOf(const flatbuffers::Vector<T>* v) {
  std::vector<T> out(v == nullptr ? 0 : v->size());
  if (!out.empty()) std::memcpy(out.data(), v->Data(), out.size() * sizeof(T));
  return out;
}

inline std::string_view view(const flatbuffers::String* s) {
  return s == nullptr ? std::string_view() : std::string_view(s->c_str(), s->size());
}

// Numbers from the file as text for messages: "[1, 2, 3]".
template <class Vector>
std::string listString(const Vector* v) {
  std::string out = "[";
  if (v != nullptr) {
    for (size_t i = 0; i < v->size(); ++i) {
      if (i != 0) out += ", ";
      out += std::to_string(static_cast<int64_t>(elementAt(v, i)));
    }
  }
  return out + "]";
}

}  // namespace program_internal
}  // namespace sy
