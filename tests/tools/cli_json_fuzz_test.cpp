// A bounded mutation fuzz of the command line's JSON (tools/switchyard/json_text.h, value_json.h):
// valid input documents are mutated (bytes flipped, tokens inserted, spans cut and repeated,
// numbers pushed to their limits, nesting deepened) and each result parsed and read as the
// inputs of a method. Every one must be a value or an absl::Status error, never a crash; under
// ASan+UBSan (./test.sh) any overflow fails the run. What parses must print back to text that
// parses to the same text. Fixed seed, at most two seconds.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "switchyard/core/error.h"
#include "switchyard/tools/switchyard/json_text.h"
#include "switchyard/tools/switchyard/value_json.h"

namespace sy::cli {
namespace {

using nlohmann::json;

struct FuzzDocument {
  std::string text;
  std::vector<ValueInfo> inputs;  // what the method declares, one per entry
};

ValueInfo fuzzInput(const std::string& kind, std::optional<ProgramScalarType> dtype = std::nullopt,
                    std::vector<int64_t> sizes = {}) {
  ValueInfo info;
  info.kind = kind;
  info.dtype = dtype;
  info.sizes = std::move(sizes);
  return info;
}

std::vector<FuzzDocument> fuzzSeedDocuments() {
  return {
      {R"([{"dtype": "Float", "sizes": [2, 2], "data": [1.5, -0.0, NaN, Infinity]},
           {"dtype": "Long", "sizes": [3], "data": [1, -9223372036854775808, 9223372036854775807]}])",
       {fuzzInput("Tensor", ProgramScalarType::Float, {2, 2}), fuzzInput("Tensor", ProgramScalarType::Long, {3})}},
      {R"([{"dtype": "Int", "sizes": [2], "data": [2147483647, -2147483648]}, 3, 2.5e-3, true, [1, 2, 3], "text", null])",
       {fuzzInput("Tensor", ProgramScalarType::Int, {2}), fuzzInput("Int"), fuzzInput("Double"), fuzzInput("Bool"),
        fuzzInput("IntList"), fuzzInput("String"), fuzzInput("None")}},
      {R"([{"dtype": "Bool", "sizes": [1, 3], "data": [true, false, true]},
           {"dtype": "Double", "sizes": [], "data": [-Infinity]}])",
       {fuzzInput("Tensor", ProgramScalarType::Bool, {1, 3}), fuzzInput("Tensor", ProgramScalarType::Double, {})}},
  };
}

// Numbers at and past the limits of the dtypes and of double.
const char* const kFuzzNumbers[] = {"1e999", "1e-999", "18446744073709551615", "18446744073709551616",
                                    "-9223372036854775809", "4294967297", "1.7976931348623157e308", "1e39", "-0"};
const char* const kFuzzTokens[] = {
    "[", "]", "{", "}", ",", ":", "\"", "\\", "\\u", "\\ud800", "NaN", "Infinity", "-Infinity", "-", "0", "1e999",
    "18446744073709551616", "true", "null", "\"dtype\"", "\"sizes\"", "\"data\"", "\xff", "\xc3\x28",
    "\x00", " ", "\n", "[[[[[[[[[[", "]]]]]]]]]]"};

void mutateJson(std::string& text, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits; ++e) {
    const size_t at = text.empty() ? 0 : rng() % (text.size() + 1);
    switch (rng() % 6) {
      case 0:  // flip a bit
        if (at < text.size()) text[at] = static_cast<char>(text[at] ^ (1 << (rng() % 8)));
        break;
      case 1: {  // insert a token
        const char* token = kFuzzTokens[rng() % std::size(kFuzzTokens)];
        text.insert(at, token, std::char_traits<char>::length(token) + (*token == '\0'));
        break;
      }
      case 2:  // cut a span
        text.erase(at, rng() % 8);
        break;
      case 3: {  // repeat a span
        const std::string span = text.substr(at, rng() % 16);
        text.insert(at, span);
        break;
      }
      case 4: {  // wrap what follows in deep nesting
        const size_t depth = rng() % (2 * kMaxJsonDepth);
        text.insert(at, std::string(depth, rng() % 2 ? '[' : '{'));
        break;
      }
      default:  // replace a digit run with a limit
        if (at < text.size() && text[at] >= '0' && text[at] <= '9') {
          size_t end = at;
          while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
          text.replace(at, end - at, kFuzzNumbers[rng() % std::size(kFuzzNumbers)]);
        }
        break;
    }
  }
}

TEST(CliJsonFuzz, MutatedInputDocumentsAreValuesOrErrorsNeverCrashes) {
  const std::vector<FuzzDocument> seeds = fuzzSeedDocuments();
  std::mt19937_64 rng(20250127);
  // A fixed number of documents, not a time budget: the same documents on every machine and build.
  constexpr int kDocuments = 5000;
  int tried = 0, parsed = 0, read = 0;
  for (; tried < kDocuments; ++tried) {
    const FuzzDocument& seed = seeds[rng() % seeds.size()];
    std::string text = seed.text;
    mutateJson(text, rng);
    absl::StatusOr<json> j = parseJson(text, "fuzz");
    if (!j.ok()) {
      ASSERT_FALSE(j.status().message().empty());
      continue;
    }
    ++parsed;
    const std::string printed = dumpJson(*j);
    absl::StatusOr<json> again = parseJson(printed, "fuzz, printed");
    ASSERT_TRUE(again.ok()) << again.status() << "\n" << printed;
    ASSERT_EQ(dumpJson(*again), printed) << text;
    if (!j->is_array()) continue;
    for (size_t i = 0; i < seed.inputs.size() && i < j->size(); ++i) {
      absl::StatusOr<IValue> v = valueFromJson((*j)[i], seed.inputs[i], sy::str("input ", i));
      if (v.ok()) {
        ++read;
        (void)dumpJson(valueToJson(*v));
      } else {
        ASSERT_EQ(v.status().message().rfind(sy::str("input ", i, ": "), 0), 0u) << v.status();
      }
    }
  }
  std::cout << "[ json fuzz ] " << tried << " documents, " << parsed << " parsed, " << read << " inputs read\n";
  EXPECT_GT(parsed, 0);
  EXPECT_GT(read, 0);
}

}  // namespace
}  // namespace sy::cli
