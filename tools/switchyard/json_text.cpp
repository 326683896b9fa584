#include "switchyard/tools/switchyard/json_text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "switchyard/core/error.h"

namespace sy::cli {
namespace {

using nlohmann::json;

// See Note [The command line parses JSON with a depth bound].
class Parser {
 public:
  Parser(std::string_view text, std::string_view where) : text_(text), where_(where) {}

  absl::StatusOr<json> parse() {
    json root;
    std::vector<json*> open;  // the lists and objects being filled, innermost last
    std::string key;          // in an object: the key of the value read next
    enum class Expect { kValue, kValueOrClose, kKeyOrClose, kKey, kColon, kCommaOrClose } expect = Expect::kValue;
    // Puts a value where the text has it: the root, the next item of a list, or the member `key`.
    auto place = [&](json value) -> json* {
      if (open.empty()) {
        root = std::move(value);
        return &root;
      }
      json& container = *open.back();
      if (container.is_array()) {
        container.push_back(std::move(value));
        return &container.back();
      }
      json& member = container[key];
      member = std::move(value);
      return &member;
    };
    while (true) {
      skipSpace();
      if (pos_ == text_.size()) {
        if (open.empty() && expect == Expect::kCommaOrClose) return root;
        return error(pos_ == 0 ? "there is no value" : "the text ends before the value does");
      }
      const char c = text_[pos_];
      switch (expect) {
        case Expect::kValueOrClose:
          if (c == ']') {
            ++pos_;
            open.pop_back();
            expect = Expect::kCommaOrClose;
            break;
          }
          [[fallthrough]];
        case Expect::kValue:
          if (c == '[' || c == '{') {
            if (open.size() >= kMaxJsonDepth) {
              return error(sy::str("lists and objects are nested deeper than ", kMaxJsonDepth, " levels"));
            }
            open.push_back(place(c == '[' ? json::array() : json::object()));
            ++pos_;
            expect = c == '[' ? Expect::kValueOrClose : Expect::kKeyOrClose;
          } else {
            absl::StatusOr<json> value = scalar();
            if (!value.ok()) return value.status();
            place(std::move(*value));
            expect = Expect::kCommaOrClose;
          }
          break;
        case Expect::kKeyOrClose:
          if (c == '}') {
            ++pos_;
            open.pop_back();
            expect = Expect::kCommaOrClose;
            break;
          }
          [[fallthrough]];
        case Expect::kKey: {
          if (c != '"') return error("expected a member name in double quotes");
          absl::StatusOr<json> name = string();
          if (!name.ok()) return name.status();
          key = name->get<std::string>();
          expect = Expect::kColon;
          break;
        }
        case Expect::kColon:
          if (c != ':') return error("expected ':' after the member name");
          ++pos_;
          expect = Expect::kValue;
          break;
        case Expect::kCommaOrClose: {
          if (open.empty()) return error("unexpected text after the value");
          const bool in_list = open.back()->is_array();
          if (c == ',') {
            ++pos_;
            expect = in_list ? Expect::kValue : Expect::kKey;
          } else if (c == (in_list ? ']' : '}')) {
            ++pos_;
            open.pop_back();
          } else {
            return error(in_list ? "expected ',' or ']'" : "expected ',' or '}'");
          }
          break;
        }
      }
    }
  }

 private:
  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  // "inputs file 'x.json': invalid JSON at line 2, column 7: <what>"
  absl::Status error(std::string_view what) const {
    size_t line = 1;
    size_t column = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return absl::InvalidArgumentError(sy::str(where_, ": invalid JSON at line ", line, ", column ", column, ": ", what));
  }

  bool consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  absl::StatusOr<json> scalar() {
    const char c = text_[pos_];
    if (c == '"') return string();
    if (consume("true")) return json(true);
    if (consume("false")) return json(false);
    if (consume("null")) return json(nullptr);
    if (consume("NaN")) return json(std::numeric_limits<double>::quiet_NaN());
    if (consume("Infinity")) return json(std::numeric_limits<double>::infinity());
    if (consume("-Infinity")) return json(-std::numeric_limits<double>::infinity());
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    return error(sy::str("unexpected character '", printable(c), "'"));
  }

