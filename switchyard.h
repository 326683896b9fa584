// The umbrella header: everything a backend author or caller needs.
//
//   #include <switchyard/switchyard.h>
#pragma once

#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/stack.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
