#include "switchyard/autograd/formula.h"

#include <mutex>
#include <utility>

#include "switchyard/autograd/autograd_fallback.h"
#include "switchyard/autograd/node.h"
#include "switchyard/ops/creation_ops.h"
#include "tsl/robin_map.h"

namespace sy::autograd {
namespace {

// The formulas by operator, newest registration last. Backward and recording look them up under
// the mutex; entries are shared so a node keeps its formula even if it is unregistered meanwhile.
struct FormulaTable {
  std::mutex mutex;
  tsl::robin_map<std::string, std::shared_ptr<const FormulaEntry>> by_op;  // by "aten::mul.Tensor"
};

FormulaTable& table() {
  static FormulaTable* instance = new FormulaTable();  // never destroyed: static destructors may still look up
  return *instance;
}

// "add_.Tensor" -> "add.Tensor"; nullopt for an operator whose name does not end in '_'.
std::optional<OperatorName> functionalTwin(const OperatorName& op) {
  if (op.name.size() < 2 || op.name.back() != '_' || op.name[op.name.size() - 2] == '_') return std::nullopt;
  return OperatorName{op.name.substr(0, op.name.size() - 1), op.overload_name};
}

}  // namespace

std::shared_ptr<const FormulaEntry> findFormula(const OperatorName& op) {
  FormulaTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.by_op.find(op.toString());
  if (it != t.by_op.end()) return it->second;
  if (std::optional<OperatorName> twin = functionalTwin(op)) {
    it = t.by_op.find(twin->toString());
    if (it != t.by_op.end()) return it->second;
  }
  return nullptr;
}

// ---- FormulaLibrary ---------------------------------------------------------------------------

FormulaLibrary::FormulaLibrary(std::string ns, SourceLocation site)
    : ns_(std::move(ns)), site_(site), kernels_(Library::FRAGMENT, ns_, std::nullopt, site) {}

FormulaLibrary::~FormulaLibrary() {
  FormulaTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (const OperatorName& op : registered_) t.by_op.erase(op.toString());
}

FormulaLibrary& FormulaLibrary::formula(std::string_view name, Saved saved, BackwardFunction backward,
                                        SourceLocation site) {
  std::string full(name);
  const size_t colons = full.find("::");
  if (colons == std::string::npos) {
    full = ns_ + "::" + full;
  } else {
    SY_CHECK(full.substr(0, colons) == ns_, "formula(\"", name, "\") at ", site.str(),
             ": the operator's namespace must be '", ns_, "', the FormulaLibrary's (", site_.str(), ")");
  }
  SY_CHECK(backward != nullptr, "formula(\"", name, "\") at ", site.str(), ": the backward function is empty");
  OperatorName op = parseOperatorName(full);
  auto entry = std::make_shared<FormulaEntry>(FormulaEntry{op, std::move(saved), std::move(backward), site.str()});
  {
    FormulaTable& t = table();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto [it, inserted] = t.by_op.emplace(op.toString(), entry);
    SY_CHECK(inserted, "formula(\"", name, "\") at ", site.str(), ": ", op, " already has a backward formula, registered at ",
             it->second->site);
  }
  registered_.push_back(op);
  // See Note [Only tensors that require grad carry an autograd key]: an operator with a formula is
  // recorded as itself, even where a CompositeImplicit kernel would otherwise take the autograd keys.
  for (DispatchKey key : kAutogradKeys) {
    kernels_.impl(full, dispatch(key, CppFunction::makeFromBoxedFunction<&autogradFallback>()), site);
  }
  return *this;
}

// ---- BackwardContext --------------------------------------------------------------------------

BackwardContext::BackwardContext(const Node& node, std::vector<Tensor> output_grads)
    : node_(node), output_grads_(std::move(output_grads)), input_grads_(node.inputs().size()) {}

const OperatorName& BackwardContext::op() const { return node_.name(); }

size_t BackwardContext::argumentIndex(std::string_view argument) const {
  std::optional<size_t> index = node_.op().schema().argumentIndexWithName(argument);
  SY_CHECK(index.has_value(), "backward formula of ", op(), ": ", op(), " has no argument '", argument,
           "'; schema: ", node_.op().schema().toString());
  return *index;
}

size_t BackwardContext::slotIndex(std::string_view argument, size_t element) const {
  const size_t index = argumentIndex(argument);
  const std::vector<InputSlot>& slots = node_.inputs();
  for (size_t i = 0; i < slots.size(); ++i) {
    if (slots[i].argument == index && slots[i].element == element) return i;
  }
  SY_ERROR("backward formula of ", op(), ": argument '", argument, "' (element ", element,
           ") is not a tensor the call received");
}

Tensor BackwardContext::grad(size_t output) const {
  SY_CHECK(output < output_grads_.size(), "backward formula of ", op(), ": asked for the gradient of output ", output,
           " but the call has ", output_grads_.size(), " tensor output(s)");
  if (output_grads_[output].defined()) return output_grads_[output];
  const TensorGeometry& g = node_.outputs()[output];
  if (g.dtype == ScalarType::Undefined) return Tensor();  // the call returned no tensor there
  return ops::zeros(g.sizes, TensorOptions(g.dtype).device(g.device));
}

Tensor BackwardContext::saved(std::string_view argument) const {
  const SavedArgument& a = node_.arguments()[argumentIndex(argument)];
  SY_CHECK(a.saved, "backward formula of ", op(), " reads argument '", argument,
           "', which it did not declare in its Saved list, so it was not kept");
  if (a.tensors.empty()) return Tensor();  // an omitted Tensor?
  SY_CHECK(!a.value.isTensorList(), "backward formula of ", op(), ": argument '", argument,
           "' is a tensor list; read it with savedList()");
  return a.tensors[0].unpack(op(), str("argument '", argument, "'"));
}

std::vector<Tensor> BackwardContext::savedList(std::string_view argument) const {
  const SavedArgument& a = node_.arguments()[argumentIndex(argument)];
  SY_CHECK(a.saved, "backward formula of ", op(), " reads argument '", argument,
           "', which it did not declare in its Saved list, so it was not kept");
  std::vector<Tensor> out;
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    out.push_back(a.tensors[i].unpack(op(), str("element ", i, " of argument '", argument, "'")));
  }
  return out;
}

