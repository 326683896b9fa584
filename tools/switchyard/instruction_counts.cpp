#include "switchyard/tools/switchyard/instruction_counts.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "switchyard/core/error.h"
#include "switchyard/tools/switchyard/overhead_table.h"

#if SWITCHYARD_HAVE_CALLGRIND_H
#include <valgrind/callgrind.h>
#endif

namespace sy::cli {
namespace {

constexpr const char* kChildVariable = "SWITCHYARD_BENCH_CALLGRIND_CHILD";
constexpr int kLoopCounts[] = {1000, 3000};

std::string cellLabel(size_t row, size_t column, int loops) { return sy::str("switchyard-cell ", row, " ", column, " ", loops); }
[[maybe_unused]] std::string loopLabel(int loops) { return sy::str("switchyard-loop ", loops); }

// The child variable of a loops child: "low,high".
[[maybe_unused]] bool parseLoopCounts(const char* value, int& low, int& high) {
  if (value == nullptr) return false;
  const std::vector<absl::string_view> parts = absl::StrSplit(value, ',');
  return parts.size() == 2 && absl::SimpleAtoi(parts[0], &low) && absl::SimpleAtoi(parts[1], &high) && 0 < low &&
         low < high;
}

// `name` on PATH, or "".
std::string findOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  for (absl::string_view dir : absl::StrSplit(path, ':', absl::SkipEmpty())) {
    const std::string candidate = sy::str(dir, "/", name);
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// Runs `argv` with the child variable set to `value` and its output in `log`; its exit status, or -1.
int runChild(const std::vector<std::string>& argv, const std::string& value, const std::string& log) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
    }
    setenv(kChildVariable, value.c_str(), 1);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Every dump's label and instruction count in `dir`.
std::map<std::string, double> readDumps(const std::filesystem::path& dir) {
  std::map<std::string, double> counts;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    std::ifstream in(entry.path());
    std::string line, label;
    double summary = -1;
    while (std::getline(in, line)) {
      constexpr std::string_view kTrigger = "desc: Trigger: Client Request: ";
      constexpr std::string_view kSummary = "summary: ";
      if (line.rfind(kTrigger, 0) == 0) label = line.substr(kTrigger.size());
      if (line.rfind(kSummary, 0) == 0 && !absl::SimpleAtod(line.substr(kSummary.size()), &summary)) summary = -1;
    }
    if (!label.empty() && summary >= 0) counts[label] = summary;
  }
  return counts;
}

}  // namespace

bool isCallgrindChild() { return std::getenv(kChildVariable) != nullptr; }

#if SWITCHYARD_HAVE_CALLGRIND_H

namespace {

// Runs `loops` iterations of `body` collecting only them, and dumps the count labelled `label`.
template <typename Body>
void collectLoop(const std::string& label, int loops, const Body& body) {
  CALLGRIND_ZERO_STATS;
  CALLGRIND_TOGGLE_COLLECT;
  for (int i = 0; i < loops; ++i) body();
  CALLGRIND_TOGGLE_COLLECT;
  // A named string: the client request reads the label after the statement that takes it.
  CALLGRIND_DUMP_STATS_AT(label.c_str());
}

// Runs `switchyard <child_args>` under callgrind with collection off and the child variable set to
// `value`: the label and instruction count of every dump the child made.
absl::StatusOr<std::map<std::string, double>> runUnderCallgrind(const std::vector<std::string>& child_args,
                                                                const std::string& value) {
  const std::string valgrind = findOnPath("valgrind");
  if (valgrind.empty()) return absl::UnavailableError("valgrind is not installed; the times below are all there is");
  std::error_code error;
  // This executable's own path: under valgrind, /proc/self/exe would name valgrind.
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return absl::UnavailableError(sy::str("cannot find this executable's path: ", error.message()));
  char dir_template[] = "/tmp/switchyard_bench_XXXXXX";
  if (mkdtemp(dir_template) == nullptr) return absl::UnavailableError("cannot make a temporary directory for callgrind");
  const std::filesystem::path dir(dir_template);
  const std::string log = (dir / "valgrind.log").string();
  std::vector<std::string> argv = {valgrind, "--tool=callgrind", "--collect-atstart=no",
                                   "--callgrind-out-file=" + (dir / "callgrind.out").string(), self.string()};
  argv.insert(argv.end(), child_args.begin(), child_args.end());
  const int status = runChild(argv, value, log);
  std::filesystem::remove(log);
  std::map<std::string, double> dumps = readDumps(dir);
  std::filesystem::remove_all(dir, error);
  if (status != 0) {
    return absl::UnavailableError(sy::str("callgrind could not run this build of switchyard (exit status ", status,
                                          "; a sanitizer build cannot run under valgrind)"));
  }
  return dumps;
}

}  // namespace

