#include "switchyard/ivalue/error.h"

namespace sy::detail {

void throwError(std::string message) { throw Error(std::move(message)); }

}  // namespace sy::detail
