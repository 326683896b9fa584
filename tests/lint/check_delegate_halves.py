#!/usr/bin/env python3
"""Checks that a delegate's run-time half does not reach into its ahead-of-time half.

A delegate split into backends/<name>/aot/ and backends/<name>/runtime/ is two components, so that
an application that only runs programs can have the run-time half without the exporter. This
script fails (exit 1), naming the file, line and rule, when a source under any backends/*/runtime/
folder includes a header of export/ or of an aot/ folder.

  python3 tests/lint/check_delegate_halves.py [ROOT]     # ROOT defaults to the repository root
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
FORBIDDEN = (
    (re.compile(r"^switchyard/export/"), "includes export/"),
    (re.compile(r"^switchyard/backends/[^/]+/aot/"), "includes an ahead-of-time half (aot/)"),
)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    backends = os.path.join(root, "backends")
    problems = []
    checked = 0
    for backend in sorted(os.listdir(backends)):
        runtime = os.path.join(backends, backend, "runtime")
        if not os.path.isdir(runtime):
            continue
        for name in sorted(os.listdir(runtime)):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(runtime, name)
            checked += 1
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    for pattern, rule in FORBIDDEN:
                        if pattern.search(m.group(1)):
                            where = os.path.relpath(path, root)
                            problems.append(f"{where}:{number}: a delegate's run-time half {rule}: {m.group(1)}")
    for p in problems:
        print(p)
    print(f"{checked} run-time files, {len(problems)} problems")
    return 1 if problems or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
