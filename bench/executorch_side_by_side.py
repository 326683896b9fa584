#!/usr/bin/env python3
"""ExecuTorch's runtime and Switchyard's side by side on the same programs and inputs.

Runs each program with ExecuTorch's own runner (et_bench) and Switchyard's (sy_bench), both built
by ../shared/tools/executorch_runtime/build.sh, under callgrind at two iteration counts: the
difference divided by the difference in iterations is the instructions per execute(), start-up
and loading cancelled. Checks that both runners wrote the same outputs and prints a Markdown
table (bench/README.md, "Against ExecuTorch's runtime").

    python3 bench/executorch_side_by_side.py --et /tmp/et/build/et_bench --sy /tmp/et/build/sy_bench \
        --switchyard build/release/tools/switchyard/switchyard \
        ../shared/programs/add.pte ../shared/programs/xor_training.pte:../shared/programs/xor.ptd

A program is PROGRAM.pte or PROGRAM.pte:DATA.ptd. Its inputs are read from `switchyard inspect`
and filled with the same deterministic values for both runners (see input_values). Not run by
./test.sh: the peer is built on request only.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

INPUT_LINE = re.compile(r"^\s+(\d+): (\w+)\[([^\]]*)\]")
SECTION = re.compile(r"^\s+(inputs|outputs|operators).*:$")


def input_specs(switchyard, program):
    """[(dtype, sizes)] of the forward method's inputs, from `switchyard inspect`."""
    text = subprocess.run([switchyard, "inspect", program, "--method", "forward"], check=True,
                          capture_output=True, text=True).stdout
    specs, section = [], None
    for line in text.splitlines():
        m = SECTION.match(line)
        if m:
            section = m.group(1)
            continue
        m = INPUT_LINE.match(line)
        if section == "inputs" and m:
            sizes = [int(s.strip().lstrip("<=")) for s in m.group(3).split(",") if s.strip()]
            specs.append((m.group(2), sizes))
    return specs


def input_values(dtype, count):
    """The same small values for both runners: a ramp that covers negatives, zero and positives."""
    if dtype == "Bool":
        return ["1" if i % 2 else "0" for i in range(count)]
    if dtype in ("Float", "Double", "Half", "BFloat16"):
        return [repr(((i * 7) % 11 - 5) * 0.25) for i in range(count)]
    # Integers are often labels or indices (xor_training's target): 0 and 1 are valid for any of them.
    return [str(i % 2) for i in range(count)]


def write_inputs(path, specs):
    with open(path, "w") as f:
        f.write(f"{len(specs)}\n")
        for dtype, sizes in specs:
            count = 1
            for s in sizes:
                count *= s
            f.write(" ".join([dtype, str(len(sizes))] + [str(s) for s in sizes] + [str(count)] +
                             input_values(dtype, count)) + "\n")


def instructions(runner, program, data, inputs, outputs, iters, set_each):
    """Instructions callgrind counts for a whole run of `iters` executes."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", runner, program,
               "--inputs", inputs, "--outputs", outputs, "--iters", str(iters), "--warmup", "1"]
        if data:
            cmd += ["--data", data]
        if set_each:
            cmd += ["--set-inputs-each-iter"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"{os.path.basename(runner)} failed on {program}:\n{run.stderr[-2000:]}")
        m = re.search(r"Collected : (\d+)", run.stderr)
        if not m:
            raise RuntimeError(f"no callgrind total in the output of {runner}")
        return int(m.group(1))


def compare_outputs(a_path, b_path):
    """'identical', or the largest absolute difference between the two runners' output values."""
    a, b = open(a_path).read().split(), open(b_path).read().split()
    if a == b:
        return "identical"
    if len(a) != len(b):
        return "DIFFER (shapes)"
    worst = 0.0
    for x, y in zip(a, b):
        if x == y:
            continue
        try:
            worst = max(worst, abs(float(x) - float(y)))
        except ValueError:
            return f"DIFFER ({x} vs {y})"
    return f"max |diff| {worst:.1e}"


def per_execute(runner, program, data, inputs, outputs, low, high, set_each):
    a = instructions(runner, program, data, inputs, outputs, low, set_each)
    b = instructions(runner, program, data, inputs, outputs, high, set_each)
    return (b - a) / (high - low)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--et", required=True, help="ExecuTorch's runner (et_bench)")
    parser.add_argument("--sy", required=True, help="Switchyard's runner (sy_bench)")
    parser.add_argument("--switchyard", required=True, help="the switchyard CLI, to read each program's inputs")
    parser.add_argument("--low", type=int, default=5)
    parser.add_argument("--high", type=int, default=15)
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    print("| program | ExecuTorch v1.4.1 (instructions per execute) | Switchyard | Switchyard / ExecuTorch | outputs |")
    print("|---|---|---|---|---|")
    failed = False
    for item in args.programs:
        program, _, data = item.partition(":")
        name = os.path.basename(program)
        with tempfile.TemporaryDirectory() as tmp:
            inputs = os.path.join(tmp, "in.txt")
            write_inputs(inputs, input_specs(args.switchyard, program))
            et_out, sy_out = os.path.join(tmp, "et.txt"), os.path.join(tmp, "sy.txt")
            # A program that consumes its inputs (xor_training's plan reuses its label's bytes, which
            # ExecuTorch's runtime does not restore) fails on its second execute in ExecuTorch's
            # runner: such programs are measured setting the inputs before each execute, on both sides.
            try:
                set_each = False
                try:
                    et = per_execute(args.et, program, data, inputs, et_out, args.low, args.high, False)
                except RuntimeError:
                    set_each = True
                    et = per_execute(args.et, program, data, inputs, et_out, args.low, args.high, True)
                sy = per_execute(args.sy, program, data, inputs, sy_out, args.low, args.high, set_each)
            except RuntimeError as e:
                print(f"| {name} | (not run: {str(e).splitlines()[0]}) | | | |")
                failed = True
                continue
            if set_each:
                name += " (inputs set before each execute)"
            # The outputs of one execute on freshly set inputs: a program whose plan reuses an
            # input's bytes (module_linear) computes on its own output from the second execute on
            # in ExecuTorch's runtime, which does not restore such inputs, and Switchyard's does.
            for runner, out in ((args.et, et_out), (args.sy, sy_out)):
                once = [runner, program, "--inputs", inputs, "--outputs", out, "--iters", "1", "--warmup", "0"]
                subprocess.run(once + (["--data", data] if data else []), check=True, capture_output=True)
            outputs = compare_outputs(et_out, sy_out)
            print(f"| {name} | {et:,.0f} | {sy:,.0f} | {sy / et:.2f} | {outputs} |")
            failed |= outputs.startswith("DIFFER")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
