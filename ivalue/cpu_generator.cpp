// The process's CPU generator (See Note [The CPU generator draws as PyTorch's does]).
#include "switchyard/ivalue/cpu_generator.h"

namespace sy {

CpuGenerator& defaultCpuGenerator() {
  static CpuGenerator* generator = new CpuGenerator();  // never destroyed: kernels may run at exit
  return *generator;
}

}  // namespace sy
