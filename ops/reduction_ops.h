// sy::ops:: helpers for the reduction operators (filled in by the portable operator library).
#pragma once

#include "switchyard/ivalue/scalar.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"

namespace sy::ops {}  // namespace sy::ops
