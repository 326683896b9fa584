// Internal to program/: the loaded bytes of a program and the FlatBuffers view of them, shared by
// Program, MethodMeta and Method. Not installed (it includes the flatc-generated headers, which
// live in the build tree only).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "switchyard/program/file_headers.h"
#include "switchyard/program/program_scalar_type.h"
#include "switchyard/program/schema/program_generated.h"

namespace sy {
namespace program_internal {

// The size of a tensor described by the file, computed with every multiplication checked.
struct TensorGeometry {
  ProgramScalarType dtype = ProgramScalarType::Float;
  std::vector<int64_t> sizes;
  std::vector<int64_t> dim_order;
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
      out += std::to_string(static_cast<int64_t>(v->Get(static_cast<uint32_t>(i))));
    }
  }
  return out + "]";
}

}  // namespace program_internal
}  // namespace sy
