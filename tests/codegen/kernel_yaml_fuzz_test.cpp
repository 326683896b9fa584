// A bounded mutation fuzz of the kernel YAML reader: thousands of corrupted variants of the
// project's own kernel YAML (backends/devices/cpu/*.yaml, backends/kernels/optimized/optimized.yaml, the fixtures next to
// this file) are parsed as switchyard_codegen parses them, and when one is accepted, generated.
// Every one must be accepted or refused with a CodegenError naming the file and line, never another
// exception, a crash or a long run: under ASan+UBSan (./test.sh) any invalid access fails the run.
// Fixed seed, a fixed number of variants.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "switchyard/codegen/arg_meta.h"
#include "switchyard/codegen/emit.h"
#include "switchyard/codegen/kernel_yaml.h"

namespace sy::codegen {
namespace {

struct YamlSeed {
  std::string name;  // as errors name it: "backends/devices/cpu/unary_ops.yaml"
  std::string text;
  bool owns_operators = false;  // generated with a dispatch key, as backends/devices/cpu/*.yaml is
};

std::vector<YamlSeed> yamlSeeds() {
  const std::filesystem::path root = SWITCHYARD_SOURCE_DIR;
  std::vector<std::filesystem::path> owning, libraries = {root / "backends/kernels/optimized/optimized.yaml"};
  for (const auto& file : std::filesystem::directory_iterator(root / "backends/devices/cpu")) {
    if (file.path().extension() == ".yaml") owning.push_back(file.path());
  }
  for (const auto& file : std::filesystem::directory_iterator(root / "tests/codegen")) {
    if (file.path().extension() != ".yaml") continue;
    const bool owned = file.path().filename() == "owned_ops.yaml" || file.path().filename() == "new_operator.yaml";
    (owned ? owning : libraries).push_back(file.path());
  }
  std::sort(owning.begin(), owning.end());
  std::sort(libraries.begin(), libraries.end());
  std::vector<YamlSeed> seeds;
  for (const auto* list : {&owning, &libraries}) {
    for (const std::filesystem::path& path : *list) {
      std::ifstream in(path);
      std::ostringstream text;
      text << in.rdbuf();
      seeds.push_back(YamlSeed{path.lexically_relative(root).string(), text.str(), list == &owning});
    }
  }
  return seeds;
}

// The schemas `op:` entries resolve against: the operators backends/devices/cpu/*.yaml defines,
// the forms its entries derive included.
SchemaIndex schemasOf(const std::vector<YamlSeed>& seeds) {
  KernelLibrary ops;
  ops.dispatch_key = "CPU";
  for (const YamlSeed& seed : seeds) {
    if (seed.owns_operators && seed.name.rfind("backends/devices/cpu/", 0) == 0) parseKernelYamlText(seed.text, seed.name, {}, ops);
  }
  SchemaIndex index;
  for (const OperatorEntry& op : ops.operators) {
    index.emplace(op.schema.operator_name().toString(), op.schema);
    for (const DerivedForm& form : op.derived) index.emplace(form.schema.operator_name().toString(), form.schema);
  }
  return index;
}

std::vector<size_t> lineStarts(const std::string& text) {
  std::vector<size_t> starts = {0};
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && i + 1 < text.size()) starts.push_back(i + 1);
  }
  return starts;
}

// [begin, end) of the line holding `at`, its newline included.
std::pair<size_t, size_t> lineAround(const std::string& text, size_t at) {
  const size_t begin = at == 0 ? 0 : text.rfind('\n', at - 1) + 1;  // npos + 1 is 0
  const size_t newline = text.find('\n', at);
  return {begin, newline == std::string::npos ? text.size() : newline + 1};
}

