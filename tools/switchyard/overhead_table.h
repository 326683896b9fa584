// The dispatch-overhead table measured on the spot: nanoseconds per call of acos.out and acos on
// a 1-element Float tensor, with nothing between the caller and the kernel (direct), through the
// dispatcher (base), and with one extra dispatch key handled by a per-op kernel, a fallthrough or a
// boxed backend fallback (bench/overhead_rows.h sets each row up). `switchyard bench` prints it,
// and so does `switchyard demo`.
//
//   sy::cli::OverheadTable table = sy::cli::measureOverheadTable([](int done, int total, const std::string& row) {
//     std::cerr << "\rmeasuring " << row << " (" << done << "/" << total << ")";
//   });
//   std::cout << table.format();
//
// Wall-clock times on a shared machine are noisy, so each cell is the fastest of several runs of
// many calls. bench/README.md has the careful version (Google Benchmark and callgrind's instruction
// counts, side by side with PyTorch).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace sy::cli {

struct OverheadTable {
  std::vector<std::string> rows;     // "direct", "base", "per-op kernel", "fallthrough", "backend fallback"
  std::vector<std::string> columns;  // "acos.out", "acos"
  std::vector<std::vector<double>> ns_per_call;  // [row][column]

  // One line per row: each column's time and, below the direct row, its extra over base.
  std::string format() const;
};

using OverheadProgress = std::function<void(int done, int total, const std::string& row)>;

// A progress line on stderr ("<indent>measuring base (3/25)"), rewritten in place; nothing when
// stderr is not a terminal (a log, a test).
OverheadProgress terminalProgress(std::string indent = "");

// `progress(done, total, row)` is called before each row is measured and once at the end. Every
// row is measured in `runs` rounds, each cell keeping its fastest time.
OverheadTable measureOverheadTable(const OverheadProgress& progress = {},
                                   int calls_per_run = 50000, int runs = 5);

}  // namespace sy::cli
