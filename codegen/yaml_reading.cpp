#include "switchyard/codegen/yaml_reading.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "yaml-cpp/anchor.h"
#include "yaml-cpp/eventhandler.h"

namespace sy::codegen {

CodegenError errorAt(const YamlSite& site, const std::string& rule, const std::string& detail) {
  return CodegenError(site.str() + ": error: " + rule + ": " + detail);
}

void fail(const YamlSite& site, const std::string& rule, const std::string& detail) { throw errorAt(site, rule, detail); }

YamlSite siteOf(const std::string& file, const YAML::Node& node) { return YamlSite{file, node.Mark().line + 1}; }

namespace {

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::vector<std::string> splitQualified(const std::string& name) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t pos = name.find("::", start);
    parts.push_back(name.substr(start, pos == std::string::npos ? std::string::npos : pos - start));
    if (pos == std::string::npos) return parts;
    start = pos + 2;
  }
}

}  // namespace

Kernel readCppFunction(const std::string& file, const YAML::Node& node, const std::string& rule) {
  const std::string name = scalarText(file, node, rule, "the C++ function's name");
  std::vector<std::string> parts = splitQualified(name);
  for (const std::string& p : parts) {
    if (!isIdentifier(p)) fail(siteOf(file, node), rule, "'" + name + "' is not a C++ function name such as custom::add_out");
  }
  Kernel k;
  k.function = parts.back();
  parts.pop_back();
  // As in ExecuTorch: `native` is inserted after the last namespace; no namespace means sy::native.
  std::string ns;
  for (const std::string& p : parts) ns += (ns.empty() ? "" : "::") + p;
  k.cpp_namespace = (ns.empty() ? std::string("sy") : ns) + "::native";
  k.site = siteOf(file, node);
  return k;
}

namespace {

std::string kindOf(const YAML::Node& node) {
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a map";
  return "empty";
}

// A yaml-cpp mark as a site; the null mark (line -1) of an error with no position is line 1.
YamlSite siteAt(const std::string& file, const YAML::Mark& mark) { return YamlSite{file, mark.line >= 0 ? mark.line + 1 : 1}; }

// Note [Kernel YAML is checked as written before it is read]
// yaml-cpp's node graph keeps a key given twice in one map: a lookup (`entry["op"]`) finds the
// first, iteration visits both, so `arg_meta: {self: [T0, D0], self: [T1, D0]}` kept the second
// without a word, and a second document after `---` was never read at all. These are checked on
// the parser's events, before the graph is built: every map's keys as written, each with its line,
// each once; a key is a plain name (a scalar, or an alias of one), never a list, a map or empty;
// and the file holds one document (YAML::Load reads the first and drops the rest). An alias (`*self_and_out`) is one event however large the node
// it names, so the check is linear in the file's size, as the parse itself is; the maps an anchor
// names are checked once, where they are written. (yaml-cpp bounds the nesting depth itself.)
class WrittenDocumentCheck final : public YAML::EventHandler {
 public:
  explicit WrittenDocumentCheck(const std::string& file) : file_(file) {}

  // Raises the first problem, once the whole text has parsed: a syntax error comes first (an
  // unclosed `{` makes the parser produce an empty key before it finds the error).
  void raiseTheFirstProblem() const {
    if (first_problem_) throw *first_problem_;
  }

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1) {
      problem(siteAt(file_, mark), "kernel YAML",
              "a second YAML document starts here (or text the parser cannot place after the first); a kernel YAML "
              "file is one list of entries");
    }
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark, nullptr); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = scalar_anchors_.find(anchor);
    node(mark, it == scalar_anchors_.end() ? nullptr : &it->second);
  }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, const std::string& value) override {
    if (anchor != YAML::NullAnchor) scalar_anchors_[anchor] = value;
    node(mark, &value);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(mark, nullptr);
    frames_.push_back(Frame{});
  }
  void OnSequenceEnd() override { frames_.pop_back(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(mark, nullptr);
    Frame frame;
    frame.is_map = true;
    frames_.push_back(std::move(frame));
  }
  void OnMapEnd() override { frames_.pop_back(); }

 private:
  struct Frame {
    bool is_map = false;
    bool next_is_key = true;
    std::map<std::string, int> key_lines;
  };

  // A node starts; in a map, nodes alternate key, value. `key_text` is the scalar's text, or null
  // for a list, a map or an empty node.
  void node(const YAML::Mark& mark, const std::string* key_text) {
    if (frames_.empty() || !frames_.back().is_map) return;
    Frame& map = frames_.back();
    const bool is_key = map.next_is_key;
    map.next_is_key = !is_key;
    if (!is_key) return;
    const YamlSite site = siteAt(file_, mark);
    if (key_text == nullptr) return problem(site, "key", "a key must be a name, not a list, a map or empty");
    auto [it, inserted] = map.key_lines.emplace(*key_text, site.line);
    if (!inserted) {
      problem(site, "duplicate key",
              "'" + *key_text + "' is given twice in one map (first at line " + std::to_string(it->second) +
                  "); give each key once");
    }
  }

  void problem(const YamlSite& site, const std::string& rule, const std::string& detail) {
    if (!first_problem_) first_problem_ = errorAt(site, rule, detail);
  }

  const std::string& file_;
  std::optional<CodegenError> first_problem_;
  int documents_ = 0;
  std::vector<Frame> frames_;
  std::map<YAML::anchor_t, std::string> scalar_anchors_;
};

}  // namespace

std::string scalarText(const std::string& file, const YAML::Node& node, const std::string& rule, const std::string& what) {
  if (!node.IsScalar()) fail(siteOf(file, node), rule, what + " must be a single value, not " + kindOf(node));
  return node.Scalar();
}

std::string readYamlFile(const std::string& path, const std::string& display) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) throw CodegenError(display + ": error: cannot open the file");
  if (!std::filesystem::is_regular_file(status)) {
    throw CodegenError(display + ": error: not a regular file (a directory, device or pipe); give the YAML file itself");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CodegenError(display + ": error: cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw CodegenError(display + ": error: cannot read the file");
  return text.str();
}

YAML::Node loadCheckedYaml(const std::string& text, const std::string& file) {
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    WrittenDocumentCheck check(file);
    // The first document, and the start of a second if there is one (never more: yaml-cpp 0.7 may
    // report "another document" forever without reading on, at a token it cannot place, such as a
    // `,` outside any flow collection; upstream fixed LoadAll for it in jbeder/yaml-cpp#1319).
    if (parser.HandleNextDocument(check)) parser.HandleNextDocument(check);
    check.raiseTheFirstProblem();
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail(siteAt(file, e.mark), "YAML syntax", e.msg);
  }
}

}  // namespace sy::codegen
