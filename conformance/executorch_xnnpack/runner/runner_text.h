// runner_text.h: what et_runner.cpp and sy_runner.cpp share, whatever runtime they link: their
// command line, their failure exit, and the text format's elements and scalar lines (the format is
// described at the top of et_runner.cpp). Header-only: the two runners are built by different
// builds (scripts/build_executorch.sh, programs/CMakeLists.txt).
//
//   const runner_text::Args args = runner_text::parseArgs(argc, argv);   // after setting kTool
//   runner_text::writeElements(f, data, numel);                           // " 1.5 2 ..."
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

namespace runner_text {

// The runner's name in its messages ("et_runner", "sy_runner"), which each runner defines.
extern const char* const kTool;

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", kTool, what.c_str());
  std::exit(1);
}

struct Args {
  std::string program, inputs, outputs, method = "forward";
};

// `TOOL PROGRAM.pte --inputs IN.txt --outputs OUT.txt [--method NAME]`; a usage error otherwise.
inline Args parseArgs(int argc, char** argv) {
  const std::string usage = std::string("usage: ") + kTool + " PROGRAM.pte --inputs IN.txt --outputs OUT.txt [--method NAME]";
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--inputs" && has_value) a.inputs = argv[++i];
    else if (arg == "--outputs" && has_value) a.outputs = argv[++i];
    else if (arg == "--method" && has_value) a.method = argv[++i];
    else if (a.program.empty() && arg.rfind("--", 0) != 0) a.program = arg;
    else fail(usage);
  }
  if (a.program.empty()) fail(usage);
  return a;
}

// One element of a tensor as the text writes it ("1", "true" for Bool).
template <class T>
T parseElement(const std::string& text) {
  if constexpr (std::is_same_v<T, bool>) return text == "1" || text == "true";
  else if constexpr (std::is_same_v<T, float>) return std::strtof(text.c_str(), nullptr);
  else if constexpr (std::is_same_v<T, double>) return std::strtod(text.c_str(), nullptr);
  else return static_cast<T>(std::strtoll(text.c_str(), nullptr, 10));
}

// " x0 x1 ...": floats with 9 significant digits and doubles with 17 (both round-trip exactly).
template <class T>
void writeElements(FILE* f, const T* data, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, bool>) std::fprintf(f, " %d", data[i] ? 1 : 0);
    else if constexpr (std::is_same_v<T, float>) std::fprintf(f, " %.9g", static_cast<double>(data[i]));
    else if constexpr (std::is_same_v<T, double>) std::fprintf(f, " %.17g", data[i]);
    else std::fprintf(f, " %" PRId64, static_cast<int64_t>(data[i]));
  }
}

// The line of a non-tensor output (ExecuTorch's EValue and Switchyard's IValue alike).
template <class Value>
void writeScalarLine(FILE* f, const Value& v) {
  if (v.isInt()) std::fprintf(f, "Int - %" PRId64 "\n", static_cast<int64_t>(v.toInt()));
  else if (v.isDouble()) std::fprintf(f, "Double - %.17g\n", v.toDouble());
  else if (v.isBool()) std::fprintf(f, "Bool - %d\n", v.toBool() ? 1 : 0);
  else std::fprintf(f, "None - 0\n");
}

}  // namespace runner_text
