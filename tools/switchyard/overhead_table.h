// The dispatch-overhead table measured on the spot: the cost per call of acos.out and acos on a
// 1-element Float tensor, with nothing between the caller and the kernel (direct), through the
// dispatcher (base), and with one extra dispatch key handled by a per-op kernel, a fallthrough or a
// boxed backend fallback (bench/overhead_rows.h sets each row up). `switchyard bench` prints it
// with instruction counts (instruction_counts.h), `switchyard demo` with times only.
//
//   sy::cli::OverheadTable table = sy::cli::measureOverheadTable(sy::cli::terminalProgress(), 50000);
//   std::cout << table.format();
//
// Note [The overhead table never shows a negative cost]
// Wall-clock times on a shared machine are noisy: a burst of load during one row's runs once made
// the fallthrough row 81.5 ns "cheaper" than base. So instruction counts (callgrind's, the same for
// every run) are the headline when they could be measured; each time is the median of several runs
// of many calls, shown with its spread (half the interquartile range); and a row's extra over base
// is shown only when it exceeds the two spreads together, as "~0" otherwise. A row never costs less
// than base (it does what base does and more), so a difference below zero is noise, and no extra,
// of instructions or of time, is ever printed negative.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sy::cli {

struct OverheadTable {
  std::vector<std::string> rows;     // "direct", "base", "per-op kernel", "fallthrough", "backend fallback"
  std::vector<std::string> columns;  // "acos.out", "acos"
  // [row][column]: nanoseconds per call of each run, in the order measured.
  std::vector<std::vector<std::vector<double>>> ns_samples;
  // [row][column]: instructions per call, when counted (instruction_counts.h); otherwise the reason
  // they are missing, printed instead.
  std::optional<std::vector<std::vector<double>>> instructions;
  std::string instructions_missing;

  // The instruction table (or the reason it is missing) and the time table; below base, each cell
  // shows its extra over base. See Note [The overhead table never shows a negative cost].
  std::string format() const;
};

// A sample's median, and half its interquartile range.
double medianOf(std::vector<double> samples);
double spreadOf(std::vector<double> samples);

using OverheadProgress = std::function<void(int done, int total, const std::string& row)>;

// A progress line on stderr ("<indent>measuring base (3/25)"), rewritten in place; nothing when
// stderr is not a terminal (a log, a test).
OverheadProgress terminalProgress(std::string indent = "");

// Times every cell: `runs` rounds over all rows, each timing `calls_per_run` calls per cell (so a
// burst of load slows one run of every row rather than every run of one row). `progress(done,
// total, row)` is called before each row is measured and once at the end.
OverheadTable measureOverheadTable(const OverheadProgress& progress = {}, int calls_per_run = 50000, int runs = 9);

// The rows and columns, in the table's order, and the call each cell makes (for
// instruction_counts.cpp, which runs them under callgrind).
struct OverheadCells {
  std::vector<std::string> rows;
  std::vector<std::string> columns;
  // Sets up `row`, runs `warmup` calls of `column`, then `measure(call)`; the row is torn down after.
  std::function<void(size_t row, size_t column, int warmup, const std::function<void(const std::function<void()>&)>& measure)>
      run;
};
OverheadCells overheadCells();

}  // namespace sy::cli
