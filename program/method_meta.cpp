// Program::method_meta: a copy of what the file says about one method (see method_meta.h).
#include "switchyard/program/method_meta.h"

#include "switchyard/ivalue/error.h"
#include "absl/strings/str_join.h"
#include "switchyard/program/program.h"
#include "switchyard/program/program_internal.h"

namespace sy {

using program_internal::view;

namespace {

ValueInfo describeValue(const pte::ExecutionPlan& plan, size_t index) {
  const pte::EValue* value = plan.values()->Get(static_cast<uint32_t>(index));
  ValueInfo info;
  info.value_index = index;
  info.kind = pte::EnumNameKernelTypes(value->val_type());
  if (info.kind == "Null") info.kind = "None";
  if (const pte::Tensor* t = value->val_as_Tensor()) {
    // Validated at load, so the geometry is known to be well formed.
    absl::StatusOr<program_internal::TensorGeometry> g = program_internal::tensorGeometry(*t);
    if (g.ok()) {
      info.dtype = g->dtype;
      info.sizes = g->sizes;
      info.dim_order = g->dim_order;
    }
    info.planned = t->allocation_info() != nullptr;
    const pte::ExtraTensorInfo* extra = t->extra_tensor_info();
    if (extra != nullptr && extra->location() == pte::TensorDataLocation::EXTERNAL) {
      info.external_name = std::string(view(extra->fully_qualified_name()));
    }
  }
  return info;
}

}  // namespace

absl::StatusOr<MethodMeta> Program::method_meta(std::string_view method) const {
  const pte::ExecutionPlan* plan = data_->findPlan(method);
  if (plan == nullptr) {
    return absl::NotFoundError(sy::str(data_->where(), " has no method '", method, "'; its methods: ",
                                            absl::StrJoin(method_names(), ", ")));
  }
  MethodMeta meta;
  meta.name = std::string(method);
  meta.num_values = plan->values() == nullptr ? 0 : plan->values()->size();
  if (plan->inputs() != nullptr) {
    for (int32_t i : *plan->inputs()) meta.inputs.push_back(describeValue(*plan, static_cast<size_t>(i)));
  }
  if (plan->outputs() != nullptr) {
    for (int32_t i : *plan->outputs()) meta.outputs.push_back(describeValue(*plan, static_cast<size_t>(i)));
  }
  if (plan->operators() != nullptr) {
    for (const pte::Operator* op : *plan->operators()) {
      meta.operators.push_back(OperatorName{std::string(view(op->name())), std::string(view(op->overload()))});
    }
  }
  if (plan->delegates() != nullptr) {
    for (const pte::BackendDelegate* d : *plan->delegates()) {
      DelegateInfo info;
      info.backend = std::string(view(d->id()));
      info.processed_inline = d->processed() != nullptr && d->processed()->location() == pte::DataLocation::INLINE;
      if (auto data = data_->delegateData(*d); data.ok()) info.processed_size = data->size();
      if (d->compile_specs() != nullptr) {
        for (const pte::CompileSpec* spec : *d->compile_specs()) {
          CompileSpecInfo s;
          s.key = std::string(view(spec->key()));
          if (spec->value() != nullptr) s.value.assign(spec->value()->begin(), spec->value()->end());
          info.compile_specs.push_back(std::move(s));
        }
      }
      meta.delegates.push_back(std::move(info));
    }
  }
  if (plan->non_const_buffer_sizes() != nullptr) {
    meta.planned_buffer_sizes = program_internal::elementsOf(plan->non_const_buffer_sizes());
  }
  if (plan->values() != nullptr) {
    for (size_t i = 0; i < plan->values()->size(); ++i) {
      const pte::Tensor* t = plan->values()->Get(static_cast<uint32_t>(i))->val_as_Tensor();
      const pte::ExtraTensorInfo* extra = t == nullptr ? nullptr : t->extra_tensor_info();
      if (extra != nullptr && extra->location() == pte::TensorDataLocation::EXTERNAL) {
        meta.external_tensors.emplace_back(view(extra->fully_qualified_name()));
      }
    }
  }
  if (plan->chains() != nullptr) {
    for (const pte::Chain* chain : *plan->chains()) {
      meta.num_instructions += chain->instructions() == nullptr ? 0 : chain->instructions()->size();
    }
  }
  return meta;
}

}  // namespace sy
