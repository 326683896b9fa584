// The helpers the test files share, one copy of each, so that a fix to how a test reads a tensor
// or catches an error reaches every suite. A helper only one file needs stays in that file.
//
// Include this header and name what the file uses with using-declarations, so a reader sees at the
// top of the file where each helper comes from:
//
//   #include "test_support.h"
//   using sy::testing::errorMessageOf;
//   using sy::testing::valuesOf;
//
//   EXPECT_THAT(valuesOf<float>(ops::add(x, y)), ElementsAre(1.5f, 2.0f));
//   EXPECT_EQ(errorMessageOf([&] { ops::sub(b, b); }), "aten::sub.Tensor: ...");
//   EXPECT_TRUE(raisesError([&] { t.size(2); }, ErrorKind::Index, "dimension out of range"));
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "switchyard/dispatcher/kernel_context.h"
#include "switchyard/switchyard.h"

// 1 in a build with AddressSanitizer or ThreadSanitizer: GCC says so with __SANITIZE_*__, Clang
// (which compiles ./test.sh's sanitizer builds) with __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SY_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SY_TEST_SANITIZED 1
#endif
#endif
#ifndef SY_TEST_SANITIZED
#define SY_TEST_SANITIZED 0
#endif

namespace sy::testing {

// ---- Parameterized test names -------------------------------------------------------------------

// `text` as a GoogleTest name, for the name generator every INSTANTIATE_TEST_SUITE_P passes
// (tests/lint/check_test_names.py): each run of characters other than letters, digits and '_'
// becomes one '_', none at either end. "aten::add.out" -> "aten_add_out".
inline std::string testNameOf(std::string_view text) {
  std::string name;
  bool pending = false;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      if (pending && !name.empty()) name += '_';
      name += c;
      pending = false;
    } else {
      pending = true;
    }
  }
  return name;
}

// The operator a schema parameter names, as a test name: "aten::add.out(Tensor self, ...) -> ..."
// -> "aten_add_out".
inline std::string operatorNameOfSchemaParam(const ::testing::TestParamInfo<const char*>& info) {
  const std::string_view schema = info.param;
  return testNameOf(schema.substr(0, schema.find('(')));
}

// ---- Float edge values -------------------------------------------------------------------------

inline constexpr float kInf = std::numeric_limits<float>::infinity();
inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// ---- Errors --------------------------------------------------------------------------------------

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

// Whether `fn` raises an sy::Error of `kind` whose message contains `substring`: tests check the
// kind and the part of the message that matters, not the whole text (see Note [Error kinds]).
//
//   EXPECT_TRUE(raisesError([&] { t.size(2); }, ErrorKind::Index, "dimension out of range"));
template <class Fn>
::testing::AssertionResult raisesError(Fn&& fn, ErrorKind kind, std::string_view substring) {
  try {
    fn();
  } catch (const Error& e) {
    const std::string message = e.what();
    if (e.kind() != kind) {
      return ::testing::AssertionFailure() << "raised " << e.kind() << " instead of " << kind << ": " << message;
    }
    if (message.find(substring) == std::string::npos) {
      return ::testing::AssertionFailure() << "raised " << kind << " \"" << message << "\", which does not contain \""
                                           << substring << "\"";
    }
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "raised no sy::Error (expected " << kind << " containing \"" << substring
                                       << "\")";
}

// ---- Calling a kernel without the dispatcher -----------------------------------------------------

// The out kernel `kernel` (a portable CPU kernel, say) called directly in its functional form as
// the operator `op`: with an undefined out tensor, which it allocates (See Note [Functional and
// in-place forms call the out kernel] in dispatcher/derived_kernels.h).
//
//   const Tensor expected = functionalCall(cpu::exp_out_cpu, "aten::exp", x);
template <class Kernel, class... Args>
Tensor functionalCall(Kernel&& kernel, const char* op, const Args&... args) {
  const KernelContext ctx{op, OutputForm::Functional};
  Tensor out;
  kernel(args..., out, ctx);
  return out;
}

// ---- Making tensors ------------------------------------------------------------------------------

// A view of `base`'s storage with the given geometry: transposed, sliced or expanded (stride 0).
// Built on the TensorImpl directly, so a test of a view operator does not depend on that operator.
inline Tensor viewOf(const Tensor& base, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset = 0) {
  auto impl = make_intrusive<TensorImpl>(base.storage(), base.scalar_type(), base.device());
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return Tensor(std::move(impl));
}

// `first`, first + 1, ... in a contiguous tensor of `sizes`: every element tells where it came from.
template <class T = float>
Tensor iota(std::vector<int64_t> sizes, int64_t first = 0) {
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  std::vector<T> values;
  for (int64_t i = 0; i < numel; ++i) values.push_back(static_cast<T>(first + i));
  return tensor<T>(values, sizes);
}

// A 1-element Float tensor holding `v`: dispatcher tests' kernels return one to say which of them ran.
inline Tensor filled(double v) { return sy::full({1}, v); }

// A 1-element Float CPU tensor whose key set is exactly `keys`.
inline Tensor tensorWithKeys(DispatchKeySet keys) {
  Tensor t = sy::zeros({1});
  t.unsafeGetTensorImpl()->set_key_set(keys);
  return t;
}

inline bool sharesStorage(const Tensor& a, const Tensor& b) { return a.storage().get() == b.storage().get(); }

// A Double leaf that requires grad (sizes default to 1-D), for the autograd suites.
inline Tensor leafOf(const std::vector<double>& values, std::vector<int64_t> sizes = {}) {
  Tensor t = tensor<double>(values, sizes);
  t.requires_grad_();
  return t;
}

// ---- Reading tensors -----------------------------------------------------------------------------

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

// Elements in row-major logical order, read through the tensor's own strides and widened to
// double whatever the dtype: one reference in double serves every dtype an operator accepts.
inline std::vector<double> doublesOf(const Tensor& t) {
  std::vector<double> values;
  std::vector<int64_t> index(static_cast<size_t>(t.dim()), 0);
  for (int64_t n = 0; n < t.numel(); ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < t.dim(); ++d) offset += index[d] * t.stride(d);
    const char* p = static_cast<const char*>(t.data_ptr()) + offset * static_cast<int64_t>(t.element_size());
    const bool real = visitScalarType(t.scalar_type(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      values.push_back(static_cast<double>(loadElement(reinterpret_cast<const T*>(p))));
    });
    EXPECT_TRUE(real) << "doublesOf: a " << t.scalar_type() << " tensor has no real values";
    if (!real) return {};
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++index[d] < t.size(d)) break;
      index[d] = 0;
    }
  }
  return values;
}

