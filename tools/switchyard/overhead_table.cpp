#include "switchyard/tools/switchyard/overhead_table.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>

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

std::vector<bench::Column> overheadColumns() { return bench::acosColumns({1}); }

std::string columnLabel(const bench::Column& column) { return column.name.substr(0, column.name.find('/')); }

// `n` calls of `call`, in nanoseconds per call.
double nsPerCall(const std::function<void()>& call, int n) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) call();
  const std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
  return elapsed.count() / n;
}

// The p-th quantile (0..1) of sorted `v`, interpolated.
double quantile(const std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const double at = p * static_cast<double>(v.size() - 1);
  const size_t low = static_cast<size_t>(at);
  const size_t high = std::min(low + 1, v.size() - 1);
  return v[low] + (v[high] - v[low]) * (at - static_cast<double>(low));
}

// A row's extra over base with `decimals` digits after the point: "+12.5", or "~0" when it is within
// `noise` (See Note [The overhead table never shows a negative cost]).
std::string extraText(double extra, double noise, int decimals) {
  if (extra <= noise || extra <= 0) return "~0";
  return absl::StrFormat("+%.*f", decimals, extra);
}

// `text` left-aligned in `width` columns, counting characters rather than UTF-8 bytes ("±").
std::string padded(const std::string& text, size_t width) {
  size_t characters = 0;
  for (char ch : text) characters += (static_cast<unsigned char>(ch) & 0xc0) != 0x80;
  return "  " + text + std::string(width > characters ? width - characters : 0, ' ');
}

// One table: a header, then each row's cells; `cell(r, c)` is the cell's text and `extra(r, c)` its
// extra over base (rows after base only).
std::string formatTable(const OverheadTable& t, const std::string& title,
                        const std::function<std::string(size_t, size_t)>& cell,
                        const std::function<std::string(size_t, size_t)>& extra) {
  std::string out = absl::StrFormat("  %-18s", title);
  for (const std::string& c : t.columns) out += padded(c, 22);
  out.erase(out.find_last_not_of(' ') + 1);
  out += "\n";
  size_t base = t.rows.size();
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (t.rows[r] == "base") base = r;
    out += absl::StrFormat("  %-18s", t.rows[r]);
    for (size_t c = 0; c < t.columns.size(); ++c) {
      const std::string text = cell(r, c);
      out += padded(r > base ? absl::StrFormat("%s (%s)", text, extra(r, c)) : text, 22);
    }
    out.erase(out.find_last_not_of(' ') + 1);
    out += "\n";
  }
  return out;
}

}  // namespace

double medianOf(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return quantile(samples, 0.5);
}

double spreadOf(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return (quantile(samples, 0.75) - quantile(samples, 0.25)) / 2;
}

std::string OverheadTable::format() const {
  size_t base = rows.size();
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r] == "base") base = r;
  }
  std::string out;
  if (instructions) {
    const auto& counts = *instructions;
    out += formatTable(
        *this, "instructions/call", [&](size_t r, size_t c) { return absl::StrFormat("%.0f", counts[r][c]); },
        [&](size_t r, size_t c) { return extraText(counts[r][c] - counts[base][c], 0.5, 0); });
    out += "\n";
  } else if (!instructions_missing.empty()) {
    out += "  instructions/call: not counted (" + instructions_missing + ")\n\n";
  }
  out += formatTable(
      *this, "ns/call",
      [&](size_t r, size_t c) {
        return absl::StrFormat("%.1f ±%.1f", medianOf(ns_samples[r][c]), spreadOf(ns_samples[r][c]));
      },
      [&](size_t r, size_t c) {
        const double extra = medianOf(ns_samples[r][c]) - medianOf(ns_samples[base][c]);
        return extraText(extra, spreadOf(ns_samples[r][c]) + spreadOf(ns_samples[base][c]), 1);
      });
  return out;
}

OverheadCells overheadCells() {
  OverheadCells cells;
  for (const RowToMeasure& row : kRows) cells.rows.push_back(row.label);
  for (const bench::Column& column : overheadColumns()) cells.columns.push_back(columnLabel(column));
  cells.run = [](size_t row, size_t column, int warmup,
                 const std::function<void(const std::function<void()>&)>& measure) {
    // Each row's registrations live only while it is measured.
    bench::RowSetup setup(kRows[row].row);
    std::unique_ptr<bench::RowGuard> guard = setup.enterRowOnThisThread();
    const std::function<void()> call = overheadColumns()[column].make(setup);
    for (int i = 0; i < warmup; ++i) call();  // warm caches and lazy statics
    measure(call);
  };
  return cells;
}

OverheadTable measureOverheadTable(const OverheadProgress& progress, int calls_per_run, int runs) {
  const OverheadCells cells = overheadCells();
  OverheadTable table;
  table.rows = cells.rows;
  table.columns = cells.columns;
  const int rows = static_cast<int>(cells.rows.size());
  table.ns_samples.assign(rows, std::vector<std::vector<double>>(cells.columns.size()));
  const int rounds = std::max(1, runs);
  for (int round = 0; round < rounds; ++round) {
    for (int r = 0; r < rows; ++r) {
      if (progress) progress(round * rows + r, rounds * rows, cells.rows[r]);
      for (size_t c = 0; c < cells.columns.size(); ++c) {
        cells.run(r, c, std::max(1, calls_per_run / 10), [&](const std::function<void()>& call) {
          table.ns_samples[r][c].push_back(nsPerCall(call, calls_per_run));
        });
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

}  // namespace sy::cli
