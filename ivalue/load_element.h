// loadElement: the one way code reads a tensor element of a known C++ type (a Bool element as a
// byte, so that any byte in Bool storage is a valid read).
//
//   visitScalarType(t.scalar_type(), [&](auto tag) {
//     using T = typename decltype(tag)::type;
//     const T first = loadElement(static_cast<const T*>(t.data_ptr()));
//   });
#pragma once

#include <type_traits>

#include "switchyard/core/macros.h"

namespace sy {

// Note [Bool elements are read as bytes]
// A Bool tensor stores one byte per element, but C++ allows only the bytes 0 and 1 in a `bool`:
// reading any other through a bool lvalue is undefined behaviour, and compilers exploit it (a
// byte 128 read as bool converts to 128.0, compares unequal to `true`, negates to 129). Bool
// storage does hold other bytes: planned memory a program shares between a Float and a Bool
// tensor, a program's constant data, a caller's buffer. So every read of an element goes through
// loadElement, which reads a Bool element as a byte and gives `byte != 0` (nonzero is true, as in
// PyTorch), and an element of any other dtype as itself. The dtype visitors still hand kernels
// TypeTag<bool>; the loops kernels run on (the elementwise loops of backends/devices/cpu/elementwise.h,
// the reductions, the gathers) read through loadElement, and so do item(), printing and
// allclose, so a kernel built on them needs nothing of its own. Writes store 0 or 1 and need no
// care; copies that keep the dtype move bytes without looking at them.
template <class T>
SY_ALWAYS_INLINE inline T loadElement(const T* p) {
  if constexpr (std::is_same_v<T, bool>) {
    return *reinterpret_cast<const unsigned char*>(p) != 0;
  } else {
    return *p;
  }
}

}  // namespace sy
