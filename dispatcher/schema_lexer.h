// Internal to the schema parser: the tokens of PyTorch's schema language and the error format.
// Not part of the public API; include function_schema.h and call sy::parseSchema instead.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sy::detail {

enum class SchemaTokenKind {
  End,
  Identifier,
  Integer,  // unsigned; a leading '-' is its own token so "->" and "-1" lex without context
  Float,
  String,
  DoubleColon,
  Dot,
  LeftParen,
  RightParen,
  LeftBracket,
  RightBracket,
  Comma,
  Star,
  Question,
  Bang,
  Equals,
  Arrow,
  Minus,
};

struct SchemaToken {
  SchemaTokenKind kind = SchemaTokenKind::End;
  std::string_view text;     // the token as written, quotes included for strings
  size_t offset = 0;         // 0-based byte offset into the schema
  std::string string_value;  // for String: the contents with escapes decoded
};

// "'int'" for a token, "end of schema" at the end: the "found ..." part of error messages.
std::string describeToken(const SchemaToken& token);

// Raises sy::Error in the one format every schema error uses:
//   Schema parse error at column 18: expected ')' but found 'int'
//     aten::f(Tensor a int b) -> Tensor
//                      ^
[[noreturn]] void throwSchemaParseError(std::string_view schema, size_t offset, std::string_view message);

// Tokens on demand, so an error early in the schema is reported before a bad character later on.
class SchemaLexer {
 public:
  explicit SchemaLexer(std::string_view schema) : schema_(schema) {}

  const SchemaToken& peek();
  SchemaToken next();
  bool nextIf(SchemaTokenKind kind);
  // Where the last consumed token ended, to slice the source text of a multi-token construct.
  size_t endOfLastToken() const { return end_of_last_token_; }
  std::string_view schema() const { return schema_; }
  [[noreturn]] void fail(size_t offset, std::string_view message) const {
    throwSchemaParseError(schema_, offset, message);
  }

 private:
  SchemaToken lex();
  SchemaToken lexNumber(size_t start);
  SchemaToken lexString(size_t start);
  SchemaToken token(SchemaTokenKind kind, size_t start, size_t length);

  std::string_view schema_;
  size_t position_ = 0;
  size_t end_of_last_token_ = 0;
  SchemaToken lookahead_;
  bool has_lookahead_ = false;
};

}  // namespace sy::detail
