#include "switchyard/codegen/arg_meta.h"

#include <algorithm>
#include <bitset>
#include <optional>
#include <set>

#include "switchyard/codegen/yaml_reading.h"
#include "switchyard/ivalue/checked_size.h"

namespace sy::codegen {
namespace {

std::string supportedDtypes() {
  std::string names;
  for (int i = 0; i < kNumScalarTypes; ++i) names += (i ? ", " : "") + std::string(toString(static_cast<ScalarType>(i)));
  return names;
}

std::string dimOrderText(const DimOrder& order) {
  std::string text = "[";
  for (size_t i = 0; i < order.size(); ++i) text += (i ? ", " : "") + std::to_string(order[i]);
  return text + "]";
}

std::vector<ScalarType> readDtypes(const std::string& file, const std::string& alias, const YAML::Node& node) {
  std::vector<YAML::Node> names;
  if (node.IsSequence()) {
    for (const YAML::Node& n : node) names.push_back(n);
  } else if (node.IsScalar()) {
    names.push_back(node);
  } else {
    fail(siteOf(file, node), "type_alias", alias + " must be a dtype or a list of dtypes such as [Double, Float]");
  }
  if (names.empty()) fail(siteOf(file, node), "type_alias", alias + " names no dtype, so it would make no kernel key");
  std::vector<ScalarType> dtypes;
  std::bitset<kNumScalarTypes> seen;
  for (const YAML::Node& n : names) {
    const std::string name = n.IsScalar() ? n.Scalar() : "?";
    std::optional<ScalarType> t = scalarTypeFromName(name);
    if (!t) fail(siteOf(file, n), "type_alias", "unknown dtype '" + name + "' in " + alias + " (supported: " + supportedDtypes() + ")");
    if (seen.test(static_cast<size_t>(*t))) fail(siteOf(file, n), "type_alias", alias + " names " + name + " twice");
    seen.set(static_cast<size_t>(*t));
    dtypes.push_back(*t);
  }
  return dtypes;
}

std::vector<DimOrder> readDimOrders(const std::string& file, const std::string& alias, const YAML::Node& node) {
  auto readOne = [&](const YAML::Node& list) {
    DimOrder order;
    if (!list.IsSequence()) fail(siteOf(file, list), "dim_order_alias", alias + " must be a list of dimension indices");
    for (const YAML::Node& d : list) {
      int dim = -1;
      try {
        dim = d.as<int>();
      } catch (const YAML::Exception&) {
        fail(siteOf(file, d), "dim_order_alias", alias + ": '" + d.as<std::string>("?") + "' is not a dimension index");
      }
      if (dim < 0 || dim > 63) fail(siteOf(file, d), "dim_order_alias", alias + ": dimension " + std::to_string(dim) + " is out of range 0..63");
      order.push_back(static_cast<uint8_t>(dim));
    }
    DimOrder sorted = order;
    std::sort(sorted.begin(), sorted.end());
    if (!isIdentityDimOrder(sorted)) {
      fail(siteOf(file, list), "dim_order_alias", alias + " is not a permutation of 0..rank-1");
    }
    return order;
  };
  if (!node.IsSequence()) fail(siteOf(file, node), "dim_order_alias", alias + " must be a list such as [0, 1, 2, 3]");
  if (node.size() == 0 || !node[0].IsSequence()) return {readOne(node)};
  std::vector<DimOrder> orders;
  std::set<std::string> seen;
  for (const YAML::Node& item : node) {
    DimOrder order = readOne(item);
    if (!seen.insert(std::string(order.begin(), order.end())).second) {
      fail(siteOf(file, item), "dim_order_alias", alias + " names the dim order " + dimOrderText(order) + " twice");
    }
    orders.push_back(std::move(order));
  }
  return orders;
}

}  // namespace

Aliases readAliases(const std::string& file, const YAML::Node& entry) {
  Aliases aliases;
  if (const YAML::Node types = entry["type_alias"]) {
    if (!types.IsMap()) fail(siteOf(file, types), "type_alias", "expected a map such as `T0: [Double, Float]`");
    for (const auto& kv : types) aliases.types[kv.first.Scalar()] = readDtypes(file, kv.first.Scalar(), kv.second);
  }
  if (const YAML::Node orders = entry["dim_order_alias"]) {
    if (!orders.IsMap()) fail(siteOf(file, orders), "dim_order_alias", "expected a map such as `D0: [0, 1, 2, 3]`");
    for (const auto& kv : orders) aliases.dim_orders[kv.first.Scalar()] = readDimOrders(file, kv.first.Scalar(), kv.second);
  }
  return aliases;
}

// Note [An arg_meta's kernel keys are counted before they are made]
// An arg_meta stands for one kernel key per combination of the aliases it uses, so the keys it makes
// are the product of the aliases' sizes: six type aliases of twenty dtypes each are 64 million keys,
// which used to be made (and to exhaust memory) before anything was checked. Now no alias may name a
// value twice (readAliases), which caps a type alias at the number of dtypes, and the product is
// counted, in checked arithmetic, before any key is made: a library (all the kernel YAML of one
// generation) has at most kMaxKernelKeys keys, far more than a kernel library binds (the optimized
// library has a few hundred) and few enough that making and checking them takes milliseconds and a
// few megabytes. A key made twice, by two arg_metas of one operator, is still an error of its own.
std::vector<KernelKey> expandArgMeta(const std::string& file, const YAML::Node& arg_meta, const FunctionSchema& schema,
                                     const Aliases& aliases, const Kernel& kernel, size_t keys_before) {
  const std::string op = schema.operator_name().toString();
  if (!arg_meta.IsMap()) fail(siteOf(file, arg_meta), "arg_meta", "expected null (the default kernel) or a map of tensor argument names to [type alias, dim order alias]");
  struct Spec {
    std::string type_alias, dim_order_alias;
  };
  std::map<std::string, Spec> specs;
  for (const auto& kv : arg_meta) {
    const std::string name = kv.first.Scalar();
    const YamlSite site = siteOf(file, kv.first);
    std::optional<size_t> index = schema.argumentIndexWithName(name);
    if (!index) fail(site, "arg_meta", op + " has no argument '" + name + "'");
    const Type& type = *schema.arguments()[*index].type;
    const bool tensor = type.kind() == TypeKind::Tensor ||
                        (type.kind() == TypeKind::Optional && type.element()->kind() == TypeKind::Tensor);
    if (!tensor) fail(site, "arg_meta", "'" + name + "' of " + op + " is " + type.str() + "; arg_meta describes Tensor arguments only");
    if (!kv.second.IsSequence() || kv.second.size() != 2) {
      fail(siteOf(file, kv.second), "arg_meta", "'" + name + "' must be [type alias, dim order alias], e.g. [T0, D0]");
    }
    Spec spec{scalarText(file, kv.second[0], "arg_meta", "the type alias of '" + name + "'"),
              scalarText(file, kv.second[1], "arg_meta", "the dim order alias of '" + name + "'")};
    if (!aliases.types.count(spec.type_alias)) {
      fail(siteOf(file, kv.second[0]), "undefined alias", "type alias " + spec.type_alias + " (for '" + name + "') is not defined in this entry's type_alias");
    }
    if (!aliases.dim_orders.count(spec.dim_order_alias)) {
      fail(siteOf(file, kv.second[1]), "undefined alias", "dim order alias " + spec.dim_order_alias + " (for '" + name + "') is not defined in this entry's dim_order_alias");
    }
    specs[name] = spec;
  }
  for (const Argument& a : schema.arguments()) {
    if (a.type->kind() == TypeKind::Tensor && !specs.count(a.name)) {
      fail(siteOf(file, arg_meta), "arg_meta", "gives no [type, dim order] for Tensor argument '" + a.name + "' of " + op +
                                                   "; a kernel key describes every tensor argument");
    }
  }
  // Each alias takes one value per key, whichever arguments use it (as in ExecuTorch): the aliases
  // used, type aliases first, each with its number of values.
  std::vector<std::pair<std::string, size_t>> used;
  auto use = [&](const std::string& alias, size_t values) {
    if (std::none_of(used.begin(), used.end(), [&](const auto& u) { return u.first == alias; })) used.emplace_back(alias, values);
  };
  for (const auto& [arg, spec] : specs) use("T:" + spec.type_alias, aliases.types.at(spec.type_alias).size());
  for (const auto& [arg, spec] : specs) use("D:" + spec.dim_order_alias, aliases.dim_orders.at(spec.dim_order_alias).size());
  int64_t count = 1;
  bool fits = true;
  std::string product;
  for (const auto& [alias, values] : used) {
    fits = fits && checkedMul(count, static_cast<int64_t>(values), &count);
    product += (product.empty() ? "" : " x ") + alias.substr(2) + ": " + std::to_string(values);
  }
  if (!fits || count > kMaxKernelKeys - static_cast<int64_t>(keys_before)) {
    fail(siteOf(file, arg_meta), "too many kernel keys",
         "this arg_meta of " + op + " (kernel " + kernel.qualifiedName() + ") would make " +
             (fits ? std::to_string(count) : "more than " + std::to_string(INT64_MAX)) + " kernel keys (" + product +
             "), and a library may have at most " + std::to_string(kMaxKernelKeys) + " (it has " +
             std::to_string(keys_before) + " before this one); list only the dtypes and dim orders kernels exist "
             "for, or bind a default kernel (arg_meta: null)");
  }
  // Every combination, the last alias varying fastest.
  std::vector<KernelKey> keys;
  keys.reserve(static_cast<size_t>(count));
  std::vector<size_t> choice(used.size(), 0);
  auto valueIndex = [&](const std::string& alias) {
    for (size_t i = 0; i < used.size(); ++i) {
      if (used[i].first == alias) return choice[i];
    }
    return size_t{0};
  };
  for (int64_t k = 0; k < count; ++k) {
    std::vector<TensorMeta> metas;
    for (const Argument& a : schema.arguments()) {
      auto it = specs.find(a.name);
      if (it == specs.end()) continue;
      metas.push_back(TensorMeta{aliases.types.at(it->second.type_alias)[valueIndex("T:" + it->second.type_alias)],
                                 aliases.dim_orders.at(it->second.dim_order_alias)[valueIndex("D:" + it->second.dim_order_alias)]});
    }
    keys.emplace_back(std::move(metas));
    for (size_t i = used.size(); i-- > 0;) {
      if (++choice[i] < used[i].second) break;
      choice[i] = 0;
    }
  }
  return keys;
}

}  // namespace sy::codegen
