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

// Runs `argv` with the child variable set and its output in `log`; its exit status, or -1.
int runChild(const std::vector<std::string>& argv, const std::string& log) {
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
    setenv(kChildVariable, "1", 1);
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

int runCallgrindChild() {
  if (!RUNNING_ON_VALGRIND) return 2;
  const OverheadCells cells = overheadCells();
  for (size_t r = 0; r < cells.rows.size(); ++r) {
    for (size_t c = 0; c < cells.columns.size(); ++c) {
      for (int loops : kLoopCounts) {
        // A named string: the client request reads the label after the statement that takes it.
        const std::string label = cellLabel(r, c, loops);
        cells.run(r, c, 100, [&](const std::function<void()>& call) {
          CALLGRIND_ZERO_STATS;
          CALLGRIND_TOGGLE_COLLECT;
          for (int i = 0; i < loops; ++i) call();
          CALLGRIND_TOGGLE_COLLECT;
          CALLGRIND_DUMP_STATS_AT(label.c_str());
        });
      }
    }
  }
  return 0;
}

absl::StatusOr<std::vector<std::vector<double>>> countInstructionsPerCall() {
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
  const int status = runChild({valgrind, "--tool=callgrind", "--collect-atstart=no",
                               "--callgrind-out-file=" + (dir / "callgrind.out").string(), self.string(), "bench"},
                              log);
  std::filesystem::remove(log);
  const std::map<std::string, double> dumps = readDumps(dir);
  std::filesystem::remove_all(dir, error);
  if (status != 0) {
    return absl::UnavailableError(sy::str("callgrind could not run this build of switchyard (exit status ", status,
                                          "; a sanitizer build cannot run under valgrind)"));
  }
  const OverheadCells cells = overheadCells();
  std::vector<std::vector<double>> per_call(cells.rows.size(), std::vector<double>(cells.columns.size()));
  for (size_t r = 0; r < cells.rows.size(); ++r) {
    for (size_t c = 0; c < cells.columns.size(); ++c) {
      const auto low = dumps.find(cellLabel(r, c, kLoopCounts[0]));
      const auto high = dumps.find(cellLabel(r, c, kLoopCounts[1]));
      if (low == dumps.end() || high == dumps.end()) {
        return absl::UnavailableError(sy::str("callgrind wrote no count for ", cells.rows[r], " ", cells.columns[c]));
      }
      per_call[r][c] = (high->second - low->second) / (kLoopCounts[1] - kLoopCounts[0]);
    }
  }
  return per_call;
}

#else

int runCallgrindChild() { return 2; }

absl::StatusOr<std::vector<std::vector<double>>> countInstructionsPerCall() {
  return absl::UnavailableError("this build has no valgrind/callgrind.h; the times below are all there is");
}

#endif

}  // namespace sy::cli
