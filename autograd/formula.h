// Backward formulas: how the gradient of one operator's inputs follows from the gradient of its
// outputs, registered per operator in a table that backward looks up.
//
//   SY_BACKWARD_FORMULAS(aten, m) {
//     // d(self * other) = grad * other, grad * self; the formula reads both inputs, so it saves them.
//     m.formula("mul.Tensor", {"self", "other"}, [](sy::autograd::BackwardContext& ctx) {
//       ctx.setGrad("self", sy::ops::mul(ctx.grad(), ctx.saved("other")));
//       ctx.setGrad("other", sy::ops::mul(ctx.grad(), ctx.saved("self")));
//     });
//     // d exp(x) = grad * exp(x): reads its own result.
//     m.formula("exp", sy::autograd::savesResults(), [](sy::autograd::BackwardContext& ctx) {
//       ctx.setGrad("self", sy::ops::mul(ctx.grad(), ctx.result()));
//     });
//   }
//
// A formula is written with sy::ops calls; backward runs it with recording off. It may return a
// gradient of the broadcast shape (backward sums it back to the input's shape) or of another dtype
// or device (backward converts it); any other shape is an error naming the formula. An in-place
// operator (add_.Tensor) without a formula of its own uses its functional twin's (add.Tensor),
// whose argument names it shares. Registering a formula also routes the operator's calls on the
// autograd keys to the recording kernel, so a CompositeImplicit operator with a formula (linear,
// reshape) is recorded as itself rather than through the calls its composite kernel makes.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/dispatcher/library.h"
#include "switchyard/dispatcher/source_location.h"
#include "switchyard/ivalue/tensor.h"

namespace sy::autograd {

class Node;

// What a formula reads at backward time besides the gradients: the tensor arguments it names
// (non-tensor arguments are always kept) and, with `results`, the call's own results.
struct Saved {
  std::vector<std::string> arguments;
  bool results = false;

  Saved() = default;
  Saved(std::initializer_list<std::string> argument_names, bool save_results = false)  // NOLINT: {"self"}
      : arguments(argument_names), results(save_results) {}
};
inline Saved savesResults(std::initializer_list<std::string> argument_names = {}) { return Saved(argument_names, true); }

// What a formula sees while backward runs it.
class BackwardContext {
 public:
  BackwardContext(const Node& node, std::vector<Tensor> output_grads);

  const OperatorName& op() const;
  // The gradient flowing into output `output` (zeros of its shape when none did).
  Tensor grad(size_t output = 0) const;
  // A tensor argument the formula declared in Saved (undefined for an omitted Tensor?), checked
  // against in-place writes since it was saved.
  Tensor saved(std::string_view argument) const;
  // A Tensor[] argument the formula declared in Saved.
  std::vector<Tensor> savedList(std::string_view argument) const;
  // Result `output` of the call (the formula must save results).
  Tensor result(size_t output = 0) const;
  // A non-tensor argument as the call passed it (defaults filled in): ctx.arg("alpha").toScalar().
  const IValue& arg(std::string_view argument) const;
  // Shape and dtype of tensor argument `argument` (element `element` of a Tensor[]), saved or not.
  IntArrayRef sizes(std::string_view argument, size_t element = 0) const;
  ScalarType dtype(std::string_view argument, size_t element = 0) const;
  // How many tensors a Tensor[] argument held.
  size_t listSize(std::string_view argument) const;
  // Whether backward wants this input's gradient (it requires grad).
  bool needsGrad(std::string_view argument, size_t element = 0) const;
  // The gradient of a tensor argument (element `element` of a Tensor[]); an undefined tensor
  // means "no gradient" (zero).
  void setGrad(std::string_view argument, Tensor grad);
  void setGrad(std::string_view argument, size_t element, Tensor grad);

  // One entry per Node::inputs() slot, as the formula set them.
  std::vector<Tensor>& inputGrads() { return input_grads_; }

 private:
  size_t argumentIndex(std::string_view argument) const;
  size_t slotIndex(std::string_view argument, size_t element) const;
  const Node& node_;
  std::vector<Tensor> output_grads_;
  std::vector<Tensor> input_grads_;
};

using BackwardFunction = std::function<void(BackwardContext&)>;

// A registered formula: what backward looks up for a recorded call.
struct FormulaEntry {
  OperatorName op;
  Saved saved;
  BackwardFunction backward;
  std::string site;  // "file:line" of the registration
};

// The formula for `op` (or, for an in-place operator without one, its functional twin's); null
// when neither has one.
std::shared_ptr<const FormulaEntry> findFormula(const OperatorName& op);

// Registers formulas for the operators of one namespace; destroying it removes them (and the
// routing on the autograd keys), restoring what was there before. SY_BACKWARD_FORMULAS makes one
// at static initialisation.
class FormulaLibrary {
 public:
  explicit FormulaLibrary(std::string ns, SourceLocation site = SourceLocation::current());
  ~FormulaLibrary();
  FormulaLibrary(const FormulaLibrary&) = delete;
  FormulaLibrary& operator=(const FormulaLibrary&) = delete;

  // `name` is "mul.Tensor" or "aten::mul.Tensor". A second formula for one operator is an error
  // naming both registration sites.
  FormulaLibrary& formula(std::string_view name, Saved saved, BackwardFunction backward,
                          SourceLocation site = SourceLocation::current());

 private:
  std::string ns_;
  SourceLocation site_;
  std::vector<OperatorName> registered_;
  Library kernels_;  // the recording kernel on the autograd keys of each operator with a formula
};

namespace detail {
class FormulaLibraryInitializer {
 public:
  FormulaLibraryInitializer(void (*init)(FormulaLibrary&), const char* ns, const char* file, uint32_t line)
      : library_(ns, SourceLocation{file, line}) {
    init(library_);
  }

 private:
  FormulaLibrary library_;
};
}  // namespace detail

}  // namespace sy::autograd

#define SY_BACKWARD_FORMULAS(ns, m) SY_BACKWARD_FORMULAS_WITH_UID(ns, m, SY_UID)
#define SY_BACKWARD_FORMULAS_WITH_UID(ns, m, uid)                                                         \
  static void SY_CONCAT(SY_BACKWARD_FORMULAS_init_##ns##_, uid)(::sy::autograd::FormulaLibrary&);        \
  static const ::sy::autograd::detail::FormulaLibraryInitializer SY_CONCAT(                              \
      SY_BACKWARD_FORMULAS_static_init_##ns##_, uid)(&SY_CONCAT(SY_BACKWARD_FORMULAS_init_##ns##_, uid), \
                                                     #ns, __FILE__, __LINE__);                           \
  void SY_CONCAT(SY_BACKWARD_FORMULAS_init_##ns##_, uid)(::sy::autograd::FormulaLibrary & m)
