// Tensor printing in PyTorch's layout: one line per innermost row, rows aligned under the first
// bracket, blank lines between higher-dimensional blocks, and numeric elements right-aligned to one
// common width so columns line up.
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "switchyard/ivalue/tensor.h"

namespace sy {
namespace {

// Above this many elements, each long dimension shows only its first and last kEdgeItems entries.
constexpr int64_t kSummarizeThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
// Continuation rows start under the first element: strlen("tensor(").
constexpr size_t kPrefixWidth = 7;

bool isPrintableDtype(ScalarType dtype) {
  return visitEveryScalarType(dtype, [](auto) {});
}

// The real and imaginary parts of the complex element at `element` (any alignment), as doubles.
std::pair<double, double> readComplex(const char* element, ScalarType dtype) {
  std::pair<double, double> parts{0, 0};
  visitEveryScalarType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (isComplexType(CppTypeToScalarType<T>::value)) {
      T value;
      std::memcpy(static_cast<void*>(&value), element, sizeof(T));
      if constexpr (std::is_same_v<T, Complex<double>>) {
        parts = {value.real(), value.imag()};
      } else {  // float or Half parts, exact as float
        parts = {static_cast<float>(value.real()), static_cast<float>(value.imag())};
      }
    }
  });
  return parts;
}

// The element at `element` (any alignment) as a double: exact for every floating dtype.
double readFloating(const char* element, ScalarType dtype) {
  double value = 0;
  visitScalarType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    alignas(T) unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, element, sizeof(T));
    value = static_cast<double>(loadElement(reinterpret_cast<const T*>(bytes)));
  });
  return value;
}

// The integral element at `element` in decimal (UInt64's values above Long's range included).
// A quantized or bits element is its stored integer (PyTorch shows a quantized tensor's values
// dequantized, which needs the scale and zero point this element type does not carry).
std::string formatIntegral(const char* element, ScalarType dtype) {
  std::string text;
  visitEveryScalarType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      T value;
      std::memcpy(&value, element, sizeof(T));
      text = absl::StrCat(+value);
    } else if constexpr (isQIntType(CppTypeToScalarType<T>::value) || isBitsType(CppTypeToScalarType<T>::value)) {
      typename T::underlying value;
      std::memcpy(&value, element, sizeof(value));
      text = absl::StrCat(+value);
    }
  });
  return text;
}

std::string formatFloating(double value, bool all_integral) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return all_integral ? absl::StrFormat("%.0f.", value) : absl::StrFormat("%.4f", value);
}

// Walks the elements that will be shown, in logical (row-major) order, following the strides.
class TensorPrinter {
 public:
  explicit TensorPrinter(const Tensor& t)
      : sizes_(t.sizes()),
        strides_(t.strides()),
        dtype_(t.scalar_type()),
        base_(static_cast<const char*>(t.data_ptr())),
        summarize_(t.numel() > kSummarizeThreshold) {}

  // The bracketed body, e.g. "[[1., 2.],\n        [3., 4.]]", or the lone value of a 0-dim tensor.
  std::string body() {
    collectElements(0, 0);
    formatElements();
    std::string out;
    if (sizes_.empty()) {
      out = formatted_[0];
    } else {
      layout(0, &out);
    }
    return out;
  }

 private:
  bool isSummarized(int64_t dim) const { return summarize_ && sizes_[dim] > 2 * kEdgeItems; }

  // Indices shown along `dim`; when summarised, the gap is between kEdgeItems-1 and kEdgeItems.
  SizesVector shownIndices(int64_t dim) const {
    SizesVector indices;
    int64_t size = sizes_[dim];
    if (!isSummarized(dim)) {
      for (int64_t i = 0; i < size; ++i) indices.push_back(i);
      return indices;
    }
    for (int64_t i = 0; i < kEdgeItems; ++i) indices.push_back(i);
    for (int64_t i = size - kEdgeItems; i < size; ++i) indices.push_back(i);
    return indices;
  }

  void collectElements(int64_t dim, int64_t offset) {
    if (dim == static_cast<int64_t>(sizes_.size())) {
      elements_.push_back(base_ + offset * static_cast<int64_t>(elementSize(dtype_)));
      return;
    }
    for (int64_t i : shownIndices(dim)) collectElements(dim + 1, offset + i * strides_[dim]);
  }

