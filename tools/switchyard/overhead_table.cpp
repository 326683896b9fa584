#include "switchyard/tools/switchyard/overhead_table.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <chrono>
#include <limits>

#include "absl/strings/str_format.h"
#include "overhead_rows.h"

namespace sy::cli {
namespace {

using bench::Row;

struct RowToMeasure {
  Row row;
  const char* label;
};

constexpr RowToMeasure kRows[] = {
    {Row::Direct, "direct"},
    {Row::Base, "base"},
    {Row::PerOpRedispatch, "per-op kernel"},
    {Row::Fallthrough, "fallthrough"},
    {Row::BackendFallback, "backend fallback"},
};

// The fastest of `runs` runs of `calls` calls, per call.
double fastestNsPerCall(const std::function<void()>& call, int calls, int runs) {
  for (int i = 0; i < calls / 10; ++i) call();  // warm caches and lazy statics
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) call();
    const std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count() / calls);
  }
  return best;
}

}  // namespace

OverheadTable measureOverheadTable(const OverheadProgress& progress,
                                   int calls_per_run, int runs) {
  OverheadTable table;
  const std::vector<bench::Column> columns = bench::acosColumns({1});
  for (const bench::Column& column : columns) table.columns.push_back(column.name.substr(0, column.name.find('/')));
  const int rows = static_cast<int>(std::size(kRows));
  for (const RowToMeasure& row : kRows) table.rows.push_back(row.label);
  table.ns_per_call.assign(rows, std::vector<double>(columns.size(), std::numeric_limits<double>::infinity()));
  // Rounds over all rows rather than one row's runs back to back, so that a burst of load from
  // elsewhere on the machine slows one run of every row, not every run of one row.
  const int rounds = std::max(1, runs);
  for (int round = 0; round < rounds; ++round) {
    for (int r = 0; r < rows; ++r) {
      if (progress) progress(round * rows + r, rounds * rows, kRows[r].label);
      // Each row's registrations live only while it is measured.
      bench::RowSetup setup(kRows[r].row);
      std::unique_ptr<bench::RowGuard> guard = setup.enterRowOnThisThread();
      for (size_t c = 0; c < columns.size(); ++c) {
        double& best = table.ns_per_call[r][c];
        best = std::min(best, fastestNsPerCall(columns[c].make(setup), calls_per_run, 2));
      }
    }
  }
  if (progress) progress(rounds * rows, rounds * rows, "");
  return table;
}

OverheadProgress terminalProgress(std::string indent) {
  if (!isatty(STDERR_FILENO)) return {};
  return [indent = std::move(indent)](int done, int total, const std::string& row) {
    std::cerr << "\r" << indent << "measuring " << (done < total ? row : std::string("done")) << " (" << done << "/"
              << total << ")          " << (done == total ? "\r" : "") << std::flush;
  };
}

std::string OverheadTable::format() const {
  std::string out = absl::StrFormat("  %-18s", "ns per call");
  for (const std::string& c : columns) out += absl::StrFormat("  %8s%10s", c, "");
  out += "\n";
  const std::vector<double>* base = nullptr;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r] == "base") base = &ns_per_call[r];
    out += absl::StrFormat("  %-18s", rows[r]);
    for (size_t c = 0; c < columns.size(); ++c) {
      const double ns = ns_per_call[r][c];
      // Rows after base show what their key adds to it.
      if (base != nullptr && base != &ns_per_call[r]) {
        out += absl::StrFormat("  %8.1f (%+7.1f)", ns, ns - (*base)[c]);
      } else {
        out += absl::StrFormat("  %8.1f%10s", ns, "");
      }
    }
    out += "\n";
  }
  return out;
}

}  // namespace sy::cli
