// Recursive descent over the tokens of schema_lexer.h. Grammar, with `|` for alternatives:
//
//   schema    := opname '(' [ param (',' param)* ] ')' '->' returns
//   opname    := ident '::' ident [ '.' ident ]
//   param     := '*' | type ident [ '=' literal ]
//   returns   := '(' ')' | '(' type [ident] (',' type [ident])* ')' | type [ident]
//   type      := ( leaf [ '(' ident ['!'] ')' | '!' ] | 'Dict' '(' leaf ',' type ')' ) ( '?' | '[' [int] ']' )*
//   literal   := ['-'] number | string | ident | '[' [ literal (',' literal)* ] ']'
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

#include "switchyard/dispatcher/function_schema.h"
#include "switchyard/dispatcher/schema_defaults.h"
#include "switchyard/dispatcher/schema_lexer.h"

namespace sy {
namespace {

using detail::SchemaLexer;
using detail::SchemaLiteral;
using detail::SchemaToken;
using Tok = detail::SchemaTokenKind;

constexpr size_t kMaxArguments = 64;
// Bounds that keep hostile input from exhausting the stack or memory.
constexpr int kMaxListNesting = 16;  // of default value lists, and of '[]' and '?' on a type
constexpr int64_t kMaxFixedListSize = 1024;
// Elements of a default once a scalar is repeated over fixed-size lists (`int[64][64] x=0`).
constexpr int64_t kMaxExpandedDefault = 4096;

std::optional<TypeKind> leafTypeNamed(std::string_view name) {
  static constexpr std::pair<std::string_view, TypeKind> kLeaves[] = {
      {"Tensor", TypeKind::Tensor}, {"int", TypeKind::Int},
      {"SymInt", TypeKind::SymInt}, {"float", TypeKind::Float},
      {"bool", TypeKind::Bool},     {"str", TypeKind::Str},
      {"Scalar", TypeKind::Scalar}, {"ScalarType", TypeKind::ScalarType},
      {"Device", TypeKind::Device}, {"Layout", TypeKind::Layout},
      {"MemoryFormat", TypeKind::MemoryFormat},
  };
  for (const auto& [spelling, kind] : kLeaves) {
    if (spelling == name) return kind;
  }
  return std::nullopt;
}

class SchemaParser {
 public:
  explicit SchemaParser(std::string_view schema) : lexer_(schema) {}

  FunctionSchema parseFullSchema() {
    OperatorName name = parseName();
    std::vector<Argument> arguments = parseArguments();
    expect(Tok::Arrow, "'->'");
    std::vector<Argument> returns = parseReturns();
    expectEnd("end of schema");
    return FunctionSchema(std::move(name), std::move(arguments), std::move(returns));
  }

  OperatorName parseNameOnly() {
    OperatorName name = parseName();
    expectEnd("end of operator name");
    return name;
  }

 private:
  [[noreturn]] void fail(size_t offset, std::string_view message) const { lexer_.fail(offset, message); }

  [[noreturn]] void failExpected(std::string_view what) {
    const SchemaToken& found = lexer_.peek();
    if (found.kind == Tok::End) fail(found.offset, str("unexpected end of schema, expected ", what));
    fail(found.offset, str("expected ", what, " but found ", detail::describeToken(found)));
  }

  SchemaToken expect(Tok kind, std::string_view what) {
    if (lexer_.peek().kind != kind) failExpected(what);
    return lexer_.next();
  }

  void expectEnd(std::string_view what) {
    const SchemaToken& found = lexer_.peek();
    if (found.kind != Tok::End) fail(found.offset, str("expected ", what, " but found ", detail::describeToken(found)));
  }

  OperatorName parseName() {
    const SchemaToken ns = expect(Tok::Identifier, "an operator name");
    if (!lexer_.nextIf(Tok::DoubleColon)) {
      fail(lexer_.peek().offset, str("expected '::' in operator name '", ns.text, "'"));
    }
    const SchemaToken name = expect(Tok::Identifier, "an operator name after '::'");
    OperatorName result{str(ns.text, "::", name.text), ""};
    if (lexer_.nextIf(Tok::Dot)) result.overload_name = std::string(expect(Tok::Identifier, "an overload name").text);
    return result;
  }

