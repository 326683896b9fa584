// The tensors inside an IValue, whichever way the schema holds them: a Tensor, a Tensor[], a
// generic list such as Tensor?[] (whose None entries are skipped), or the values of a dict such as
// Dict(str, Tensor) (its keys are left alone: a tensor key is found by identity, so replacing it
// would make it another key). One walk for every fallback and for the dispatcher's key extraction,
// so a new way of holding tensors is taught in one place.
//
//   forEachTensor(arg, [&](const Tensor& t) { keys = keys | t.key_set(); });
//   IValue on_cpu = mapTensors(arg, [&](const Tensor& t) { return isAccel(t) ? toCpu(t) : t; });
#pragma once

#include <utility>
#include <vector>

#include "switchyard/ivalue/generic_dict.h"
#include "switchyard/ivalue/ivalue.h"
#include "switchyard/ivalue/tensor.h"

namespace sy {

// Calls f(const Tensor&) on every tensor inside `v`, in order.
template <class F>
void forEachTensor(const IValue& v, F&& f) {
  if (v.isTensor()) {
    f(v.toTensor());
  } else if (v.isTensorList()) {
    for (const Tensor& t : v.toTensorVector()) f(t);
  } else if (v.isList()) {
    for (const IValue& e : v.toList()) {
      if (e.isTensor()) f(e.toTensor());
    }
  } else if (v.isGenericDict()) {
    for (const GenericDict::Entry& e : v.toGenericDict()) {
      if (e.value().isTensor()) f(e.value().toTensor());
    }
  }
}

// `v` with every tensor inside it replaced by f(tensor) (a Tensor returned by value). Lists and
// dicts are rebuilt, never edited in place, since the caller may share them; anything else is
// returned as is.
template <class F>
IValue mapTensors(IValue v, F&& f) {
  if (v.isTensor()) return IValue(f(v.toTensor()));
  if (v.isTensorList()) {
    std::vector<Tensor> mapped;
    for (const Tensor& t : v.toTensorVector()) mapped.push_back(f(t));
    return IValue(std::move(mapped));
  }
  if (v.isList()) {
    std::vector<IValue> mapped;
    for (const IValue& e : v.toList()) mapped.push_back(e.isTensor() ? IValue(f(e.toTensor())) : e);
    return IValue(std::move(mapped));
  }
  if (v.isGenericDict()) {
    GenericDict mapped;
    mapped.reserve(v.toGenericDict().size());
    for (const GenericDict::Entry& e : v.toGenericDict()) {
      mapped.insert(e.key(), e.value().isTensor() ? IValue(f(e.value().toTensor())) : e.value());
    }
    return IValue(std::move(mapped));
  }
  return v;
}

}  // namespace sy