int runCallgrindChild() {
  if (!RUNNING_ON_VALGRIND) return 2;
  const OverheadCells cells = overheadCells();
  for (size_t r = 0; r < cells.rows.size(); ++r) {
    for (size_t c = 0; c < cells.columns.size(); ++c) {
      for (int loops : kLoopCounts) {
        cells.run(r, c, 100, [&](const std::function<void()>& call) { collectLoop(cellLabel(r, c, loops), loops, call); });
      }
    }
  }
  return 0;
}

absl::StatusOr<std::vector<std::vector<double>>> countInstructionsPerCall() {
  absl::StatusOr<std::map<std::string, double>> dumps = runUnderCallgrind({"bench"}, "cells");
  if (!dumps.ok()) return dumps.status();
  const OverheadCells cells = overheadCells();
  std::vector<std::vector<double>> per_call(cells.rows.size(), std::vector<double>(cells.columns.size()));
  for (size_t r = 0; r < cells.rows.size(); ++r) {
    for (size_t c = 0; c < cells.columns.size(); ++c) {
      const auto low = dumps->find(cellLabel(r, c, kLoopCounts[0]));
      const auto high = dumps->find(cellLabel(r, c, kLoopCounts[1]));
      if (low == dumps->end() || high == dumps->end()) {
        return absl::UnavailableError(sy::str("callgrind wrote no count for ", cells.rows[r], " ", cells.columns[c]));
      }
      per_call[r][c] = (high->second - low->second) / (kLoopCounts[1] - kLoopCounts[0]);
    }
  }
  return per_call;
}

int runLoopsInCallgrindChild(const std::function<bool()>& iteration) {
  int low = 0, high = 0;
  if (!RUNNING_ON_VALGRIND || !parseLoopCounts(std::getenv(kChildVariable), low, high)) return 2;
  if (!iteration()) return 1;
  bool ok = true;
  for (int loops : {low, high}) {
    collectLoop(loopLabel(loops), loops, [&] { ok = ok && iteration(); });
    if (!ok) return 1;
  }
  return 0;
}

absl::StatusOr<double> countInstructionsPerLoop(const std::vector<std::string>& child_args, int low, int high) {
  if (low < 1 || high <= low) return absl::InvalidArgumentError(sy::str("loop counts ", low, " and ", high, " cannot be compared"));
  absl::StatusOr<std::map<std::string, double>> dumps = runUnderCallgrind(child_args, sy::str(low, ",", high));
  if (!dumps.ok()) return dumps.status();
  const auto low_count = dumps->find(loopLabel(low));
  const auto high_count = dumps->find(loopLabel(high));
  if (low_count == dumps->end() || high_count == dumps->end()) {
    return absl::UnavailableError("callgrind wrote no count for the loops");
  }
  return (high_count->second - low_count->second) / (high - low);
}

#else

int runCallgrindChild() { return 2; }
int runLoopsInCallgrindChild(const std::function<bool()>&) { return 2; }

absl::StatusOr<double> countInstructionsPerLoop(const std::vector<std::string>&, int, int) {
  return absl::UnavailableError("this build has no valgrind/callgrind.h; the times below are all there is");
}

absl::StatusOr<std::vector<std::vector<double>>> countInstructionsPerCall() {
  return absl::UnavailableError("this build has no valgrind/callgrind.h; the times below are all there is");
}

#endif

}  // namespace sy::cli
