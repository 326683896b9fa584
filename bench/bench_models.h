// The weights and inputs of issue 16's two benchmark models, in plain std:: types, so that
// xnnpack_bench (Switchyard) and torch_models_bench (libtorch) build bit-identical models from one
// definition and their times compare the same arithmetic (bench/README.md, "XNNPACK delegate").
//
//   for (const bench_models::Parameter& p : bench_models::cnnParameters()) use(p.name, p.sizes, p.values);
//   bench_models::Parameter x = bench_models::cnnInput();   // 1x3x64x64
//
// The CNN: conv 3->16 3x3 pad 1 + relu + max_pool 2, conv 16->32 3x3 pad 1 + relu + max_pool 2,
// depthwise 3x3 pad 1 + pointwise 1x1 + relu, global average pooling, linear 32->10, softmax.
// The MLP: 784-512-512-10 (relu between), batch 32.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace bench_models {

struct Parameter {
  std::string name;
  std::vector<int64_t> sizes;
  std::vector<float> values;
};

// Uniform in [-scale, scale] from a fixed seed (std::mt19937 and the distribution are the same in
// both binaries, which use the same standard library).
inline Parameter randomParameter(std::string name, std::vector<int64_t> sizes, uint32_t seed, float scale = 0.2f) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-scale, scale);
  std::vector<float> values(static_cast<size_t>(n));
  for (float& x : values) x = u(rng);
  return {std::move(name), std::move(sizes), std::move(values)};
}

// In the order the models use them: weight, bias of each layer.
inline std::vector<Parameter> cnnParameters() {
  return {randomParameter("c1.w", {16, 3, 3, 3}, 1),  randomParameter("c1.b", {16}, 2),
          randomParameter("c2.w", {32, 16, 3, 3}, 3), randomParameter("c2.b", {32}, 4),
          randomParameter("dw.w", {32, 1, 3, 3}, 5),  randomParameter("dw.b", {32}, 6),
          randomParameter("pw.w", {32, 32, 1, 1}, 7), randomParameter("pw.b", {32}, 8),
          randomParameter("fc.w", {10, 32}, 9),       randomParameter("fc.b", {10}, 10)};
}
inline Parameter cnnInput() { return randomParameter("x", {1, 3, 64, 64}, 11, 1.0f); }

inline std::vector<Parameter> mlpParameters() {
  return {randomParameter("fc1.w", {512, 784}, 21), randomParameter("fc1.b", {512}, 22),
          randomParameter("fc2.w", {512, 512}, 23), randomParameter("fc2.b", {512}, 24),
          randomParameter("fc3.w", {10, 512}, 25),  randomParameter("fc3.b", {10}, 26)};
}
inline Parameter mlpInput() { return randomParameter("x", {32, 784}, 27, 1.0f); }

}  // namespace bench_models
