#include "switchyard/dispatcher/schema_defaults.h"

#include "switchyard/dispatcher/schema_constants.h"

namespace sy::detail {
namespace {

const Type& withoutContainers(const Type& type) {
  return type.element() ? withoutContainers(*type.element()) : type;
}

std::optional<IValue> fitNamedConstant(TypeKind kind, const SchemaLiteral& literal) {
  if (literal.kind != SchemaLiteral::Kind::Identifier) return std::nullopt;
  for (const auto& constant : namedConstantsOf(kind)) {
    if (constant.name == literal.text) return IValue(constant.value);
  }
  return std::nullopt;
}

std::optional<IValue> fitList(const Type& type, const SchemaLiteral& literal) {
  const std::optional<int64_t> size = type.fixedSize();
  std::vector<SchemaLiteral> broadcast;
  const std::vector<SchemaLiteral>* items = &literal.elements;
  if (literal.kind == SchemaLiteral::Kind::List) {
    // `int[2] stride=[]` is PyTorch's "not given"; any other length must match.
    if (size && !items->empty() && static_cast<int64_t>(items->size()) != *size) return std::nullopt;
  } else {
    // PyTorch reads `int[2] padding=0` as [0, 0].
    if (!size) return std::nullopt;
    broadcast.assign(static_cast<size_t>(*size), literal);
    items = &broadcast;
  }
  std::vector<IValue> values;
  for (const SchemaLiteral& item : *items) {
    std::optional<IValue> value = fitDefault(*type.element(), item);
    if (!value) return std::nullopt;
    values.push_back(std::move(*value));
  }
  switch (type.element()->kind()) {
    case TypeKind::Int:
    case TypeKind::SymInt: {
      std::vector<int64_t> ints;
      for (const IValue& v : values) ints.push_back(v.toInt());
      return IValue(std::move(ints));
    }
    case TypeKind::Float: {
      std::vector<double> doubles;
      for (const IValue& v : values) doubles.push_back(v.toDouble());
      return IValue(std::move(doubles));
    }
    case TypeKind::Bool: {
      std::vector<bool> bools;
      for (const IValue& v : values) bools.push_back(v.toBool());
      return IValue(std::move(bools));
    }
    case TypeKind::Tensor: return IValue(std::vector<Tensor>{});  // only `[]` fits: no tensor literals
    default: return IValue(std::move(values));
  }
}

}  // namespace

std::optional<IValue> fitDefault(const Type& type, const SchemaLiteral& literal) {
  using K = SchemaLiteral::Kind;
  if (literal.kind == K::None) {
    return type.kind() == TypeKind::Optional ? std::optional<IValue>(IValue()) : std::nullopt;
  }
  switch (type.kind()) {
    case TypeKind::Optional: return fitDefault(*type.element(), literal);
    case TypeKind::List: return fitList(type, literal);
    case TypeKind::Int:
    case TypeKind::SymInt:
      if (literal.kind == K::Int) return IValue(literal.int_value);
      return fitNamedConstant(type.kind(), literal);
    case TypeKind::Float:
      if (literal.kind == K::Int) return IValue(static_cast<double>(literal.int_value));
      if (literal.kind == K::Float) return IValue(literal.float_value);
      return std::nullopt;
    case TypeKind::Bool:
      if (literal.kind == K::Bool) return IValue(literal.bool_value);
      return std::nullopt;
    case TypeKind::Str:
      if (literal.kind == K::String) return IValue(literal.text);
      return std::nullopt;
    case TypeKind::Scalar:
      if (literal.kind == K::Int) return IValue(literal.int_value);
      if (literal.kind == K::Float) return IValue(literal.float_value);
      if (literal.kind == K::Bool) return IValue(literal.bool_value);
      return std::nullopt;
    case TypeKind::ScalarType:
      if (literal.kind != K::Identifier) return std::nullopt;
      if (auto scalar_type = scalarTypeFromLiteral(literal.text)) return IValue(*scalar_type);
      return std::nullopt;
    case TypeKind::Layout:
    case TypeKind::MemoryFormat: return fitNamedConstant(type.kind(), literal);
    case TypeKind::Tensor:
    case TypeKind::Device:
    case TypeKind::Dict: return std::nullopt;  // PyTorch's schemas give dicts no defaults either
  }
  return std::nullopt;
}

int64_t expandedDefaultSize(const Type& type, const SchemaLiteral& literal, int64_t limit) {
  if (type.kind() == TypeKind::Optional) return expandedDefaultSize(*type.element(), literal, limit);
  if (type.kind() != TypeKind::List || literal.kind == SchemaLiteral::Kind::None) return 1;
  if (literal.kind == SchemaLiteral::Kind::List) {
    // Written out: bounded by the schema's length, but summed anyway so nesting cannot multiply.
    int64_t total = 0;
    for (const SchemaLiteral& item : literal.elements) {
      total += expandedDefaultSize(*type.element(), item, limit);
      if (total > limit) return total;
    }
    return total;
  }
  // A scalar repeated over a fixed size (a list without one does not take a scalar).
  const int64_t repeats = type.fixedSize().value_or(1);
  const int64_t each = expandedDefaultSize(*type.element(), literal, limit);
  // Both factors are at most limit + 1 here, so the check cannot overflow.
  return each > limit / repeats ? limit + 1 : repeats * each;
}

std::string acceptedSpellings(const Type& type) {
  const TypeKind kind = withoutContainers(type).kind();
  std::string names;
  if (kind == TypeKind::ScalarType) {
    for (const auto& literal : kScalarTypeLiterals) names += str(names.empty() ? "" : ", ", literal.name);
  } else if (kind == TypeKind::Layout || kind == TypeKind::MemoryFormat) {
    for (const auto& constant : namedConstantsOf(kind)) names += str(names.empty() ? "" : ", ", constant.name);
  }
  return names.empty() ? "" : str(" (expected one of: ", names, ")");
}

}  // namespace sy::detail
