#!/usr/bin/env python3
"""compare.py: runs every conformance program through ExecuTorch's runners and Switchyard's, and
judges the outputs. Called by roundtrip.sh; prints one line per program and a final count, writes
OUT/summary.tsv, and exits 1 on any unexpected result.

For each program of PROGRAMS/manifest.tsv and each of its inputs NAME.in<k>.txt:
  * every ExecuTorch runner (--et NAME=PATH, the first is the reference) and the Switchyard runner
    (--sy PATH) must load and run it: exit status 0;
  * the ExecuTorch runners must write byte-identical outputs (they differ only in how ExecuTorch
    was compiled or how much of the file it verifies, never in what it computes);
  * |ExecuTorch - Switchyard| <= agreement * max(1, |ExecuTorch|) elementwise;
  * |ExecuTorch - eager| and |Switchyard - eager| <= tolerance (absolute), eager being Switchyard's
    portable kernels on the unlowered model (NAME.eager<k>.txt).
A program listed in --expected (expected_failures.tsv) must fail exactly as listed: its ExecuTorch
runners exit non-zero with the listed message in their log, the other checks still hold (XFAIL).
If it passes instead, that is reported too (XPASS) and counts as unexpected: update the list.

Programs exported by ExecuTorch itself (--wild-list, read from --wild-dir) are run the same way on
random inputs as a check of the runners: the ExecuTorch runners must agree byte for byte, and
Switchyard must agree with them.

Logs and outputs: OUT/NAME.<runner>.<k>.{txt,log}; each log holds the command, the exit status and
the runner's stderr, where ExecuTorch's own log lines (E ... file:line] message) are.
"""
import argparse
import fnmatch
import math
import os
import random
import re
import subprocess
import sys


def read_values(path):
    """The runners' text format: [(dtype, sizes or None, [floats])]."""
    tokens = open(path).read().split()
    count, pos, values = int(tokens[0]), 1, []
    for _ in range(count):
        dtype, rank = tokens[pos], tokens[pos + 1]
        if rank == "-":
            values.append((dtype, None, [float(tokens[pos + 2])]))
            pos += 3
            continue
        rank = int(rank)
        sizes = [int(t) for t in tokens[pos + 2:pos + 2 + rank]]
        numel = int(tokens[pos + 2 + rank])
        start = pos + 3 + rank
        values.append((dtype, sizes, [float(t) for t in tokens[start:start + numel]]))
        pos = start + numel
    return values


def difference(got, ref):
    """(max |got - ref|, max |got - ref| / max(1, |ref|), problem text or '')."""
    if len(got) != len(ref):
        return math.inf, math.inf, f"{len(got)} outputs, expected {len(ref)}"
    worst_abs = worst_scaled = 0.0
    for (dt_a, sizes_a, a), (dt_b, sizes_b, b) in zip(got, ref):
        if dt_a != dt_b or sizes_a != sizes_b:
            return math.inf, math.inf, f"{dt_a}{sizes_a} where {dt_b}{sizes_b} was expected"
        for x, y in zip(a, b):
            if math.isnan(x) or math.isnan(y):
                if math.isnan(x) != math.isnan(y):
                    return math.inf, math.inf, "NaN in one output only"
                continue
            d = abs(x - y)
            worst_abs = max(worst_abs, d)
            worst_scaled = max(worst_scaled, d / max(1.0, abs(y)))
    return worst_abs, worst_scaled, ""


def run(tool, program, inputs, outputs, log):
    """Runs one runner; returns (exit status, its stderr)."""
    cmd = [tool, program, "--inputs", inputs, "--outputs", outputs]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        rc, err = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, err = -1, "timed out after 300 s\n"
    with open(log, "w") as f:
        f.write(f"$ {' '.join(cmd)}\nexit status {rc}\n{err}")
    return rc, err


def failure_message(err):
    """The most telling lines of a failed run: ExecuTorch's error lines, or the last lines."""
    lines = [l.strip() for l in err.strip().splitlines() if l.strip()]
    errors = [re.sub(r"^E \d\d:\d\d:\d\d\.\d+ ", "", l) for l in lines if l.startswith("E ")]
    return " | ".join((errors or lines)[-3:])[:300]


def node_kinds(cli, program):
    """The XNNPACK node kinds of the program's delegates, from `switchyard inspect`."""
    if not cli:
        return "?"
    p = subprocess.run([cli, "inspect", program], capture_output=True, text=True)
    kinds = []
    for kind in re.findall(r"node \d+: XNN(\w+)", p.stdout):
        if kind not in kinds:
            kinds.append(kind)
    return ",".join(kinds) or "-"


def fmt(x):
    return "-" if x is None else "inf" if x == math.inf else f"{x:.3g}"


