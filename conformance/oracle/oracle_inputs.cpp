#include "switchyard/conformance/oracle/oracle_inputs.h"

#include <cmath>
#include <iterator>
#include <limits>
#include <type_traits>

#include "switchyard/core/error.h"
#include "switchyard/ivalue/storage.h"
#include "switchyard/ivalue/tensor_impl.h"

namespace sy::oracle {

namespace {

// SplitMix64: small, fast, and the same on every platform.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>(next() >> 11) / static_cast<double>(1ULL << 53); }  // [0, 1)
};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kFloatEdges[] = {0.0, -0.0, 1.0, -1.0, std::numeric_limits<double>::quiet_NaN(), kInf, -kInf,
                                  0.5, -2.5, 1e-3, 100.0, -100.0};
constexpr double kIntegralEdges[] = {0, 1, -1, 2, -7, 100, -1000};

double draw(ScalarType dtype, const Values& values, bool edges, Rng& rng) {
  if (dtype == ScalarType::Bool) return static_cast<double>(rng.next() & 1);
  const bool floating = isFloatingType(dtype);
  if (edges && values.edges && rng.next() % 3 == 0) {
    if (floating) return kFloatEdges[rng.next() % std::size(kFloatEdges)];
    const double edge = kIntegralEdges[rng.next() % std::size(kIntegralEdges)];
    if (!(values.nonzero && edge == 0)) return edge;
  }
  if (floating) return values.lo + rng.unit() * (values.hi - values.lo);
  const double span = static_cast<double>(values.int_hi - values.int_lo + 1);
  double v = static_cast<double>(values.int_lo) + std::floor(rng.unit() * span);
  if (values.nonzero && v == 0) v = 1;
  return v;
}

std::vector<int64_t> contiguousStrides(const Shape& sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;) strides[i - 1] = strides[i] * std::max<int64_t>(sizes[i], 1);
  return strides;
}

}  // namespace

std::string toString(InputLayout layout) {
  switch (layout) {
    case InputLayout::Contiguous: return "contiguous";
    case InputLayout::Transposed: return "transposed";
    case InputLayout::Strided: return "strided";
  }
  return "?";
}

uint64_t mixSeed(uint64_t seed, uint64_t salt) {
  Rng rng{seed ^ (salt * 0xD1B54A32D192ED03ULL)};
  return rng.next();
}

Tensor makeInput(const TensorPlan& plan, uint64_t seed) {
  const size_t rank = plan.sizes.size();
  int64_t numel = 1;
  for (int64_t s : plan.sizes) {
    SY_CHECK(s >= 0, "oracle: negative size in an input shape");
    numel *= s;
  }
  std::vector<int64_t> strides = contiguousStrides(plan.sizes);
  int64_t offset = 0;
  int64_t storage_elements = numel;
  if (plan.layout == InputLayout::Transposed && rank >= 2) {
    Shape physical = plan.sizes;
    std::swap(physical[rank - 2], physical[rank - 1]);
    std::vector<int64_t> p = contiguousStrides(physical);
    strides = p;
    std::swap(strides[rank - 2], strides[rank - 1]);
  } else if (plan.layout == InputLayout::Strided) {
    offset = 1;
    if (rank > 0) {
      Shape physical = plan.sizes;
      physical[rank - 1] *= 2;
      std::vector<int64_t> p = contiguousStrides(physical);
      strides = p;
      strides[rank - 1] = 2;
      storage_elements = 1;
      for (int64_t s : physical) storage_elements *= s;
    }
    storage_elements += 1;
  }
  const size_t element = elementSize(plan.dtype);
  SY_CHECK(element > 0, "oracle: cannot make a tensor of dtype ", plan.dtype);
  Storage storage = make_intrusive<StorageImpl>(static_cast<size_t>(storage_elements) * element,
                                                getAllocator(DeviceType::CPU), kCPU);
  Rng rng{seed};
  char* bytes = static_cast<char*>(storage->data());
  // A complex element is two draws of its part's dtype, real then imaginary.
  const auto fill = [&](auto tag, auto part_tag, ScalarType part_dtype) {
    using T = typename decltype(tag)::type;
    using Part = typename decltype(part_tag)::type;
    for (int64_t k = 0; k < storage_elements; ++k) {
      T value;
      if constexpr (std::is_same_v<T, Part>) {
        value = static_cast<T>(draw(part_dtype, plan.values, plan.edges, rng));
      } else {
        const Part re = static_cast<Part>(draw(part_dtype, plan.values, plan.edges, rng));
        value = T(re, static_cast<Part>(draw(part_dtype, plan.values, plan.edges, rng)));
      }
      std::memcpy(bytes + k * static_cast<int64_t>(element), &value, element);
    }
  };
  switch (plan.dtype) {
    case ScalarType::ComplexHalf: fill(TypeTag<Complex<Half>>{}, TypeTag<Half>{}, ScalarType::Half); break;
    case ScalarType::ComplexFloat: fill(TypeTag<Complex<float>>{}, TypeTag<float>{}, ScalarType::Float); break;
    case ScalarType::ComplexDouble: fill(TypeTag<Complex<double>>{}, TypeTag<double>{}, ScalarType::Double); break;
    default:
      SY_CHECK(visitScalarType(plan.dtype, [&](auto tag) { fill(tag, tag, plan.dtype); }),
               "oracle: cannot draw values of dtype ", plan.dtype);
  }
  auto impl = make_intrusive<TensorImpl>(std::move(storage), plan.dtype, kCPU);
  impl->set_sizes_and_strides(plan.sizes, strides, offset);
  return Tensor(std::move(impl));
}

}  // namespace sy::oracle
