#include "switchyard/backends/delegates/xnnpack/runtime/xnnpack_graph.h"

#include <cstdint>
#include <string>

namespace sy::xnnpack {

size_t numelOf(const Dims& dims) {
  size_t n = 1;
  for (size_t d : dims) {
    if (__builtin_mul_overflow(n, d, &n)) return SIZE_MAX;
  }
  return n;
}

size_t storageBytes(Datatype d, const Dims& dims) {
  const size_t numel = numelOf(dims);
  if (numel == SIZE_MAX) return SIZE_MAX;
  switch (d) {
    case Datatype::Fp16:
    case Datatype::BF16: return numel > SIZE_MAX / 2 ? SIZE_MAX : numel * 2;
    case Datatype::QInt8:
    case Datatype::QUInt8:
    case Datatype::QCInt8:
    case Datatype::QDInt8: return numel;
    case Datatype::QCInt4:
    case Datatype::QBInt4: {
      if (dims.empty()) return 1;
      const size_t row = dims.back(), rows = row == 0 ? 0 : numel / row;
      return rows * ((row + 1) / 2);  // two per byte, rows padded to whole bytes
    }
    case Datatype::Invalid: return 0;
    default: return numel > SIZE_MAX / 4 ? SIZE_MAX : numel * 4;
  }
}

std::string dimsString(const Dims& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i == 0 ? "" : ", ") + std::to_string(dims[i]);
  return s + "]";
}

std::string_view datatypeName(Datatype d) {
  switch (d) {
    case Datatype::Invalid: return "invalid";
    case Datatype::Fp32: return "fp32";
    case Datatype::Fp16: return "fp16";
    case Datatype::QInt8: return "qint8";
    case Datatype::QUInt8: return "quint8";
    case Datatype::QInt32: return "qint32";
    case Datatype::QCInt8: return "qcint8";
    case Datatype::QCInt32: return "qcint32";
    case Datatype::QCInt4: return "qcint4";
    case Datatype::QDInt8: return "qdint8";
    case Datatype::QBInt4: return "qbint4";
    case Datatype::QPInt8: return "qpint8";
    case Datatype::Int32: return "int32";
    case Datatype::PFp32: return "pfp32";
    case Datatype::BF16: return "bf16";
  }
  return "unknown";
}

}  // namespace sy::xnnpack
