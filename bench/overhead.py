#!/usr/bin/env python3
"""Runs the dispatch-overhead and program benchmarks and prints their tables (see bench/README.md).

Every row runs in its own process, under Google Benchmark (ns per call, median of repetitions)
and under callgrind (instructions per call: each column is run with two loop counts and the
difference divided by the difference in calls, so start-up and warm-up cancel). The program
benchmark (program_bench, next to overhead_bench unless --program-binary says otherwise) is
measured the same way, per executed instruction, and its method row also under memcheck, whose
heap-allocation totals for two loop counts give the allocations per execute().

  bench/overhead.py --binary build/release/bench/overhead_bench          # full tables
  bench/overhead.py --binary ... --callgrind-only --check                 # targets only, exit 1 on a miss
  bench/overhead.py --binary ... --callgrind-only --check --targets-only  # ./test.sh: only the cells they read
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

ROWS = ["direct", "base", "perop_redispatch", "perop_exclude", "fallthrough", "fallback", "fallback_reading",
        "partial_decline", "partial_exact", "no_grad"]
COLUMNS = ["acos.out/1", "acos.out/64", "acos/1", "acos/64", "add.out/1", "noop"]
LOOP_COUNTS = (1000, 3000)

# (id, description, row, reference, column, limit): the measured extra instructions of `row` over
# `reference` must be at most `limit`; a target without a column holds in every column, and a
# limit of 0 there means exactly free (fallthrough, autograd under NoGradGuard). A target without a
# reference bounds the row's whole count (the kernel's cost included).
TARGETS = [
    ("acos_out_call", "acos.out on one element through the dispatcher, kernel included", "base", None,
     "acos.out/1", 300),
    ("add_out_call", "add.out on one element (Float, alpha 1) through the dispatcher, kernel included", "base", None,
     "add.out/1", 400),
    ("dispatcher", "base minus direct, acos.out (the dispatcher's own cost)", "base", "direct", "acos.out/1", 25),
    ("fallthrough", "fallthrough minus base, every column (exactly 0)", "fallthrough", "base", None, 0),
    ("no_grad", "tensors requiring grad under NoGradGuard minus base, every column (exactly 0)", "no_grad", "base",
     None, 0),
    ("perop", "per-op kernel with redispatch minus base, acos.out", "perop_redispatch", "base", "acos.out/1", 15),
    ("fallback_out", "backend fallback minus base, acos.out", "fallback", "base", "acos.out/1", 100),
    ("fallback_functional", "backend fallback minus base, acos (two dispatches)", "fallback", "base", "acos/1", 200),
    # The selector is a kernel with state, so its calls are counted in flight (about 23 instructions;
    # see Note [Reclaiming retired kernels]); the decision itself is one key comparison.
    ("partial_decline", "partial kernels declining to CPU minus base, acos.out", "partial_decline", "base",
     "acos.out/1", 100),
]


def run_under_valgrind(tool_args, command, pattern, what):
    """Runs `command` under valgrind and returns (the integer `pattern` finds in its report, stdout)."""
    result = subprocess.run(["valgrind"] + tool_args + command, capture_output=True, text=True, check=True)
    match = re.search(pattern, result.stderr)
    if not match:
        sys.exit(f"no valgrind total for {what}:\n{result.stderr}")
    return int(match.group(1).replace(",", "")), result.stdout


def collected_instructions(command, what):
    return run_under_valgrind(["--tool=callgrind", "--collect-atstart=no", "--callgrind-out-file=/dev/null"],
                              command, r"Collected : (\d+)", what)


def callgrind_instructions(binary, row, column, iterations):
    command = [binary, f"--row={row}", f"--callgrind_column={column}", f"--iterations={iterations}"]
    return collected_instructions(command, f"{row} {column}")[0]


def instructions_per_call(binary, row, column):
    low, high = (callgrind_instructions(binary, row, column, n) for n in LOOP_COUNTS)
    return (high - low) / (LOOP_COUNTS[1] - LOOP_COUNTS[0])


def target_cells(targets):
    """The (row, column) cells the targets compare, and nothing else."""
    cells = []
    for _, _, row, reference, column, _ in targets:
        for c in (COLUMNS if column is None else [column]):
            cells += [cell for cell in ((row, c), (reference, c)) if cell not in cells and cell[0] is not None]
    return cells


def measure_instructions(binary, jobs, rows=ROWS, columns=COLUMNS, cells=None):
    cells = cells or [(row, column) for row in rows for column in columns]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        counts = pool.map(lambda cell: instructions_per_call(binary, *cell), cells)
        return dict(zip(cells, counts))


def measure_times(binary, repetitions, min_time, rows=ROWS):
    times = {}
    for row in rows:
        result = subprocess.run(
            [binary, f"--row={row}", f"--benchmark_repetitions={repetitions}",
             "--benchmark_report_aggregates_only=true", "--benchmark_format=json",
             f"--benchmark_min_time={min_time}"],
            capture_output=True, text=True, check=True)
        for bench in json.loads(result.stdout)["benchmarks"]:
            if bench.get("aggregate_name") == "median":
                times[(row, bench["run_name"])] = bench["real_time"]
    return times


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    out = [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    return "\n".join(out + [line(r) for r in rows])


def measure_program_times(binary, repetitions, min_time):
    result = subprocess.run(
        [binary, f"--benchmark_repetitions={repetitions}", "--benchmark_report_aggregates_only=true",
         "--benchmark_format=json", f"--benchmark_min_time={min_time}"],
        capture_output=True, text=True, check=True)
    # program_bench counts executed instructions as items: ns per instruction from their rate.
    return {bench["run_name"]: 1e9 / bench["items_per_second"]
            for bench in json.loads(result.stdout)["benchmarks"] if bench.get("aggregate_name") == "median"}


def print_program_times(times):
    print("\nProgram benchmark, time per executed instruction (Google Benchmark, median):\n")
    print(table(["row", "what", "time"],
                [[row, PROGRAM_ROW_NAMES[row], f"{times[row]:.1f} ns"] for row in PROGRAM_ROWS if row in times]))


def print_time_table(times, row_names=ROWS):
    print("\nTime per call (Google Benchmark, median), in the form of PyTorch's note:\n")
    rows = []
    for row in row_names:
        cells = [row]
        for column in COLUMNS:
            value, base = times.get((row, column)), times.get(("base", column))
            if value is None:
                cells.append("-")
            elif row in ("base", "direct"):
                cells.append(f"{value:.1f} ns")
            else:
                cells.append(f"base {'+' if value >= base else '-'} {abs(value / base - 1) * 100:.1f}%")
        rows.append(cells)
    print(table(["row"] + COLUMNS, rows))
    one = times.get(("base", "acos.out/1/threads/real_time/threads:1"))
    two = times.get(("base", "acos.out/1/threads/real_time/threads:2"))
    if one and two:
        # With several threads Google Benchmark divides wall time by the calls of all threads.
        print(f"\nSame call from 2 threads (base row, acos.out/1): {one:.1f} ns per call with 1 thread, "
              f"{two:.1f} ns of wall time per call with 2 (throughput x{one / two:.2f})")


def print_instruction_tables(counts):
    """The tables of every measured cell; with --targets-only the cells no target reads print as -."""
    def cell(row, c, text):
        return text() if all(k in counts for k in ((row, c), ("base", c), ("direct", c))) else "-"
    print("\nInstructions per call (callgrind):\n")
    print(table(["row"] + COLUMNS, [[row] + [f"{counts[(row, c)]:.0f}" if (row, c) in counts else "-" for c in COLUMNS]
                                    for row in ROWS]))
    print("\nExtra instructions per call over base / over direct:\n")
    rows = []
    for row in ROWS:
        rows.append([row] + [cell(row, c, lambda: f"{counts[(row, c)] - counts[('base', c)]:+.0f} / "
                                                   f"{counts[(row, c)] - counts[('direct', c)]:+.0f}")
                             for c in COLUMNS])
    print(table(["row"] + COLUMNS, rows))


# libtorch loads slowly under valgrind, so the PyTorch comparison measures only what the targets use.
TORCH_ROWS = ["direct", "base", "perop_redispatch", "fallthrough", "fallback"]
# PyTorch's fallbacks always box, so torch_overhead_bench has no fallback_reading row.
# Partial kernels (see Note [Partial kernels decline for one key check]) and the no_grad row have no
# PyTorch counterpart here.
TORCH_TIME_ROWS = [row for row in ROWS if row not in ("fallback_reading", "no_grad") and not row.startswith("partial")]
TORCH_COLUMNS = ["acos.out/1", "acos/1"]


def print_torch_comparison(ours, torch_counts):
    print("\nSwitchyard vs PyTorch (libtorch), extra instructions per call:\n")
    rows = []
    for target_id, description, row, reference, column, limit in TARGETS:
        if row not in TORCH_ROWS or reference is None:
            continue
        for c in ([column] if column else TORCH_COLUMNS):
            theirs = torch_counts[(row, c)] - torch_counts[(reference, c)]
            mine = ours[(row, c)] - ours[(reference, c)]
            rows.append([f"{row} - {reference}", c, f"{theirs:+.0f}", f"{mine:+.0f}",
                         f"{theirs / mine:.1f}x" if mine > 0 else "-"])
    print(table(["rows", "column", "PyTorch", "Switchyard", "ratio"], rows))


def evaluate_targets(counts):
    results = []
    for target_id, description, row, reference, column, limit in TARGETS:
        columns = COLUMNS if column is None else [column]
        extra = [counts[(row, c)] - (counts[(reference, c)] if reference else 0) for c in columns]
        if column is None:
            measured, ok = max(extra, key=abs), all(abs(e) <= limit for e in extra)
        else:
            measured, ok = extra[0], extra[0] <= limit
        results.append((target_id, description, measured, limit, ok))
    print("\nTargets (extra instructions per call; PyTorch 1.13 figures in bench/README.md):\n")
    print(table(["target", "what", "measured", "limit", "result"],
                [[t, d, f"{m:+.0f}", l, "met" if ok else "MISSED"] for t, d, m, l, ok in results]))
    return results


# ---- The program benchmark (bench/program_bench.cpp) -----------------------------------------

PROGRAM_ROWS = ["direct", "dispatcher", "method"]
PROGRAM_ROW_NAMES = {
    "direct": "add.out kernel called directly (the floor)",
    "dispatcher": "through the dispatcher (sy::ops::add_out)",
    "method": "through Method::execute()",
}
# Memcheck runs about 30 times slower than the program: fewer executions suffice to count.
ALLOCATION_LOOP_COUNTS = (100, 300)
# (id, description, row, reference row, limit): instructions per executed instruction.
PROGRAM_TARGETS = [
    ("program", "Method::execute() minus the direct kernel call, per executed add.out instruction", "method", "direct",
     30),
]


def program_instructions_per_instruction(binary, row):
    counts = []
    for iterations in LOOP_COUNTS:
        total, stdout = collected_instructions([binary, f"--row={row}", f"--iterations={iterations}"], f"program {row}")
        match = re.search(r"instructions_per_run=(\d+)", stdout)
        if not match:
            sys.exit(f"program_bench --row={row} did not say how many instructions a run executes:\n{stdout}")
        counts.append((total, int(match.group(1))))
    (low, per_run), (high, _) = counts
    return (high - low) / ((LOOP_COUNTS[1] - LOOP_COUNTS[0]) * per_run)


def allocations_per_execute(binary):
    totals = [run_under_valgrind(["--tool=memcheck", "--leak-check=no"],
                                 [binary, "--row=method", f"--iterations={n}"],
                                 r"total heap usage: ([\d,]+) allocs", "program method under memcheck")[0]
              for n in ALLOCATION_LOOP_COUNTS]
    return (totals[1] - totals[0]) / (ALLOCATION_LOOP_COUNTS[1] - ALLOCATION_LOOP_COUNTS[0])


def measure_program(binary, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        allocations = pool.submit(allocations_per_execute, binary)
        counts = dict(zip(PROGRAM_ROWS, pool.map(lambda row: program_instructions_per_instruction(binary, row),
                                                 PROGRAM_ROWS)))
        return counts, allocations.result()


def print_program_tables(counts, allocations):
    print("\nProgram benchmark: a chain of aten::add.out calls on 4-element Float tensors, "
          "instructions per executed instruction (callgrind):\n")
    print(table(["row", "what", "instructions", "over direct"],
                [[row, PROGRAM_ROW_NAMES[row], f"{counts[row]:.1f}", f"{counts[row] - counts['direct']:+.1f}"]
                 for row in PROGRAM_ROWS]))
    print(f"\nHeap allocations per execute() (memcheck): {allocations:g}")


def evaluate_program_targets(counts, allocations):
    results = []
    for target_id, description, row, reference, limit in PROGRAM_TARGETS:
        extra = counts[row] - counts[reference]
        results.append((target_id, description, f"{extra:+.1f}", limit, extra <= limit))
    results.append(("program_allocations", "heap allocations per Method::execute() (exactly 0)", f"{allocations:g}", 0,
                    allocations == 0))
    print("\nProgram targets:\n")
    print(table(["target", "what", "measured", "limit", "result"],
                [[t, d, m, l, "met" if ok else "MISSED"] for t, d, m, l, ok in results]))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="path to overhead_bench")
    parser.add_argument("--callgrind-only", action="store_true", help="skip the Google Benchmark timings")
    parser.add_argument("--check", action="store_true", help="exit 1 when an enforced target is missed")
    parser.add_argument("--program-binary",
                        help="path to program_bench (default: next to --binary); measured and enforced with the rest")
    parser.add_argument("--enforce", default=",".join([t[0] for t in TARGETS] + [t[0] for t in PROGRAM_TARGETS] +
                                                      ["program_allocations"]),
                        help="comma-separated target ids that --check enforces (default: all)")
    parser.add_argument("--targets-only", action="store_true",
                        help="measure only the cells the targets compare (./test.sh: 23 of the 60 cells)")
    parser.add_argument("--jobs", type=int, default=2, help="callgrind runs in parallel")
    parser.add_argument("--torch-binary", help="path to torch_overhead_bench (-DSWITCHYARD_BENCH_LIBTORCH=ON)")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--min-time", default="0.2")
    args = parser.parse_args()

    program_binary = args.program_binary or os.path.join(os.path.dirname(args.binary), "program_bench")
    if not os.path.exists(program_binary):
        sys.exit(f"{program_binary} does not exist: build the program_bench target (or pass --program-binary)")

    counts = measure_instructions(args.binary, args.jobs, cells=target_cells(TARGETS) if args.targets_only else None)
    if not args.callgrind_only:
        print_time_table(measure_times(args.binary, args.repetitions, args.min_time))
        print_program_times(measure_program_times(program_binary, args.repetitions, args.min_time))
    print_instruction_tables(counts)
    if args.torch_binary:
        torch_counts = measure_instructions(args.torch_binary, args.jobs, TORCH_ROWS, TORCH_COLUMNS)
        if not args.callgrind_only:
            print("\nPyTorch (libtorch):")
            print_time_table(measure_times(args.torch_binary, args.repetitions, args.min_time, TORCH_TIME_ROWS),
                             TORCH_TIME_ROWS)
        print_torch_comparison(counts, torch_counts)
    results = evaluate_targets(counts)
    program_counts, allocations = measure_program(program_binary, args.jobs)
    print_program_tables(program_counts, allocations)
    results += evaluate_program_targets(program_counts, allocations)
    if args.check:
        enforced = set(args.enforce.split(","))
        missed = [t for t, _, _, _, ok in results if t in enforced and not ok]
        if missed:
            print(f"\ncheck: FAILED targets: {', '.join(missed)}")
            return 1
        print(f"\ncheck: all enforced targets met ({', '.join(sorted(enforced))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
