#include "switchyard/dispatcher/declared_dtypes.h"

#include <map>
#include <mutex>

#include "switchyard/core/scalar_type.h"

namespace sy {
namespace {

struct Declarations {
  std::mutex mutex;
  std::map<std::string, unsigned, std::less<>> by_operator;
};

Declarations& declarations() {
  static Declarations* d = new Declarations();  // never destroyed: read by tools until exit
  return *d;
}

}  // namespace

void recordDeclaredDtypes(absl::Span<const DeclaredDtypes> table) {
  Declarations& d = declarations();
  std::lock_guard<std::mutex> lock(d.mutex);
  for (const DeclaredDtypes& entry : table) d.by_operator[entry.op] = entry.dtypes;
}

std::optional<unsigned> declaredDtypes(const OperatorName& name) {
  Declarations& d = declarations();
  std::lock_guard<std::mutex> lock(d.mutex);
  auto it = d.by_operator.find(name.toString());
  if (it == d.by_operator.end()) return std::nullopt;
  return it->second;
}

std::string dtypeSetText(unsigned bits) {
  std::string text;
  for (int i = 0; i < 32; ++i) {
    if ((bits & (1u << i)) == 0) continue;
    text += (text.empty() ? "" : ", ") + std::string(toString(static_cast<ScalarType>(i)));
  }
  return text;
}

}  // namespace sy
