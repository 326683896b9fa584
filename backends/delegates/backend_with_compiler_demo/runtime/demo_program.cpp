#include "switchyard/backends/delegates/backend_with_compiler_demo/runtime/demo_program.h"

#include <cctype>
#include <cstdio>
#include <sstream>

#include "absl/strings/numbers.h"
#include "switchyard/core/error.h"

namespace sy::backend_with_compiler_demo {

std::string_view toString(DemoOp op) {
  switch (op) {
    case DemoOp::Add: return "add";
    case DemoOp::Mul: return "mul";
    case DemoOp::Sin: return "sin";
  }
  return "?";
}

namespace {

std::string floatText(float f) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.9g", static_cast<double>(f));  // 9 digits round-trip a float
  return buffer;
}

// Reads whitespace-separated tokens, each error naming what it was reading.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  absl::StatusOr<std::string_view> token(std::string_view what) {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ == text_.size()) return malformed(sy::str("the text ends where ", what, " should be"));
    const size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  absl::Status keyword(std::string_view expected) {
    absl::StatusOr<std::string_view> t = token(sy::str("'", expected, "'"));
    if (!t.ok()) return t.status();
    if (*t != expected) return malformed(sy::str("expected '", expected, "', found '", *t, "'"));
    return absl::OkStatus();
  }
  // An unsigned integer no larger than `limit`.
  absl::StatusOr<uint64_t> count(std::string_view what, uint64_t limit) {
    absl::StatusOr<std::string_view> t = token(what);
    if (!t.ok()) return t.status();
    uint64_t value = 0;
    if (!absl::SimpleAtoi(absl::string_view(t->data(), t->size()), &value)) {
      return malformed(sy::str(what, " is '", *t, "', not a count"));
    }
    if (value > limit) return malformed(sy::str(what, " is ", value, ", more than the ", limit, " allowed"));
    return value;
  }
  absl::StatusOr<float> number(std::string_view what) {
    absl::StatusOr<std::string_view> t = token(what);
    if (!t.ok()) return t.status();
    float value = 0;
    if (!absl::SimpleAtof(absl::string_view(t->data(), t->size()), &value)) {
      return malformed(sy::str(what, " is '", *t, "', not a number"));
    }
    return value;
  }
  bool atEnd() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return pos_ == text_.size();
  }
  static absl::Status malformed(const std::string& what) {
    return absl::InvalidArgumentError(sy::str("malformed ", kBackendId, " program: ", what));
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

#define DEMO_ASSIGN(lhs, expr)                  \
  auto lhs##_or = (expr);                       \
  if (!lhs##_or.ok()) return lhs##_or.status(); \
  auto lhs = *lhs##_or

#define DEMO_RETURN_IF_ERROR(expr)    \
  if (absl::Status s_ = (expr); !s_.ok()) return s_

// Tracks which slots are defined, for reads before definition and double definitions.
class Slots {
 public:
  explicit Slots(const std::vector<uint64_t>& elements) : elements_(elements), defined_(elements.size(), false) {}
  absl::Status define(uint64_t slot, std::string_view what) {
    DEMO_RETURN_IF_ERROR(exists(slot, what));
    if (defined_[slot]) return Reader::malformed(sy::str(what, " defines slot ", slot, ", which is defined already"));
    defined_[slot] = true;
    return absl::OkStatus();
  }
  absl::Status read(uint64_t slot, std::string_view what, uint64_t elements) {
    DEMO_RETURN_IF_ERROR(exists(slot, what));
    if (!defined_[slot]) return Reader::malformed(sy::str(what, " reads slot ", slot, " before anything defines it"));
    if (elements_[slot] != elements) {
      return Reader::malformed(sy::str(what, " reads slot ", slot, " of ", elements_[slot], " elements where ", elements,
                                       " are needed"));
    }
    return absl::OkStatus();
  }
  absl::Status exists(uint64_t slot, std::string_view what) const {
    if (slot >= elements_.size()) return Reader::malformed(sy::str(what, " names slot ", slot, " of ", elements_.size()));
    return absl::OkStatus();
  }

 private:
  const std::vector<uint64_t>& elements_;
  std::vector<bool> defined_;
};

}  // namespace

std::string DemoProgram::serialize() const {
  std::ostringstream out;
  out << kBackendId << "\nversion " << version << "\nvalues " << slot_elements.size();
  for (uint64_t n : slot_elements) out << " " << n;
  out << "\ninputs " << inputs.size();
  for (uint32_t s : inputs) out << " " << s;
  out << "\nconstants " << constants.size();
  for (const DemoConstant& c : constants) {
    out << " " << c.slot;
    for (float f : c.values) out << " " << floatText(f);
  }
  out << "\ninstructions " << instructions.size() << "\n";
  for (const DemoInstruction& ins : instructions) {
    out << toString(ins.op) << " " << ins.result;
    for (int i = 0; i < operandCount(ins.op); ++i) out << " " << ins.operands[i];
    out << " debug_handle " << ins.debug_handle << "\n";
  }
  out << "outputs " << outputs.size();
  for (uint32_t s : outputs) out << " " << s;
  out << "\n";
  return out.str();
}

absl::StatusOr<DemoProgram> DemoProgram::parse(std::string_view text) {
  Reader r(text);
  DemoProgram p;
  DEMO_RETURN_IF_ERROR(r.keyword(kBackendId));
  DEMO_RETURN_IF_ERROR(r.keyword("version"));
  DEMO_ASSIGN(version, r.count("the version", UINT32_MAX));
  if (version != kVersion) {
    return absl::FailedPreconditionError(sy::str(kBackendId, " program of version ", version, " is incompatible: this ",
                                                 "backend reads version ", kVersion, "; export the program again"));
  }
  DEMO_RETURN_IF_ERROR(r.keyword("values"));
  DEMO_ASSIGN(slots, r.count("the number of slots", kMaxSlots));
  uint64_t total = 0;
  for (uint64_t i = 0; i < slots; ++i) {
    DEMO_ASSIGN(elements, r.count(sy::str("the element count of slot ", i), kMaxElements));
    total += elements;
    if (total > kMaxElements) return Reader::malformed(sy::str("the slots hold more than ", kMaxElements, " elements"));
    p.slot_elements.push_back(elements);
  }
  Slots defined(p.slot_elements);
  DEMO_RETURN_IF_ERROR(r.keyword("inputs"));
  DEMO_ASSIGN(inputs, r.count("the number of inputs", slots));
  for (uint64_t i = 0; i < inputs; ++i) {
    DEMO_ASSIGN(slot, r.count(sy::str("the slot of input ", i), kMaxSlots));
    DEMO_RETURN_IF_ERROR(defined.define(slot, sy::str("input ", i)));
    p.inputs.push_back(static_cast<uint32_t>(slot));
  }
  DEMO_RETURN_IF_ERROR(r.keyword("constants"));
  DEMO_ASSIGN(constants, r.count("the number of constants", slots));
  for (uint64_t i = 0; i < constants; ++i) {
    DemoConstant c;
    DEMO_ASSIGN(slot, r.count(sy::str("the slot of constant ", i), kMaxSlots));
    DEMO_RETURN_IF_ERROR(defined.define(slot, sy::str("constant ", i)));
    c.slot = static_cast<uint32_t>(slot);
    for (uint64_t e = 0; e < p.slot_elements[slot]; ++e) {
      DEMO_ASSIGN(value, r.number(sy::str("element ", e, " of constant ", i)));
      c.values.push_back(value);
    }
    p.constants.push_back(std::move(c));
  }
  DEMO_RETURN_IF_ERROR(r.keyword("instructions"));
  DEMO_ASSIGN(instructions, r.count("the number of instructions", kMaxSlots));
  for (uint64_t i = 0; i < instructions; ++i) {
    const std::string what = sy::str("instruction ", i);
    DEMO_ASSIGN(name, r.token(sy::str("the operation of ", what)));
    DemoInstruction ins;
    if (name == "add") ins.op = DemoOp::Add;
    else if (name == "mul") ins.op = DemoOp::Mul;
    else if (name == "sin") ins.op = DemoOp::Sin;
    else return Reader::malformed(sy::str(what, " is '", name, "'; the operations are add, mul and sin"));
    DEMO_ASSIGN(result, r.count(sy::str("the result slot of ", what), kMaxSlots));
    DEMO_RETURN_IF_ERROR(defined.exists(result, what));
    for (int k = 0; k < operandCount(ins.op); ++k) {
      DEMO_ASSIGN(operand, r.count(sy::str("operand ", k, " of ", what), kMaxSlots));
      DEMO_RETURN_IF_ERROR(defined.read(operand, what, p.slot_elements[result]));
      ins.operands[k] = static_cast<uint32_t>(operand);
    }
    DEMO_RETURN_IF_ERROR(defined.define(result, what));
    ins.result = static_cast<uint32_t>(result);
    DEMO_RETURN_IF_ERROR(r.keyword("debug_handle"));
    DEMO_ASSIGN(handle, r.count(sy::str("the debug handle of ", what), INT64_MAX));
    ins.debug_handle = static_cast<int64_t>(handle);
    p.instructions.push_back(ins);
  }
  DEMO_RETURN_IF_ERROR(r.keyword("outputs"));
  DEMO_ASSIGN(outputs, r.count("the number of outputs", slots));
  for (uint64_t i = 0; i < outputs; ++i) {
    DEMO_ASSIGN(slot, r.count(sy::str("the slot of output ", i), kMaxSlots));
    DEMO_RETURN_IF_ERROR(defined.read(slot, sy::str("output ", i), slot < slots ? p.slot_elements[slot] : 0));
    p.outputs.push_back(static_cast<uint32_t>(slot));
  }
  if (!r.atEnd()) return Reader::malformed("text follows the outputs");
  return p;
}

}  // namespace sy::backend_with_compiler_demo