// A contiguous ComplexFloat tensor of `sizes` holding `values` in row-major order.
inline Tensor complexFloatTensor(const std::vector<int64_t>& sizes, const std::vector<Complex<float>>& values) {
  Tensor t = sy::empty(sizes, ScalarType::ComplexFloat);
  EXPECT_EQ(t.numel(), static_cast<int64_t>(values.size())) << "complexFloatTensor: one value per element";
  auto* data = static_cast<Complex<float>*>(t.data_ptr());
  for (size_t i = 0; i < values.size() && static_cast<int64_t>(i) < t.numel(); ++i) data[i] = values[i];
  return t;
}

// A complex tensor's elements in row-major logical order as Complex<double>, whatever its complex dtype.
inline std::vector<Complex<double>> complexValuesOf(const Tensor& t) {
  Tensor wide = sy::empty(t.sizes(), ScalarType::ComplexDouble);
  ops::copy_(wide, t);
  const auto* data = static_cast<const Complex<double>*>(wide.data_ptr());
  return std::vector<Complex<double>>(data, data + wide.numel());
}

// doublesOf for a result the kernel must have laid out densely: also expects `t` to be contiguous.
inline std::vector<double> contiguousDoublesOf(const Tensor& t) {
  EXPECT_TRUE(t.is_contiguous());
  return doublesOf(t);
}

// ---- References ----------------------------------------------------------------------------------

// `fn` applied to each of `in`, converted back to T. T defaults to double so that a braced list
// of literals, mapped({1, 4, 9}, ...), is a list of doubles.
template <class T = double, class Fn>
std::vector<T> mapped(const std::vector<T>& in, Fn fn) {
  std::vector<T> out;
  for (T x : in) out.push_back(static_cast<T>(fn(x)));
  return out;
}

// `count` values uniform in [-1, 1), the same ones for the same seed, so a failure reproduces.
template <class T>
std::vector<T> randomUniformValues(int64_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<T> uniform(T(-1), T(1));
  std::vector<T> values(static_cast<size_t>(count));
  for (T& v : values) v = uniform(generator);
  return values;
}

// A Float tensor of `sizes` holding randomUniformValues<float>(numel, seed).
inline Tensor randomTensor(std::vector<int64_t> sizes, uint32_t seed) {
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  return tensor<float>(randomUniformValues<float>(numel, seed), sizes);
}

// Expects `actual` to hold `expected` element by element: NaN matches NaN, infinities match
// exactly, finite values within `rel` relative tolerance (absolute near zero).
inline void expectValues(const Tensor& actual, const std::vector<double>& expected, double rel) {
  const std::vector<double> got = doublesOf(actual);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i << " is " << got[i] << ", expected nan";
    } else if (std::isinf(expected[i])) {
      EXPECT_EQ(got[i], expected[i]) << "element " << i;
    } else {
      EXPECT_NEAR(got[i], expected[i], rel * std::max(1.0, std::abs(expected[i]))) << "element " << i;
    }
  }
}

// ---- Dispatch ------------------------------------------------------------------------------------

// The operators `fn` dispatches, with their call counts, seen by a mode-key fallback that records
// each call and passes it on.
template <class Fn>
std::map<std::string, int> dispatchesOf(Fn&& fn) {
  std::map<std::string, int> calls;
  Library lib(Library::Impl, "_", DispatchKey::TESTING_ONLY_GenericMode);
  lib.fallback(CppFunction::makeFromBoxedLambda([&calls](const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
    ++calls[op.operator_name().toString()];
    op.redispatchBoxed(ks.remove(DispatchKey::TESTING_ONLY_GenericMode), stack);
  }));
  IncludeDispatchKeyGuard mode(DispatchKey::TESTING_ONLY_GenericMode);
  fn();
  return calls;
}

}  // namespace sy::testing
