#include "switchyard/core/dispatch_key_set.h"

#include <ostream>


namespace sy {

std::string DispatchKeySet::toString() const {
  std::string out = "DispatchKeySet(";
  bool first = true;
  forEach([&](DispatchKey k) {
    out += first ? "" : ", ";
    out += sy::toString(k);
    first = false;
  });
  out += ")";
  return out;
}

std::ostream& operator<<(std::ostream& os, DispatchKeySet ks) { return os << ks.toString(); }

}  // namespace sy