  std::vector<Argument> parseArguments() {
    expect(Tok::LeftParen, "'('");
    std::vector<Argument> arguments;
    if (lexer_.nextIf(Tok::RightParen)) return arguments;
    bool kwarg_only = false;
    while (true) {
      const SchemaToken& start = lexer_.peek();
      if (start.kind == Tok::Star) {
        if (kwarg_only) fail(start.offset, "the keyword-only marker '*' appears twice");
        lexer_.next();
        kwarg_only = true;
        expect(Tok::Comma, "',' after '*'");
        continue;
      }
      if (arguments.size() == kMaxArguments) {
        fail(start.offset, str("too many arguments; a schema may have at most ", kMaxArguments));
      }
      size_t name_offset = 0;
      Argument argument = parseArgument(/*is_return=*/false, &name_offset);
      argument.kwarg_only = kwarg_only;
      for (const Argument& previous : arguments) {
        if (previous.name == argument.name) fail(name_offset, str("duplicate argument name '", argument.name, "'"));
      }
      arguments.push_back(std::move(argument));
      if (lexer_.nextIf(Tok::Comma)) continue;
      if (lexer_.nextIf(Tok::RightParen)) return arguments;
      failExpected("')'");
    }
  }

  std::vector<Argument> parseReturns() {
    size_t name_offset = 0;
    if (!lexer_.nextIf(Tok::LeftParen)) return {parseArgument(/*is_return=*/true, &name_offset)};
    std::vector<Argument> returns;
    if (lexer_.nextIf(Tok::RightParen)) return returns;
    while (true) {
      Argument ret = parseArgument(/*is_return=*/true, &name_offset);
      for (const Argument& previous : returns) {
        if (!ret.name.empty() && previous.name == ret.name) {
          fail(name_offset, str("duplicate return name '", ret.name, "'"));
        }
      }
      returns.push_back(std::move(ret));
      if (lexer_.nextIf(Tok::Comma)) continue;
      if (lexer_.nextIf(Tok::RightParen)) return returns;
      failExpected("')'");
    }
  }

  Argument parseArgument(bool is_return, size_t* name_offset) {
    Argument argument;
    argument.type = parseType(&argument.alias_info);
    const SchemaToken& name = lexer_.peek();
    if (name.kind == Tok::Identifier) {
      *name_offset = name.offset;
      argument.name = std::string(lexer_.next().text);
    } else if (!is_return) {
      failExpected("an argument name");
    }
    const SchemaToken& equals = lexer_.peek();
    if (equals.kind == Tok::Equals) {
      if (is_return) fail(equals.offset, "a return cannot have a default value");
      lexer_.next();
      argument.default_value = parseDefault(*argument.type);
    }
    return argument;
  }

  TypePtr parseType(std::optional<AliasInfo>* alias) {
    if (lexer_.peek().kind != Tok::Identifier) failExpected("a type");
    const SchemaToken leaf_token = lexer_.next();
    std::optional<TypeKind> leaf;
    TypePtr type;
    if (leaf_token.text == "Dict" && lexer_.peek().kind == Tok::LeftParen) {
      type = parseDictType(leaf_token);
    } else {
      leaf = leafTypeNamed(leaf_token.text);
      if (!leaf) fail(leaf_token.offset, str("unknown type '", leaf_token.text, "'"));
      type = Type::get(*leaf);
      *alias = parseAliasAnnotation(leaf_token);
    }
    for (int depth = 0;; ++depth) {
      const SchemaToken& suffix = lexer_.peek();
      if ((suffix.kind == Tok::Question || suffix.kind == Tok::LeftBracket) && depth == kMaxListNesting) {
        // Types are printed, compared and destroyed recursively: bound them as default lists are.
        fail(suffix.offset, str("type '", type->str(), "' is nested too deeply (at most ", kMaxListNesting,
                                " '[]' and '?' suffixes)"));
      }
      if (suffix.kind == Tok::Question) {
        if (type->kind() == TypeKind::Optional) fail(suffix.offset, str("type '", type->str(), "' is already optional"));
        lexer_.next();
        type = Type::optional(type);
      } else if (suffix.kind == Tok::LeftBracket) {
        lexer_.next();
        std::optional<int64_t> size;
        if (lexer_.peek().kind == Tok::Integer) size = parseListSize(lexer_.next());
        expect(Tok::RightBracket, "']'");
        type = Type::list(type, size);
      } else {
        break;
      }
    }
    const SchemaToken& misplaced = lexer_.peek();
    if (leaf == TypeKind::Tensor && (misplaced.kind == Tok::LeftParen || misplaced.kind == Tok::Bang)) {
      fail(misplaced.offset, *alias ? "a type takes a single alias annotation"
                                    : "an alias annotation must follow 'Tensor' directly, as in 'Tensor(a!)[]'");
    }
    return type;
  }

