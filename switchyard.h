// The umbrella header: everything a backend author or caller needs.
//
//   #include <switchyard/switchyard.h>
#pragma once

#include "switchyard/autograd/autograd.h"
#include "switchyard/core/dispatch_key.h"
#include "switchyard/core/dispatch_key_set.h"
#include "switchyard/dispatcher/dispatcher.h"
#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/dispatcher/local_dispatch_key_set.h"
#include "switchyard/dispatcher/operator_handle.h"
#include "switchyard/ivalue/cpu_generator.h"
#include "switchyard/ivalue/device_guard.h"
#include "switchyard/ivalue/generic_dict.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/stack.h"
#include "switchyard/ivalue/tensor.h"
#include "switchyard/ivalue/tensor_factories.h"
#include "switchyard/ivalue/warning.h"
#include "switchyard/ops/ops.h"
