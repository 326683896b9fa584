#!/usr/bin/env python3
"""Checks that no kernel spells an operator's name: the name comes from the registration.

A kernel names its operator in errors with `ctx.op`, the KernelContext its registration passes
(See Note [The kernel context is the last parameter] in dispatcher/kernel_context.h), so the name
is the one the caller called and cannot drift from the YAML. This script fails (exit 1) naming
each line of a kernel file (backends/devices/{cpu,accel,zero}/) holding a string literal that starts
with an operator namespace ("aten::", "dim_order_ops::"), except where a KernelContext is defined,
which is the registration naming its operator, and where a kernel looks up an operator it calls
(staticTypedHandle). Comments are not code and are skipped.

  python3 tests/lint/check_kernel_operator_names.py [ROOT]     # ROOT defaults to the repository root
"""
import os
import re
import sys

KERNEL_DIRS = ["backends/devices/cpu", "backends/devices/accel", "backends/devices/zero"]
NAME = re.compile(r'"(aten|dim_order_ops)::')
ALLOWED = re.compile(r"\bKernelContext\s+\w+\s*\{|\bstaticTypedHandle\b")


def problems(root):
    found = []
    for folder in KERNEL_DIRS:
        directory = os.path.join(root, folder)
        for name in sorted(os.listdir(directory)):
            if not name.endswith((".cpp", ".h")):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    code = line.split("//", 1)[0]
                    if NAME.search(code) and not ALLOWED.search(code):
                        found.append(f"{folder}/{name}:{number}: an operator's name spelled in a kernel "
                                     f"(use ctx.op, the KernelContext its registration passes): {line.strip()}")
    return found


def main(root):
    found = problems(root)
    for problem in found:
        print(problem, file=sys.stderr)
    print(f"{len(found)} operator names spelled in kernels")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")))
