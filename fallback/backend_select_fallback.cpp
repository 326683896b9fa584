// BackendSelect falls through for every operator, as in PyTorch, so a guard that includes the key
// (to reach a BackendSelect kernel of one operator) leaves every other operator's call as it was.
// See Note [Autograd keys sit between backends and functionality] for why the key exists at all.
#include "switchyard/dispatcher/library.h"

SY_LIBRARY_IMPL(_, BackendSelect, m) { m.fallback(sy::CppFunction::makeFallthrough()); }
