#include "switchyard/dispatcher/call_label.h"

#include <mutex>
#include <unordered_map>

namespace sy {

namespace {

struct Labelers {
  std::mutex mutex;
  std::unordered_map<const OperatorEntry*, CallLabeler> by_operator;
};

Labelers& labelers() {
  static Labelers* instance = new Labelers;  // outlives static destructors of other files
  return *instance;
}

}  // namespace

void registerCallLabeler(const OperatorHandle& op, CallLabeler labeler) {
  Labelers& all = labelers();
  std::lock_guard<std::mutex> lock(all.mutex);
  all.by_operator[&op.entry()] = labeler;
}

CallLabel labelOfCall(const OperatorHandle& op, const Stack& args) {
  CallLabel label{op.operator_name().toString(), "operator", {}};
  CallLabeler labeler = nullptr;
  {
    Labelers& all = labelers();
    std::lock_guard<std::mutex> lock(all.mutex);
    auto it = all.by_operator.find(&op.entry());
    if (it != all.by_operator.end()) labeler = it->second;
  }
  if (labeler != nullptr) {
    CallLabel custom;
    if (labeler(args, custom)) return custom;
  }
  return label;
}

}  // namespace sy