  // After 'Dict': "(key, value)". The key is a bare leaf type, the value any type; neither takes an
  // alias annotation.
  TypePtr parseDictType(const SchemaToken& dict_token) {
    if (dict_depth_ == kMaxListNesting) {
      fail(dict_token.offset, str("Dict types are nested too deeply (at most ", kMaxListNesting, ")"));
    }
    ++dict_depth_;
    expect(Tok::LeftParen, "'('");
    const SchemaToken key_token = lexer_.peek();
    std::optional<AliasInfo> key_alias;
    TypePtr key = parseType(&key_alias);
    const TypeKind k = key->kind();
    if (k != TypeKind::Str && k != TypeKind::Int && k != TypeKind::SymInt && k != TypeKind::Bool &&
        k != TypeKind::Float && k != TypeKind::Tensor) {
      fail(key_token.offset, str("a Dict's key type must be str, int, bool, float or Tensor, not '", key->str(), "'"));
    }
    if (key_alias) fail(key_token.offset, "a Dict's key type takes no alias annotation");
    expect(Tok::Comma, "',' between a Dict's key and value types");
    const SchemaToken value_token = lexer_.peek();
    std::optional<AliasInfo> value_alias;
    TypePtr value = parseType(&value_alias);
    if (value_alias) fail(value_token.offset, "a Dict's value type takes no alias annotation");
    expect(Tok::RightParen, "')' to close the Dict type");
    --dict_depth_;
    return Type::dict(std::move(key), std::move(value));
  }

  std::optional<AliasInfo> parseAliasAnnotation(const SchemaToken& leaf_token) {
    const SchemaToken& start = lexer_.peek();
    if (start.kind != Tok::LeftParen && start.kind != Tok::Bang) return std::nullopt;
    if (leaf_token.text != "Tensor") {
      fail(start.offset, str("alias annotations are only allowed on Tensor, not on '", leaf_token.text, "'"));
    }
    if (lexer_.nextIf(Tok::Bang)) return AliasInfo{"", true};
    lexer_.next();
    AliasInfo alias{std::string(expect(Tok::Identifier, "an alias set name").text), false};
    alias.is_write = lexer_.nextIf(Tok::Bang);
    if (lexer_.peek().kind == Tok::Arrow) fail(lexer_.peek().offset, "alias wildcards ('a -> *') are not supported");
    expect(Tok::RightParen, "')' to close the alias annotation");
    return alias;
  }

  int64_t parseListSize(const SchemaToken& token) {
    int64_t size = 0;
    const auto [end, error] = std::from_chars(token.text.data(), token.text.data() + token.text.size(), size);
    if (error != std::errc() || size > kMaxFixedListSize) {
      fail(token.offset, str("list size ", token.text, " is too large (at most ", kMaxFixedListSize, ")"));
    }
    if (size == 0) fail(token.offset, "list size must be positive");
    return size;
  }