Tensor BackwardContext::result(size_t output) const {
  SY_CHECK(output < node_.results().size(), "backward formula of ", op(), " reads result ", output,
           ", but it did not declare savesResults() (or the call has fewer tensor outputs)");
  return node_.results()[output].unpack(op(), str("result ", output));
}

const IValue& BackwardContext::arg(std::string_view argument) const {
  const SavedArgument& a = node_.arguments()[argumentIndex(argument)];
  SY_CHECK(!a.value.isTensor() && !a.value.isTensorList(), "backward formula of ", op(), ": argument '", argument,
           "' is a tensor; read it with saved()");
  return a.value;
}

IntArrayRef BackwardContext::sizes(std::string_view argument, size_t element) const {
  return node_.inputs()[slotIndex(argument, element)].geometry.sizes;
}

ScalarType BackwardContext::dtype(std::string_view argument, size_t element) const {
  return node_.inputs()[slotIndex(argument, element)].geometry.dtype;
}

size_t BackwardContext::listSize(std::string_view argument) const {
  const size_t index = argumentIndex(argument);
  size_t count = 0;
  for (const InputSlot& slot : node_.inputs()) count += slot.argument == index ? 1 : 0;
  return count;
}

bool BackwardContext::needsGrad(std::string_view argument, size_t element) const {
  const size_t index = argumentIndex(argument);
  for (const InputSlot& slot : node_.inputs()) {
    if (slot.argument == index && slot.element == element) return slot.edge.defined();
  }
  return false;  // an omitted Tensor?
}

void BackwardContext::setGrad(std::string_view argument, Tensor grad) { setGrad(argument, 0, std::move(grad)); }

void BackwardContext::setGrad(std::string_view argument, size_t element, Tensor grad) {
  input_grads_[slotIndex(argument, element)] = std::move(grad);
}

}  // namespace sy::autograd
