// libtorch's intra-op thread count for the libtorch benchmarks (torch_models_bench.cpp,
// torch_kernel_bench.cpp): at::set_num_threads sets OpenMP's (and MKL's) count; libtorch's matrix
// products call OpenBLAS, whose pthread build keeps its own, set here too when it is loaded.
#pragma once

#include <dlfcn.h>
#include <torch/torch.h>

inline void setTorchThreads(int n) {
  at::set_num_threads(n);
  using SetThreads = void (*)(int);
  if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) set(n);
}
