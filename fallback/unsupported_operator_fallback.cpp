#include "switchyard/fallback/unsupported_operator_fallback.h"

#include "switchyard/dispatcher/dispatcher.h"

namespace sy {

CppFunction makeUnsupportedOperatorFallback(std::string backend_name) {
  return CppFunction::makeFromBoxedLambda(
      [backend_name = std::move(backend_name)](const OperatorHandle& op, DispatchKeySet ks, Stack*) {
        const DispatchKey key = ks.highestPriorityTypeId();
        std::string supported;
        for (const OperatorName& name : Dispatcher::singleton().operatorsWithKernelFor(key)) {
          supported += (supported.empty() ? "" : ", ") + name.toString();
        }
        SY_ERROR(backend_name, " does not implement ", op.operator_name().toString(),
                 "; supported: ", supported.empty() ? "(none)" : supported);
      });
}

}  // namespace sy
