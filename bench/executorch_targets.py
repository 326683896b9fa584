#!/usr/bin/env python3
"""Enforces issue 34's program targets: every ExecuTorch program that both runtimes run executes in
no more instructions here than in ExecuTorch v1.4.1's own runtime with its portable kernels.

ExecuTorch's side is recorded below (EXECUTORCH): its runtime is built on request only, by
../shared/tools/executorch_runtime/build.sh, and measured by bench/executorch_side_by_side.py
(bench/README.md, "Against ExecuTorch's runtime"). Switchyard's side is measured here, on the same
inputs, by `switchyard bench PROGRAM.pte` (callgrind instructions per execute; the loop around
execute() counts with it, about 20 instructions, so the comparison leans against Switchyard).

    python3 bench/executorch_targets.py --switchyard build/release/tools/switchyard/switchyard \
        --programs ../shared/programs

./test.sh runs it in its callgrind stage; without the programs folder it says so and passes.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

from executorch_side_by_side import input_values

# (program, data file or None, inputs set before each execute, ExecuTorch's instructions per execute).
# Measured 2026-11-29 with bench/executorch_side_by_side.py --low 100 --high 300. xor_training
# consumes its label input, which ExecuTorch's runtime does not restore: it is measured setting
# the inputs before each execute, on both sides.
EXECUTORCH = [
    ("add.pte", None, False, 996),
    ("add_root.pte", None, False, 995),
    ("add_constant_segment.pte", None, False, 1176),
    ("module_linear.pte", None, False, 2041),
    ("mean_eq_where.pte", None, False, 2687),
    ("xor_training.pte", "xor.ptd", True, 53641),
    ("softmax.pte", None, False, 721520),
    ("maxpool2d.pte", None, False, 166830061),
    ("wild/djl-executorch-engine__priced.pte", None, False, 1536),
    ("wild/executorch-numpy-runtime__const_methods.pte", None, False, 1682),
    ("wild/executorch-numpy-runtime__multi.pte", None, False, 1657),
    ("wild/executorch-numpy-runtime__dtypes.pte", None, False, 1867),
    ("wild/executorch-rs__add.pte", None, False, 996),
    ("wild/executorch-rs__data_map_model.pte", "wild/executorch-rs__data_map__default_external_constant.ptd", False,
     2041),
    # Measured with ExecuTorch's runner built with the tanh, pow and mul.Scalar kernels it calls too.
    ("wild/dnf_executorch__dnf_executorch.pte", None, False, 25148),
]

COUNT = re.compile(r"instructions per execute: ([\d.]+)")


def ramp_inputs(switchyard, program, path):
    """The forward method's inputs with executorch_side_by_side's values, as `switchyard run` JSON."""
    meta = json.loads(subprocess.run([switchyard, "run", program, "--method-meta", "--format", "json"], check=True,
                                     capture_output=True, text=True).stdout)["method_meta"]
    entries = []
    for value in meta["inputs"]:
        if value["kind"] != "Tensor":
            raise RuntimeError(f"{program}: input {len(entries)} is a {value['kind']}; ExecuTorch's runner takes tensors")
        count = 1
        for size in value["sizes"]:
            count *= size
        # input_values gives numbers as text: JSON numbers as they are, Bool's "0"/"1" as false/true.
        numbers = [v == "1" if value["dtype"] == "Bool" else json.loads(v) for v in input_values(value["dtype"], count)]
        entries.append({"dtype": value["dtype"], "sizes": value["sizes"], "data": numbers})
    with open(path, "w") as f:
        json.dump(entries, f)


def measure(switchyard, programs, target):
    name, data, set_each, _ = target
    program = os.path.join(programs, name)
    with tempfile.TemporaryDirectory() as tmp:
        inputs = os.path.join(tmp, "inputs.json")
        ramp_inputs(switchyard, program, inputs)
        command = [switchyard, "bench", program, "--inputs", inputs]
        if data:
            command += ["--data", os.path.join(programs, data)]
        if set_each:
            command += ["--set-inputs-each-execute"]
        run = subprocess.run(command, capture_output=True, text=True)
    match = COUNT.search(run.stdout)
    if run.returncode != 0 or not match:
        raise RuntimeError(f"`{' '.join(command)}` did not count:\n{run.stdout}{run.stderr}")
    return float(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--switchyard", required=True, help="the switchyard command-line tool")
    parser.add_argument("--programs", required=True, help="../shared/programs")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if not os.path.isdir(args.programs):
        print(f"no programs at {args.programs}: the targets against ExecuTorch are not checked")
        return 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        counts = list(pool.map(lambda t: measure(args.switchyard, args.programs, t), EXECUTORCH))
    print("| program | ExecuTorch v1.4.1 (recorded) | Switchyard | ratio | result |")
    print("|---|---|---|---|---|")
    missed = []
    for (name, _, set_each, limit), count in zip(EXECUTORCH, counts):
        ok = count <= limit
        label = name + (" (inputs set before each execute)" if set_each else "")
        print(f"| {label} | {limit:,} | {count:,.0f} | {count / limit:.2f} | {'met' if ok else 'MISSED'} |")
        if not ok:
            missed.append(name)
    if missed:
        print(f"\ncheck: more instructions per execute than ExecuTorch's runtime: {', '.join(missed)}")
        return 1
    print(f"\ncheck: all {len(counts)} programs execute in no more instructions than ExecuTorch's runtime")
    return 0


if __name__ == "__main__":
    sys.exit(main())