class Judge:
    def __init__(self, args):
        self.args = args
        self.et = [spec.split("=", 1) for spec in args.et]
        self.expected = []
        if args.expected and os.path.exists(args.expected):
            for line in open(args.expected):
                if line.strip() and not line.startswith("#"):
                    program, runners, message, why = (line.rstrip("\n").split("\t") + ["", ""])[:4]
                    self.expected.append((program, runners, message, why))
        self.rows = []

    def expectation(self, name):
        return next((e for e in self.expected if fnmatch.fnmatch(name, e[0])), None)

    def run_all(self, name, program, inputs, k, stem):
        """Runs every runner on one input; returns {runner: (rc, err, output path)}."""
        results = {}
        for runner, tool in self.et + [["sy", self.args.sy]]:
            out = os.path.join(self.args.out, f"{stem}.{runner}.{k}.txt")
            if os.path.exists(out):
                os.remove(out)
            rc, err = run(tool, program, inputs, out, os.path.join(self.args.out, f"{stem}.{runner}.{k}.log"))
            results[runner] = (rc, err, out)
        return results

    def check_program(self, name, family, tolerance, agreement, notes):
        program = os.path.join(self.args.programs, name + ".pte")
        expect = self.expectation(name)
        status = {r: "ok" for r, _ in self.et + [["sy", None]]}
        problems, messages = [], {}
        et_sy = et_eager = sy_eager = 0.0
        ref = self.et[0][0]
        k = 1
        while os.path.exists(os.path.join(self.args.programs, f"{name}.in{k}.txt")):
            inputs = os.path.join(self.args.programs, f"{name}.in{k}.txt")
            eager = read_values(os.path.join(self.args.programs, f"{name}.eager{k}.txt"))
            results = self.run_all(name, program, inputs, k, name)
            for runner, (rc, err, _) in results.items():
                if rc != 0 and status[runner] == "ok":
                    status[runner] = "FAIL"
                    messages[runner] = failure_message(err)
            outputs = {r: read_values(o) for r, (rc, _, o) in results.items() if rc == 0}
            ref_bytes = open(results[ref][2], "rb").read() if ref in outputs else None
            for runner, _ in self.et[1:]:
                if runner in outputs and ref_bytes is not None and open(results[runner][2], "rb").read() != ref_bytes:
                    status[runner] = "DIFF"
                    problems.append(f"{runner} output differs from {ref} (input {k})")
            if ref in outputs and "sy" in outputs:
                d_abs, d_scaled, bad = difference(outputs["sy"], outputs[ref])
                et_sy = max(et_sy, d_abs)
                if bad or d_scaled > agreement:
                    problems.append(f"ExecuTorch vs Switchyard: {bad or fmt(d_abs)} (input {k}, allowed {agreement:g} scaled)")
            for runner, label in ((ref, "ExecuTorch"), ("sy", "Switchyard")):
                if runner in outputs:
                    d_abs, _, bad = difference(outputs[runner], eager)
                    if runner == ref:
                        et_eager = max(et_eager, d_abs)
                    else:
                        sy_eager = max(sy_eager, d_abs)
                    if bad or d_abs > tolerance:
                        problems.append(f"{label} vs eager: {bad or fmt(d_abs)} (input {k}, tolerance {tolerance:g})")
            k += 1
        failed = [r for r, s in status.items() if s != "ok"]
        if expect:
            _, runners, message, why = expect
            listed = [r for r, _ in self.et + [["sy", None]] if fnmatch.fnmatch(r, runners)]
            as_listed = (sorted(failed) == sorted(listed) and not problems
                         and all(message in messages.get(r, "") for r in listed))
            if not failed and not problems:
                verdict, detail = "XPASS", f"listed as an expected failure ({why}) but passes: update expected_failures.tsv"
            elif as_listed:
                verdict, detail = "XFAIL", f"{why}: {messages[listed[0]]}"
                for r in listed:
                    status[r] = "xfail"
            else:
                verdict, detail = "FAIL", "; ".join(problems + [f"{r}: {messages[r]}" for r in failed if r in messages])
        elif failed or problems:
            verdict, detail = "FAIL", "; ".join(problems + [f"{r}: {messages[r]}" for r in failed if r in messages])
        else:
            verdict, detail = "PASS", ""
        self.rows.append(dict(verdict=verdict, program=name, family=family, kinds=node_kinds(self.args.cli, program),
                              runs=k - 1, et_sy=et_sy if "sy" not in failed and ref not in failed else None,
                              et_eager=None if ref in failed else et_eager, sy_eager=None if "sy" in failed else sy_eager,
                              status=status, detail=detail or notes))

    def check_wild(self, name, shapes):
        program = os.path.join(self.args.wild_dir, name + ".pte")
        if not os.path.exists(program):
            return
        rng = random.Random(7)
        inputs = os.path.join(self.args.out, f"wild.{name}.in1.txt")
        with open(inputs, "w") as f:
            f.write(f"{len(shapes)}\n")
            for shape in shapes:
                numel = math.prod(shape)
                values = " ".join("%.9g" % rng.uniform(-2, 2) for _ in range(numel))
                f.write(f"Float {len(shape)} {' '.join(map(str, shape))} {numel} {values}\n")
        results = self.run_all(name, program, inputs, 1, "wild." + name)
        status = {r: ("ok" if rc == 0 else "FAIL") for r, (rc, _, _) in results.items()}
        ref = self.et[0][0]
        problems = [f"{r}: {failure_message(err)}" for r, (rc, err, _) in results.items() if rc != 0]
        et_sy = None
        if status[ref] == "ok":
            ref_bytes = open(results[ref][2], "rb").read()
            for runner, _ in self.et[1:]:
                if status[runner] == "ok" and open(results[runner][2], "rb").read() != ref_bytes:
                    status[runner] = "DIFF"
                    problems.append(f"{runner} output differs from {ref}")
            if status["sy"] == "ok":
                et_sy, scaled, bad = difference(read_values(results["sy"][2]), read_values(results[ref][2]))
                if bad or scaled > 2e-6:
                    problems.append(f"ExecuTorch vs Switchyard: {bad or fmt(et_sy)}")
        self.rows.append(dict(verdict="FAIL" if problems else "PASS", program="wild:" + name, family="ET-exported",
                              kinds=node_kinds(self.args.cli, program), runs=1, et_sy=et_sy, et_eager=None,
                              sy_eager=None, status=status, detail="; ".join(problems)))

    def report(self):
        runners = [r for r, _ in self.et] + ["sy"]
        header = ["verdict", "program", "family", "node kinds", "runs", "ET-vs-SY", "ET-vs-eager", "SY-vs-eager"] + runners + ["detail"]
        with open(os.path.join(self.args.out, "summary.tsv"), "w") as f:
            f.write("\t".join(header) + "\n")
            for r in self.rows:
                f.write("\t".join([r["verdict"], r["program"], r["family"], r["kinds"], str(r["runs"]), fmt(r["et_sy"]),
                                   fmt(r["et_eager"]), fmt(r["sy_eager"])] + [r["status"][x] for x in runners] + [r["detail"]]) + "\n")
        width = max(len(r["program"]) for r in self.rows)
        print(f"{'verdict':7} {'program':{width}} {'ET-vs-SY':>8} {'ET-vs-eager':>11}  " + " ".join(runners) + "  node kinds / detail")
        for r in self.rows:
            line = (f"{r['verdict']:7} {r['program']:{width}} {fmt(r['et_sy']):>8} {fmt(r['et_eager']):>11}  "
                    + " ".join(f"{r['status'][x]:{len(x)}}" for x in runners))
            line += "  " + (r["kinds"] if r["verdict"] == "PASS" else r["detail"][:200])
            print(line)
        counts = {v: sum(1 for r in self.rows if r["verdict"] == v) for v in ("PASS", "XFAIL", "XPASS", "FAIL")}
        wild = sum(1 for r in self.rows if r["program"].startswith("wild:"))
        print(f"\n{len(self.rows)} programs ({len(self.rows) - wild} Switchyard-exported, {wild} ExecuTorch-exported): "
              f"{counts['PASS']} passed, {counts['XFAIL']} failed as expected, "
              f"{counts['FAIL']} failed unexpectedly, {counts['XPASS']} passed unexpectedly")
        return counts["FAIL"] + counts["XPASS"] == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--programs", required=True, help="folder make_programs wrote")
    ap.add_argument("--out", required=True, help="folder for outputs, logs and summary.tsv")
    ap.add_argument("--et", action="append", required=True, help="NAME=PATH of an ExecuTorch runner (first: reference)")
    ap.add_argument("--sy", required=True, help="Switchyard runner")
    ap.add_argument("--cli", help="the switchyard command (for the node kinds)")
    ap.add_argument("--expected", help="expected_failures.tsv")
    ap.add_argument("--wild-dir", help="folder of ExecuTorch-exported programs")
    ap.add_argument("--wild-list", help="wild_programs.tsv: name and input shapes")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    judge = Judge(args)
    for line in open(os.path.join(args.programs, "manifest.tsv")):
        name, family, tolerance, agreement, _calls, notes = line.rstrip("\n").split("\t", 5)
        if family == "EXPORT-FAILED":
            judge.rows.append(dict(verdict="FAIL", program=name, family=family, kinds="-", runs=0, et_sy=None,
                                   et_eager=None, sy_eager=None, status={r: "-" for r in [e[0] for e in judge.et] + ["sy"]},
                                   detail="export failed: " + notes))
            continue
        judge.check_program(name, family, float(tolerance), float(agreement), notes)
    if args.wild_dir and args.wild_list and os.path.isdir(args.wild_dir):
        for line in open(args.wild_list):
            if line.strip() and not line.startswith("#"):
                name, shapes = line.split()[:2]
                judge.check_wild(name, [[int(d) for d in s.split(",")] for s in shapes.split(";")])
    sys.exit(0 if judge.report() else 1)


if __name__ == "__main__":
    main()
