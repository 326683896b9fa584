// In libswitchyard_optimized.so. See Note [Linking the optimized library keeps it loaded].
#include "switchyard/backends/kernels/optimized/library_anchor.h"

namespace sy::optimized {

void keepOptimizedLibraryLoaded() {}

}  // namespace sy::optimized