  IValue parseDefault(const Type& type) {
    const size_t begin = lexer_.peek().offset;
    const SchemaLiteral literal = parseLiteral(/*depth=*/0);
    const std::string_view written = lexer_.schema().substr(begin, lexer_.endOfLastToken() - begin);
    if (detail::expandedDefaultSize(type, literal, kMaxExpandedDefault) > kMaxExpandedDefault) {
      fail(begin, str("default value ", written, " of type ", type.str(), " expands to more than ", kMaxExpandedDefault,
                      " elements; write the list out or declare fewer elements"));
    }
    std::optional<IValue> value = detail::fitDefault(type, literal);
    if (!value) {
      fail(begin, str("default value ", written, " does not fit type ", type.str(), detail::acceptedSpellings(type)));
    }
    return std::move(*value);
  }

  SchemaLiteral parseLiteral(int depth) {
    SchemaLiteral literal;
    // Copied out: the token behind peek() is replaced by the next call to next().
    const size_t start = lexer_.peek().offset;
    switch (lexer_.peek().kind) {
      case Tok::Minus: {
        lexer_.next();
        const SchemaToken& number = lexer_.peek();
        if (number.kind == Tok::Integer) return integerLiteral(lexer_.next(), start, /*negative=*/true);
        if (number.kind != Tok::Float && !(number.kind == Tok::Identifier && number.text == "inf")) {
          failExpected("a number after '-'");
        }
        literal = parseLiteral(depth);
        literal.float_value = -literal.float_value;
        return literal;
      }
      case Tok::Integer: return integerLiteral(lexer_.next(), start, /*negative=*/false);
      case Tok::Float: {
        const SchemaToken token = lexer_.next();
        literal.kind = SchemaLiteral::Kind::Float;
        literal.float_value = std::strtod(std::string(token.text).c_str(), nullptr);
        if (std::isinf(literal.float_value)) fail(token.offset, str("float ", token.text, " is out of range"));
        return literal;
      }
      case Tok::String:
        literal.kind = SchemaLiteral::Kind::String;
        literal.text = lexer_.next().string_value;
        return literal;
      case Tok::Identifier: {
        const std::string_view name = lexer_.next().text;
        if (name == "None") return literal;
        if (name == "True" || name == "False") {
          literal.kind = SchemaLiteral::Kind::Bool;
          literal.bool_value = name == "True";
        } else if (name == "inf" || name == "nan") {
          literal.kind = SchemaLiteral::Kind::Float;
          literal.float_value = name == "inf" ? std::numeric_limits<double>::infinity()
                                              : std::numeric_limits<double>::quiet_NaN();
        } else {
          literal.kind = SchemaLiteral::Kind::Identifier;
          literal.text = std::string(name);
        }
        return literal;
      }
      case Tok::LeftBracket: {
        if (depth == kMaxListNesting) fail(start, "default value lists are nested too deeply");
        lexer_.next();
        literal.kind = SchemaLiteral::Kind::List;
        if (lexer_.nextIf(Tok::RightBracket)) return literal;
        while (true) {
          literal.elements.push_back(parseLiteral(depth + 1));
          if (lexer_.nextIf(Tok::Comma)) continue;
          if (lexer_.nextIf(Tok::RightBracket)) return literal;
          failExpected("']'");
        }
      }
      default: failExpected("a default value");
    }
  }

  // The lexer hands over digits without the sign; the sign decides the bound, so
  // -9223372036854775808 is accepted while 9223372036854775808 is not.
  SchemaLiteral integerLiteral(const SchemaToken& digits, size_t start, bool negative) {
    uint64_t magnitude = 0;
    const auto [end, error] = std::from_chars(digits.text.data(), digits.text.data() + digits.text.size(), magnitude);
    const uint64_t limit = uint64_t{std::numeric_limits<int64_t>::max()} + (negative ? 1 : 0);
    if (error != std::errc() || magnitude > limit) {
      fail(start, str("integer ", negative ? "-" : "", digits.text, " is out of range for int"));
    }
    SchemaLiteral literal;
    literal.kind = SchemaLiteral::Kind::Int;
    literal.int_value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return literal;
  }

  SchemaLexer lexer_;
  int dict_depth_ = 0;  // Dict types being parsed, one inside another
};

}  // namespace

FunctionSchema parseSchema(std::string_view text) { return SchemaParser(text).parseFullSchema(); }

OperatorName parseOperatorName(std::string_view text) { return SchemaParser(text).parseNameOnly(); }

}  // namespace sy
