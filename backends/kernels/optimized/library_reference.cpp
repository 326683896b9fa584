// Linked (whole-archive) into each program that links switchyard::optimized, never into the
// shared library. See Note [Linking the optimized library keeps it loaded].
#include "switchyard/backends/kernels/optimized/library_anchor.h"

namespace {

[[maybe_unused]] const bool kOptimizedLibraryReferenced = (sy::optimized::keepOptimizedLibraryLoaded(), true);

}  // namespace