// Edits of the kinds that reach the reader's rules: YAML punctuation and the format's own words
// in random places, lines repeated (a key given twice, an entry twice), dropped or moved, and flow
// lists repeated in place (an alias naming its dtypes many times, as in issue 27).
void mutateYaml(std::string& text, std::mt19937_64& rng) {
  static const char* const kTokens[] = {
      "[", "]", "{", "}", ", ", ": ", "- ", "\n", "  ", "&a ", "*a", "? ", "!!str ", "|\n", "'", "\"", "#", "---\n",
      "null", "~", "0", "-1", "63", "64", "99999999999999999999", "1.5", "True", "Float", "Double", "Bool", "Long",
      "Half", "T0", "T1", "D0", "[[0, 1], [1, 0]]", "[T0, D0]", "self", "out", "other", "op: ", "func: ",
      "kernels: ", "arg_meta: ", "kernel_name: ", "type_alias: ", "dim_order_alias: ", "cpp_no_default_args: ",
      "manual_cpp_binding: ", "Tensor(a!)", "Tensor?", "int[]", "*, ", "(", ")", "->", "::", ".out", "_"};
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const size_t at = rng() % text.size();
    const std::vector<size_t> starts = lineStarts(text);
    switch (rng() % 8) {
      case 0: text[at] = "-:[]{},&*!|>'\"#?% \n\t0123456789aT"[rng() % 33]; break;
      case 1: text.insert(at, kTokens[rng() % (sizeof(kTokens) / sizeof(kTokens[0]))]); break;
      case 2: text.erase(at, 1 + rng() % 16); break;
      case 3: {  // a line twice
        auto [begin, end] = lineAround(text, at);
        text.insert(end, text.substr(begin, end - begin));
        break;
      }
      case 4: {  // a line dropped
        auto [begin, end] = lineAround(text, at);
        text.erase(begin, end - begin);
        break;
      }
      case 5: {  // a line copied elsewhere
        auto [begin, end] = lineAround(text, at);
        const std::string line = text.substr(begin, end - begin);
        text.insert(starts[rng() % starts.size()], line);
        break;
      }
      case 6: {  // a flow list's items repeated 2 to 20 times
        const size_t open = text.find('[', at);
        const size_t close = open == std::string::npos ? open : text.find(']', open);
        if (close == std::string::npos || text.find('\n', open) < close) break;
        const std::string items = text.substr(open + 1, close - open - 1);
        std::string repeated = items;
        for (int k = 1 + static_cast<int>(rng() % 19); k > 0; --k) repeated += ", " + items;
        text.replace(open + 1, close - open - 1, repeated);
        break;
      }
      default: text.resize(at); break;  // truncated
    }
  }
}

TEST(KernelYamlFuzz, CorruptedKernelYamlIsAcceptedOrACleanErrorNeverACrash) {
  const std::vector<YamlSeed> seeds = yamlSeeds();
  ASSERT_GE(seeds.size(), 10u);
  const SchemaIndex schemas = schemasOf(seeds);
  ASSERT_GT(schemas.size(), 100u);
  std::mt19937_64 rng(27);
  int accepted = 0, refused = 0;
  std::chrono::steady_clock::duration slowest{};
  for (int i = 0; i < 2000; ++i) {
    const YamlSeed& seed = seeds[rng() % seeds.size()];
    std::string text = seed.text;
    mutateYaml(text, rng);
    KernelLibrary library;
    if (seed.owns_operators) library.dispatch_key = "CPU";
    const auto start = std::chrono::steady_clock::now();
    try {
      parseKernelYamlText(text, seed.name, seed.owns_operators ? SchemaIndex{} : schemas, library);
      size_t keys = 0;
      for (const OperatorEntry& op : library.operators) keys += op.kernels.size();
      EXPECT_LE(keys, static_cast<size_t>(kMaxKernelKeys));
      generate(library, OperatorSelection{});
      ++accepted;
    } catch (const CodegenError& e) {
      ++refused;
      EXPECT_THAT(e.what(), ::testing::MatchesRegex(seed.name + ":[0-9]+: error: .*")) << "variant " << i << ":\n" << text;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "variant " << i << " of " << seed.name << " raised " << e.what() << " instead of a CodegenError:\n" << text;
    }
    const auto took = std::chrono::steady_clock::now() - start;
    slowest = std::max(slowest, took);
    EXPECT_LT(took, std::chrono::seconds(2)) << "variant " << i << " of " << seed.name << ":\n" << text;
  }
  EXPECT_GT(accepted, 100);
  EXPECT_GT(refused, 100);
  std::printf("fuzzed 2000 kernel YAML files: %d accepted, %d refused; the slowest took %lld us\n", accepted, refused,
              static_cast<long long>(std::chrono::duration_cast<std::chrono::microseconds>(slowest).count()));
}

}  // namespace
}  // namespace sy::codegen