  static std::string printable(char c) {
    if (c >= 0x20 && c < 0x7f) return std::string(1, c);
    return sy::str("\\x", "0123456789abcdef"[(c >> 4) & 0xf], "0123456789abcdef"[c & 0xf]);
  }

  // A string token, its escapes and UTF-8 checked by nlohmann (a string holds no nesting).
  absl::StatusOr<json> string() {
    size_t end = pos_ + 1;
    while (end < text_.size() && text_[end] != '"') end += text_[end] == '\\' ? 2 : 1;
    if (end >= text_.size()) return error("a string is not closed");
    const std::string_view token = text_.substr(pos_, end + 1 - pos_);
    json value = json::parse(token.begin(), token.end(), nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded()) return error("invalid string (a bad escape, a control character or invalid UTF-8)");
    pos_ = end + 1;
    return value;
  }

  static bool isDigit(char c) { return c >= '0' && c <= '9'; }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  absl::StatusOr<json> number() {
    const size_t start = pos_;
    size_t i = pos_;
    auto digits = [&] {
      const size_t from = i;
      while (i < text_.size() && isDigit(text_[i])) ++i;
      return i > from;
    };
    if (text_[i] == '-') ++i;
    if (i < text_.size() && text_[i] == '0') {
      ++i;
    } else if (!digits()) {
      return error("a number needs digits");
    }
    bool integer = true;
    if (i < text_.size() && text_[i] == '.') {
      ++i;
      integer = false;
      if (!digits()) return error("a number needs digits after its '.'");
    }
    if (i < text_.size() && (text_[i] == 'e' || text_[i] == 'E')) {
      ++i;
      integer = false;
      if (i < text_.size() && (text_[i] == '+' || text_[i] == '-')) ++i;
      if (!digits()) return error("a number needs digits in its exponent");
    }
    pos_ = i;
    const char* first = text_.data() + start;
    const char* last = text_.data() + i;
    if (integer) {
      if (*first == '-') {
        int64_t v = 0;
        if (std::from_chars(first, last, v).ec == std::errc()) return json(v);
      } else {
        uint64_t v = 0;
        if (std::from_chars(first, last, v).ec == std::errc()) return json(v);
      }
      // Too large for 64 bits: a double, as in nlohmann's own parser.
    }
    double v = 0;
    const std::from_chars_result r = std::from_chars(first, last, v);
    if (r.ec == std::errc::result_out_of_range) {
      // strtod says which way: an infinity for 1e999, zero for 1e-999 (Python's json reads them so).
      v = std::strtod(std::string(first, last).c_str(), nullptr);
    } else if (r.ec != std::errc()) {
      return error("unreadable number");
    }
    return json(v);
  }

  std::string_view text_;
  std::string_view where_;
  size_t pos_ = 0;
};

void dumpTo(const json& value, std::string& out) {
  switch (value.type()) {
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const json& item : value) {
        if (!first) out += ',';
        first = false;
        dumpTo(item, out);
      }
      out += ']';
      return;
    }
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out += ',';
        first = false;
        out += json(it.key()).dump(-1, ' ', false, json::error_handler_t::replace);
        out += ':';
        dumpTo(it.value(), out);
      }
      out += '}';
      return;
    }
    case json::value_t::number_float: {
      const double d = value.get<double>();
      if (std::isnan(d)) {
        out += "NaN";
      } else if (std::isinf(d)) {
        out += d > 0 ? "Infinity" : "-Infinity";
      } else {
        out += value.dump();  // the shortest digits that read back to `d`
      }
      return;
    }
    default:
      out += value.dump(-1, ' ', false, json::error_handler_t::replace);
      return;
  }
}

}  // namespace

absl::StatusOr<json> parseJson(std::string_view text, std::string_view where) { return Parser(text, where).parse(); }

std::string dumpJson(const json& value) {
  std::string out;
  dumpTo(value, out);  // recursion is bounded: See Note [The command line parses JSON with a depth bound]
  return out;
}

std::string jsonExcerpt(const json& value, size_t max_chars) {
  std::string text = dumpJson(value);
  if (text.size() <= max_chars) return text;
  const size_t total = text.size();
  text.resize(max_chars);
  return sy::str(text, "... (", total, " characters)");
}

}  // namespace sy::cli
