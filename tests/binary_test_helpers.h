// Helpers shared by the binary-operator test files (binary_*_test.cpp, comparison_ops_test.cpp,
// where_op_test.cpp, type_promotion_test.cpp): reading results, making strided views, catching
// error messages and counting dispatches.
//
//   EXPECT_THAT(binary_test::valuesOf<float>(ops::add(x, y)), ElementsAre(1.5f, 2.0f));
//   EXPECT_EQ(binary_test::errorMessageOf([&] { ops::sub(b, b); }), "aten::sub.Tensor: ...");
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "switchyard/switchyard.h"

namespace sy::binary_test {

// The message of the sy::Error that `fn` raises ("" when it raises none).
template <class Fn>
std::string errorMessageOf(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A view of `base`'s storage with the given geometry: transposed, sliced or expanded (stride 0).
inline Tensor viewOf(const Tensor& base, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset = 0) {
  auto impl = make_intrusive<TensorImpl>(base.storage(), base.scalar_type(), base.device());
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return Tensor(std::move(impl));
}

// Elements in row-major logical order, read through the tensor's own strides. T must be the
// tensor's element type (checked).
template <class T>
std::vector<T> valuesOf(const Tensor& t) {
  EXPECT_EQ(t.scalar_type(), CppTypeToScalarType<T>::value);
  if (t.scalar_type() != CppTypeToScalarType<T>::value) return {};
  const T* data = static_cast<const T*>(t.data_ptr());
  std::vector<T> values;
  std::vector<int64_t> index(static_cast<size_t>(t.dim()), 0);
  for (int64_t n = 0; n < t.numel(); ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < t.dim(); ++d) offset += index[d] * t.stride(d);
    values.push_back(data[offset]);
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++index[d] < t.size(d)) break;
      index[d] = 0;
    }
  }
  return values;
}

// The operators `fn` dispatches, with their call counts, seen by a mode-key fallback that records
// each call and passes it on.
template <class Fn>
std::map<std::string, int> dispatchesOf(Fn&& fn) {
  std::map<std::string, int> calls;
  Library lib(Library::IMPL, "_", DispatchKey::TESTING_ONLY_GenericMode);
  lib.fallback(CppFunction::makeFromBoxedLambda([&calls](const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
    ++calls[op.operator_name().toString()];
    op.redispatchBoxed(ks.remove(DispatchKey::TESTING_ONLY_GenericMode), stack);
  }));
  IncludeDispatchKeyGuard mode(DispatchKey::TESTING_ONLY_GenericMode);
  fn();
  return calls;
}

}  // namespace sy::binary_test
