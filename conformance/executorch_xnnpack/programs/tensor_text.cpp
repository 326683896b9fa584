// tensor_text.cpp: the inputs make_programs feeds the programs and the files it writes them to.
//
// Inputs are uniform random floats from a fixed seed, so every run of make_programs writes the same
// files. The file format is the runners' (see runner/et_runner.cpp): the value count, then one line
// per tensor "Float NDIM SIZES... NUMEL VALUES..." with 9 significant digits (exact for float32).
#include <cstdio>
#include <random>
#include <stdexcept>

#include "program_case.h"

namespace conformance {

Tensor randomTensor(const Shape& sizes, uint32_t seed, float low, float high) {
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  std::mt19937 engine(seed * 7919u + 13u);
  std::uniform_real_distribution<float> dist(low, high);
  std::vector<float> values(static_cast<size_t>(numel));
  for (float& v : values) v = dist(engine);
  return sy::tensor<float>(values, sizes);
}

std::vector<float> floatsOf(const Tensor& t) {
  const Tensor dense = ops::contiguous(t);
  const float* p = dense.data_ptr<float>();
  return std::vector<float>(p, p + dense.numel());
}

void writeTensorFile(const std::string& path, const std::vector<Tensor>& values) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw std::runtime_error("cannot write " + path);
  std::fprintf(f, "%zu\n", values.size());
  for (const Tensor& t : values) {
    std::fprintf(f, "Float %lld", static_cast<long long>(t.dim()));
    for (int64_t s : t.sizes()) std::fprintf(f, " %lld", static_cast<long long>(s));
    const std::vector<float> data = floatsOf(t);
    std::fprintf(f, " %zu", data.size());
    for (float v : data) std::fprintf(f, " %.9g", static_cast<double>(v));
    std::fprintf(f, "\n");
  }
  std::fclose(f);
}

Tensor toNchw(const Tensor& nhwc) { return ops::contiguous(ops::permute(nhwc, {0, 3, 1, 2})); }
Tensor toNhwc(const Tensor& nchw) { return ops::contiguous(ops::permute(nchw, {0, 2, 3, 1})); }

}  // namespace conformance
