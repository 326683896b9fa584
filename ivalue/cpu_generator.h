// CpuGenerator: the random source the CPU kernels draw from (rand, randn, native_dropout), and
// manualSeed, which makes their numbers reproducible.
//
//   sy::manualSeed(42);
//   sy::Tensor a = sy::ops::rand({2, 3});
//   sy::manualSeed(42);
//   sy::Tensor b = sy::ops::rand({2, 3});   // the same numbers as a
//
// Note [The CPU generator draws as PyTorch's does]
// The engine is the 32-bit Mersenne Twister (std::mt19937) seeded with the seed's low 32 bits, the
// engine PyTorch's CPU generator uses, and the kernels turn its draws into numbers as PyTorch 1.13's
// CPU kernels do: a uniform float keeps 24 bits of one draw (Half 11, BFloat16 8), a double 53 bits
// of two (the first the high half), a normal sample is Box-Muller over those, and a Bernoulli
// sample compares a uniform double with p. So after the same seed, the same calls give PyTorch's
// numbers (the oracle checks rand, randn and native_dropout against it), and a program exported
// from PyTorch behaves as it did there. Before any manualSeed the seed is PyTorch's default,
// 67280421310721: a process is reproducible from its start.
//
// One generator serves the whole process. A kernel holds its lock for the whole fill (Draw), so
// concurrent calls interleave per call, never per number.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <random>

namespace sy {

class CpuGenerator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721ull;

  explicit CpuGenerator(uint64_t seed = kDefaultSeed) { reseed(seed); }
  CpuGenerator(const CpuGenerator&) = delete;
  CpuGenerator& operator=(const CpuGenerator&) = delete;

  // Restarts the sequence (and forgets a cached normal sample), as torch.manual_seed does.
  void manualSeed(uint64_t seed) {
    std::lock_guard<std::mutex> lock(mutex_);
    reseed(seed);
  }
  uint64_t seed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return seed_;
  }

  // The generator held for one kernel's fill; its draws are the kernel's alone.
  class Draw {
   public:
    explicit Draw(CpuGenerator& g) : lock_(g.mutex_), g_(g) {}
    uint32_t random() { return static_cast<uint32_t>(g_.engine_()); }
    uint64_t random64() {
      const uint64_t high = random();
      return (high << 32) | random();
    }
    // The second sample of the last Box-Muller pair of doubles, kept for the next normal draw.
    std::optional<double> takeNormalSample() {
      std::optional<double> sample = g_.next_normal_;
      g_.next_normal_.reset();
      return sample;
    }
    void keepNormalSample(double sample) { g_.next_normal_ = sample; }

   private:
    std::lock_guard<std::mutex> lock_;
    CpuGenerator& g_;
  };

 private:
  void reseed(uint64_t seed) {
    seed_ = seed;
    engine_.seed(static_cast<std::mt19937::result_type>(seed & 0xffffffffu));
    next_normal_.reset();
  }

  mutable std::mutex mutex_;
  std::mt19937 engine_;
  uint64_t seed_ = kDefaultSeed;
  std::optional<double> next_normal_;
};

// The process's generator, which the CPU kernels use.
CpuGenerator& defaultCpuGenerator();

// Seeds the process's generator (torch.manual_seed).
inline void manualSeed(uint64_t seed) { defaultCpuGenerator().manualSeed(seed); }

}  // namespace sy
