#include "switchyard/ivalue/scalar.h"

#include "switchyard/core/error.h"

namespace sy {

void Scalar::throwDoesNotFit(ScalarType dtype) const {
  SY_ERROR_KIND(Value, "value ", *this, " cannot be converted to type ", dtype, " without overflow");
}

}  // namespace sy
