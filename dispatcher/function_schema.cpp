#include "switchyard/dispatcher/function_schema.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "switchyard/dispatcher/schema_constants.h"

namespace sy {
namespace {

constexpr size_t kMaxArguments = 64;

bool isLeaf(TypeKind kind) { return kind != TypeKind::List && kind != TypeKind::Optional && kind != TypeKind::Dict; }

std::string_view leafName(TypeKind kind) {
  switch (kind) {
    case TypeKind::Tensor: return "Tensor";
    case TypeKind::Int: return "int";
    case TypeKind::SymInt: return "SymInt";
    case TypeKind::Float: return "float";
    case TypeKind::Bool: return "bool";
    case TypeKind::Str: return "str";
    case TypeKind::Scalar: return "Scalar";
    case TypeKind::ScalarType: return "ScalarType";
    case TypeKind::Device: return "Device";
    case TypeKind::Layout: return "Layout";
    case TypeKind::MemoryFormat: return "MemoryFormat";
    case TypeKind::List:
    case TypeKind::Optional:
    case TypeKind::Dict: break;
  }
  return "<not a leaf>";
}

const Type& withoutOptional(const Type& type) {
  return type.kind() == TypeKind::Optional ? withoutOptional(*type.element()) : type;
}

// The shortest text that reads back as the same double and still looks like a float to the
// parser: "1." rather than "1", "0.5", "1e-05". Fixed notation in the range Python uses it.
std::string formatDouble(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  std::array<char, 64> buffer;
  int significant_digits = 1;
  for (; significant_digits < 17; ++significant_digits) {
    std::snprintf(buffer.data(), buffer.size(), "%.*e", significant_digits - 1, value);
    if (std::strtod(buffer.data(), nullptr) == value) break;
  }
  std::snprintf(buffer.data(), buffer.size(), "%.*e", significant_digits - 1, value);
  const int exponent = std::atoi(std::strchr(buffer.data(), 'e') + 1);
  if (exponent >= -4 && exponent < 16) {
    const int decimals = std::max(significant_digits - 1 - exponent, 0);
    std::snprintf(buffer.data(), buffer.size(), "%.*f", decimals, value);
    std::string fixed = buffer.data();
    return decimals == 0 ? fixed + "." : fixed;
  }
  return buffer.data();
}

std::string quoteString(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\'': out += "\\'"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  return out + "'";
}

void printInt(std::ostream& os, const Type& type, int64_t value) {
  const TypeKind kind = withoutOptional(type).kind();
  // Only enum types print by name: an `int` that happens to equal Mean is still a number.
  if (kind == TypeKind::MemoryFormat || kind == TypeKind::Layout) {
    for (const auto& constant : detail::namedConstantsOf(kind)) {
      if (constant.value == value) {
        os << constant.name;
        return;
      }
    }
  }
  os << value;
}

template <class T, class PrintElement>
void printList(std::ostream& os, const T& elements, PrintElement print_element) {
  os << '[';
  for (size_t i = 0; i < elements.size(); ++i) {
    if (i > 0) os << ", ";
    print_element(elements[i]);
  }
  os << ']';
}

void printDefault(std::ostream& os, const Type& type, const IValue& value) {
  const Type& bare = withoutOptional(type);
  const Type& element = bare.kind() == TypeKind::List ? *bare.element() : bare;
  using Tag = IValue::Tag;
  switch (value.tag()) {
    case Tag::None: os << "None"; return;
    case Tag::Int: printInt(os, bare, value.toInt()); return;
    case Tag::Double: os << formatDouble(value.toDouble()); return;
    case Tag::Bool: os << (value.toBool() ? "True" : "False"); return;
    case Tag::String: os << quoteString(value.toStringRef()); return;
    case Tag::ScalarType: {
      auto literal = detail::scalarTypeLiteral(value.toScalarType());
      if (literal) {
        os << *literal;
      } else {
        os << value.toScalarType();
      }
      return;
    }
    case Tag::IntList:
      printList(os, value.toIntListRef(), [&](int64_t v) { printInt(os, element, v); });
      return;
    case Tag::DoubleList:
      printList(os, value.toDoubleList(), [&](double v) { os << formatDouble(v); });
      return;
    case Tag::BoolList:
      printList(os, value.toBoolList(), [&](bool v) { os << (v ? "True" : "False"); });
      return;
    case Tag::GenericList:
      printList(os, value.toList(), [&](const IValue& v) { printDefault(os, element, v); });
      return;
    default: os << value; return;
  }
}

void printAliasInfo(std::ostream& os, const AliasInfo& alias) {
  if (alias.set.empty()) {
    if (alias.is_write) os << '!';
    return;
  }
  os << '(' << alias.set << (alias.is_write ? "!" : "") << ')';
}

// The annotation belongs right after the leaf, as the parser reads it: "Tensor(a!)[]".
void printType(std::ostream& os, const Type& type, const std::optional<AliasInfo>& alias) {
  switch (type.kind()) {
    case TypeKind::List:
      printType(os, *type.element(), alias);
      os << '[';
      if (type.fixedSize()) os << *type.fixedSize();
      os << ']';
      return;
    case TypeKind::Optional:
      printType(os, *type.element(), alias);
      os << '?';
      return;
    case TypeKind::Dict:
      os << "Dict(";
      printType(os, *type.key(), std::nullopt);
      os << ", ";
      printType(os, *type.element(), alias);
      os << ')';
      return;
    default:
      os << leafName(type.kind());
      if (alias) printAliasInfo(os, *alias);
  }
}

}  // namespace

std::string_view OperatorName::getNamespace() const {
  const size_t separator = name.find("::");
  if (separator == std::string::npos) return {};
  return std::string_view(name).substr(0, separator);
}

TypePtr Type::get(TypeKind leaf) {
  SY_CHECK(isLeaf(leaf), "Type::get takes a leaf kind; use Type::list or Type::optional for containers");
  static const std::array<TypePtr, static_cast<size_t>(TypeKind::List)> leaves = [] {
    std::array<TypePtr, static_cast<size_t>(TypeKind::List)> all;
    for (size_t i = 0; i < all.size(); ++i) {
      all[i] = TypePtr(new Type(static_cast<TypeKind>(i), nullptr, std::nullopt));
    }
    return all;
  }();
  return leaves[static_cast<size_t>(leaf)];
}

TypePtr Type::list(TypePtr element, std::optional<int64_t> fixed_size) {
  SY_CHECK(element != nullptr, "Type::list needs an element type");
  SY_CHECK(!fixed_size || *fixed_size >= 0, "Type::list: negative fixed size ", *fixed_size);
  return TypePtr(new Type(TypeKind::List, std::move(element), fixed_size));
}

TypePtr Type::optional(TypePtr element) {
  SY_CHECK(element != nullptr, "Type::optional needs an element type");
  return TypePtr(new Type(TypeKind::Optional, std::move(element), std::nullopt));
}

TypePtr Type::dict(TypePtr key, TypePtr value) {
  SY_CHECK(key != nullptr && value != nullptr, "Type::dict needs a key type and a value type");
  const TypeKind k = key->kind();
  SY_CHECK(k == TypeKind::Str || k == TypeKind::Int || k == TypeKind::SymInt || k == TypeKind::Bool ||
               k == TypeKind::Float || k == TypeKind::Tensor,
           "a Dict's key type must be str, int, bool, float or Tensor, not ", key->str());
  return TypePtr(new Type(TypeKind::Dict, std::move(value), std::nullopt, std::move(key)));
}

std::string Type::str() const {
  std::ostringstream os;
  printType(os, *this, std::nullopt);
  return os.str();
}

bool Type::matches(const Type& other) const {
  auto canonical = [](TypeKind kind) { return kind == TypeKind::SymInt ? TypeKind::Int : kind; };
  if (canonical(kind_) != canonical(other.kind_)) return false;
  if (kind_ == TypeKind::Dict && !key_->matches(*other.key_)) return false;
  if (element_ == nullptr || other.element_ == nullptr) return element_ == other.element_;
  return element_->matches(*other.element_);
}

bool Type::isTensorLike() const {
  // At most one list level: the dispatcher reads keys from a Tensor, a None, or a flat list.
  const Type* type = &withoutOptional(*this);
  if (type->kind() == TypeKind::List) type = &withoutOptional(*type->element());
  return type->kind() == TypeKind::Tensor;
}

FunctionSchema::FunctionSchema(OperatorName name, std::vector<Argument> arguments, std::vector<Argument> returns)
    : name_(std::move(name)), arguments_(std::move(arguments)), returns_(std::move(returns)) {
  SY_CHECK(arguments_.size() <= kMaxArguments, "Schema of ", name_.toString(), " has ", arguments_.size(),
           " arguments; at most ", kMaxArguments, " are supported");
  for (size_t i = 0; i < arguments_.size(); ++i) {
    const Argument& argument = arguments_[i];
    SY_CHECK(argument.type != nullptr, "Schema of ", name_.toString(), ": argument ", i, " has no type");
    for (size_t j = 0; j < i; ++j) {
      SY_CHECK(argument.name.empty() || arguments_[j].name != argument.name, "Schema of ", name_.toString(),
               ": duplicate argument name '", argument.name, "'");
    }
    if (argument.type->isTensorLike()) tensor_argument_mask_ |= uint64_t{1} << i;
    if (withoutOptional(*argument.type).kind() == TypeKind::Device) device_argument_mask_ |= uint64_t{1} << i;
  }
  returns_aliasing_.reserve(returns_.size());
  for (size_t r = 0; r < returns_.size(); ++r) {
    SY_CHECK(returns_[r].type != nullptr, "Schema of ", name_.toString(), ": return ", r, " has no type");
    const std::optional<AliasInfo>& alias = returns_[r].alias_info;
    int aliased = -1;
    if (alias && !alias->set.empty()) {
      for (size_t i = 0; i < arguments_.size() && aliased < 0; ++i) {
        if (arguments_[i].is_write() && arguments_[i].alias_info->set == alias->set) aliased = static_cast<int>(i);
      }
    }
    returns_aliasing_.push_back(aliased);
  }
}

bool FunctionSchema::is_mutable() const {
  for (const Argument& argument : arguments_) {
    if (argument.is_write()) return true;
  }
  return false;
}

std::optional<size_t> FunctionSchema::argumentIndexWithName(std::string_view name) const {
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (arguments_[i].name == name) return i;
  }
  return std::nullopt;
}