  void formatElements() {
    formatted_.reserve(elements_.size());
    if (dtype_ == ScalarType::Bool) {
      // Bools stay unpadded: "True, False" reads better than " True, False".
      for (const char* e : elements_) formatted_.push_back(loadElement(reinterpret_cast<const bool*>(e)) ? "True" : "False");
      return;
    }
    size_t width = 0;
    if (isComplexType(dtype_)) {
      // "1.+2.j", "1.5000-0.2500j": both parts formatted as floating elements are.
      bool all_integral = true;
      for (const char* e : elements_) {
        const auto [re, im] = readComplex(e, dtype_);
        for (double v : {re, im}) {
          if (std::isfinite(v) && v != std::nearbyint(v)) all_integral = false;
        }
      }
      for (const char* e : elements_) {
        const auto [re, im] = readComplex(e, dtype_);
        const std::string imag = formatFloating(std::fabs(im), all_integral);
        formatted_.push_back(absl::StrCat(formatFloating(re, all_integral), std::signbit(im) ? "-" : "+", imag, "j"));
        width = std::max(width, formatted_.back().size());
      }
    } else if (isFloatingType(dtype_)) {
      bool all_integral = true;
      for (const char* e : elements_) {
        double v = readFloating(e, dtype_);
        if (std::isfinite(v) && v != std::nearbyint(v)) all_integral = false;
      }
      for (const char* e : elements_) {
        double v = readFloating(e, dtype_);
        formatted_.push_back(formatFloating(v, all_integral));
        // As in PyTorch, only finite values set the column width; nan and inf never widen it.
        if (std::isfinite(v)) width = std::max(width, formatted_.back().size());
      }
    } else {
      for (const char* e : elements_) {
        formatted_.push_back(formatIntegral(e, dtype_));
        width = std::max(width, formatted_.back().size());
      }
    }
    for (std::string& s : formatted_) {
      if (s.size() < width) s.insert(0, width - s.size(), ' ');
    }
  }

  void layout(int64_t dim, std::string* out) {
    bool innermost = dim + 1 == static_cast<int64_t>(sizes_.size());
    // Rows of a matrix are one newline apart, blocks of a 3-D tensor two, and so on.
    std::string separator = innermost ? ", " : absl::StrCat(",", std::string(sizes_.size() - dim - 1, '\n'),
                                                             std::string(kPrefixWidth + dim + 1, ' '));
    SizesVector indices = shownIndices(dim);
    out->push_back('[');
    for (size_t k = 0; k < indices.size(); ++k) {
      if (k > 0) out->append(separator);
      if (k == static_cast<size_t>(kEdgeItems) && isSummarized(dim)) {
        out->append(innermost ? " ..." : "...");
        out->append(separator);
      }
      if (innermost) {
        out->append(formatted_[next_element_++]);
      } else {
        layout(dim + 1, out);
      }
    }
    out->push_back(']');
  }

  IntArrayRef sizes_;
  IntArrayRef strides_;
  ScalarType dtype_;
  const char* base_;
  bool summarize_;
  std::vector<const char*> elements_;
  std::vector<std::string> formatted_;
  size_t next_element_ = 0;
};

// A tensor whose elements cannot be read here: device memory, no storage, or an unknown dtype.
std::string opaqueTensorString(const Tensor& t, std::string_view what) {
  return absl::StrCat("tensor(<", absl::string_view(what.data(), what.size()), ">, size=", formatSizes(t.sizes()),
                      ", dtype=", sy::str(t.scalar_type()), ")");
}

}  // namespace

std::string formatSizes(IntArrayRef sizes) {
  if (sizes.size() == 1) return absl::StrCat("(", sizes[0], ",)");
  return absl::StrCat("(", absl::StrJoin(sizes, ", "), ")");
}

std::string Tensor::toString() const {
  if (!defined()) return "tensor(undefined)";
  if (!is_cpu()) return opaqueTensorString(*this, sy::str("on ", device().str()));
  if (!isPrintableDtype(scalar_type())) return opaqueTensorString(*this, "unprintable dtype");
  std::string dtype_suffix = scalar_type() == ScalarType::Float ? "" : sy::str(", dtype=", scalar_type());
  if (numel() == 0) {
    // A 1-D empty tensor is unambiguous; any other empty shape is spelled out.
    std::string size_suffix = dim() == 1 ? "" : absl::StrCat(", size=", formatSizes(sizes()));
    return absl::StrCat("tensor([]", size_suffix, dtype_suffix, ")");
  }
  if (data_ptr() == nullptr) return opaqueTensorString(*this, "no data");
  return absl::StrCat("tensor(", TensorPrinter(*this).body(), dtype_suffix, ")");
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.toString(); }

}  // namespace sy
