#include "switchyard/dispatcher/schema_lexer.h"

#include <algorithm>

#include "switchyard/core/error.h"

namespace sy::detail {
namespace {

bool isIdentifierStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentifierChar(char c) { return isIdentifierStart(c) || isDigit(c); }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::string describeToken(const SchemaToken& token) {
  switch (token.kind) {
    case SchemaTokenKind::End: return "end of schema";
    case SchemaTokenKind::String: return std::string(token.text);  // already quoted
    default: return str("'", token.text, "'");
  }
}

void throwSchemaParseError(std::string_view schema, size_t offset, std::string_view message) {
  // Line breaks and tabs would push the caret away from the column it names.
  std::string shown(schema);
  std::replace_if(shown.begin(), shown.end(), isSpace, ' ');
  throw Error(str("Schema parse error at column ", offset + 1, ": ", message, "\n  ", shown, "\n  ",
                  std::string(offset, ' '), "^"));
}

const SchemaToken& SchemaLexer::peek() {
  if (!has_lookahead_) {
    lookahead_ = lex();
    has_lookahead_ = true;
  }
  return lookahead_;
}

SchemaToken SchemaLexer::next() {
  peek();
  has_lookahead_ = false;
  if (lookahead_.kind != SchemaTokenKind::End) end_of_last_token_ = lookahead_.offset + lookahead_.text.size();
  return std::move(lookahead_);
}

bool SchemaLexer::nextIf(SchemaTokenKind kind) {
  if (peek().kind != kind) return false;
  next();
  return true;
}

SchemaToken SchemaLexer::token(SchemaTokenKind kind, size_t start, size_t length) {
  position_ = start + length;
  SchemaToken t;
  t.kind = kind;
  t.text = schema_.substr(start, length);
  t.offset = start;
  return t;
}

SchemaToken SchemaLexer::lex() {
  while (position_ < schema_.size() && isSpace(schema_[position_])) ++position_;
  const size_t start = position_;
  if (start == schema_.size()) return token(SchemaTokenKind::End, start, 0);

  const char c = schema_[start];
  const char after = start + 1 < schema_.size() ? schema_[start + 1] : '\0';
  if (isIdentifierStart(c)) {
    size_t end = start + 1;
    while (end < schema_.size() && isIdentifierChar(schema_[end])) ++end;
    return token(SchemaTokenKind::Identifier, start, end - start);
  }
  if (isDigit(c) || (c == '.' && isDigit(after))) return lexNumber(start);
  if (c == '\'' || c == '"') return lexString(start);
  switch (c) {
    case ':':
      if (after == ':') return token(SchemaTokenKind::DoubleColon, start, 2);
      fail(start, "expected '::' but found a single ':'");
    case '-':
      if (after == '>') return token(SchemaTokenKind::Arrow, start, 2);
      return token(SchemaTokenKind::Minus, start, 1);
    case '.': return token(SchemaTokenKind::Dot, start, 1);
    case '(': return token(SchemaTokenKind::LeftParen, start, 1);
    case ')': return token(SchemaTokenKind::RightParen, start, 1);
    case '[': return token(SchemaTokenKind::LeftBracket, start, 1);
    case ']': return token(SchemaTokenKind::RightBracket, start, 1);
    case ',': return token(SchemaTokenKind::Comma, start, 1);
    case '*': return token(SchemaTokenKind::Star, start, 1);
    case '?': return token(SchemaTokenKind::Question, start, 1);
    case '!': return token(SchemaTokenKind::Bang, start, 1);
    case '=': return token(SchemaTokenKind::Equals, start, 1);
    default: break;
  }
  if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
    fail(start, str("unexpected character with code ", static_cast<int>(static_cast<unsigned char>(c))));
  }
  fail(start, str("unexpected character '", std::string_view(&schema_[start], 1), "'"));
}

SchemaToken SchemaLexer::lexNumber(size_t start) {
  size_t end = start;
  auto skipDigits = [&] {
    while (end < schema_.size() && isDigit(schema_[end])) ++end;
  };
  bool is_float = false;
  skipDigits();
  if (end < schema_.size() && schema_[end] == '.') {
    is_float = true;
    ++end;
    skipDigits();
  }
  if (end < schema_.size() && (schema_[end] == 'e' || schema_[end] == 'E')) {
    size_t exponent = end + 1;
    if (exponent < schema_.size() && (schema_[exponent] == '+' || schema_[exponent] == '-')) ++exponent;
    if (exponent < schema_.size() && isDigit(schema_[exponent])) {
      is_float = true;
      end = exponent;
      skipDigits();
    }
  }
  if (end < schema_.size() && (isIdentifierChar(schema_[end]) || schema_[end] == '.')) {
    size_t bad_end = end;
    while (bad_end < schema_.size() && (isIdentifierChar(schema_[bad_end]) || schema_[bad_end] == '.')) ++bad_end;
    fail(start, str("malformed number '", schema_.substr(start, bad_end - start), "'"));
  }
  return token(is_float ? SchemaTokenKind::Float : SchemaTokenKind::Integer, start, end - start);
}

SchemaToken SchemaLexer::lexString(size_t start) {
  const char quote = schema_[start];
  std::string value;
  size_t i = start + 1;
  while (i < schema_.size() && schema_[i] != quote) {
    if (schema_[i] != '\\') {
      value += schema_[i++];
      continue;
    }
    if (i + 1 == schema_.size()) break;
    switch (schema_[i + 1]) {
      case '\\': value += '\\'; break;
      case '\'': value += '\''; break;
      case '"': value += '"'; break;
      case 'n': value += '\n'; break;
      case 't': value += '\t'; break;
      default: fail(i, str("unknown escape sequence '\\", std::string_view(&schema_[i + 1], 1), "' in string"));
    }
    i += 2;
  }
  if (i >= schema_.size() || schema_[i] != quote) fail(start, "unterminated string");
  SchemaToken t = token(SchemaTokenKind::String, start, i + 1 - start);
  t.string_value = std::move(value);
  return t;
}

}  // namespace sy::detail
