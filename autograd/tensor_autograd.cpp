// The autograd members of sy::Tensor (declared in ivalue/tensor.h).
#include "switchyard/autograd/autograd.h"
#include "switchyard/autograd/autograd_meta.h"
#include "switchyard/autograd/node.h"

namespace sy {
namespace {
const Tensor kNoGrad;

void checkDefined(const Tensor& t, const char* method) {
  SY_CHECK(t.defined(), "Tensor::", method, ": the tensor is undefined");
}
}  // namespace

const Tensor& Tensor::requires_grad_(bool requires_grad) const {
  checkDefined(*this, "requires_grad_");
  autograd::AutogradMeta* meta = autograd::metaOf(*this);
  if (meta != nullptr && meta->grad_fn != nullptr) {
    // A recorded result requires grad through its history; only turning that off is an error.
    SY_CHECK_VALUE(requires_grad, "requires_grad_(false): this tensor is the result of ", meta->grad_fn->name(),
                   ", recorded because an input requires grad; only leaves can stop requiring grad. Use "
                   "detach() for a handle without history");
    return *this;
  }
  if (requires_grad) {
    SY_CHECK_TYPE(isFloatingType(scalar_type()), "requires_grad_(): only floating-point tensors can require "
                  "gradients, but this tensor is ", scalar_type());
    autograd::ensureMeta(*this).requires_grad = true;
  } else if (meta != nullptr) {
    meta->requires_grad = false;
  }
  autograd::syncAutogradKey(*this);
  return *this;
}

bool Tensor::requires_grad() const { return autograd::hasHistory(*this); }

bool Tensor::is_leaf() const {
  const autograd::AutogradMeta* meta = autograd::metaOf(*this);
  return meta == nullptr || meta->grad_fn == nullptr;
}

const Tensor& Tensor::grad() const {
  const autograd::AutogradMeta* meta = autograd::metaOf(*this);
  return meta == nullptr ? kNoGrad : meta->grad;
}

Tensor& Tensor::mutable_grad() const {
  checkDefined(*this, "mutable_grad");
  return autograd::ensureMeta(*this).grad;
}

void Tensor::backward(const Tensor& gradient, bool retain_graph) const { sy::backward(*this, gradient, retain_graph); }

Tensor Tensor::detach() const {
  checkDefined(*this, "detach");
  return autograd::detachedAlias(*this);
}

}  // namespace sy