std::string FunctionSchema::toString() const {
  std::ostringstream os;
  os << *this;
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Argument& arg) {
  if (arg.type == nullptr) return os << "<untyped> " << arg.name;
  printType(os, *arg.type, arg.alias_info);
  if (!arg.name.empty()) os << ' ' << arg.name;
  if (arg.default_value) {
    os << '=';
    printDefault(os, *arg.type, *arg.default_value);
  }
  return os;
}

std::ostream& operator<<(std::ostream& os, const FunctionSchema& schema) {
  os << schema.operator_name().toString() << '(';
  bool marked_kwarg_only = false;
  for (size_t i = 0; i < schema.arguments().size(); ++i) {
    const Argument& argument = schema.arguments()[i];
    if (i > 0) os << ", ";
    if (argument.kwarg_only && !marked_kwarg_only) {
      os << "*, ";
      marked_kwarg_only = true;
    }
    os << argument;
  }
  os << ") -> ";
  const auto& returns = schema.returns();
  // A lone return prints bare unless it is named: "-> Tensor" but "-> (Tensor out)".
  if (returns.size() == 1 && returns[0].name.empty()) return os << returns[0];
  os << '(';
  for (size_t i = 0; i < returns.size(); ++i) os << (i > 0 ? ", " : "") << returns[i];
  return os << ')';
}

}  // namespace sy
