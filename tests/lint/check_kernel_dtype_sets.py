#!/usr/bin/env python3
"""Checks that a kernel's dtype switches read its YAML, not a dtype family written in code.

See Note [A kernel's dtype switch reads its YAML] in backends/devices/cpu/dtype_dispatch.h. In the
portable and quantized kernel files, every dtype switch or check (dispatchDtype<S>, checkKnownDtype<S>,
checkDtypeIn<S>, runBinaryLoop<S>, unaryOp<S>, the SY_DISPATCH_* macros, the last argument of
checkDtypeSupported) whose set S names one of dtype_dispatch.h's families (kRealHBBF16Dtypes, ...)
must say why it is not a declaration, with a `// dtype set:` comment on its line or the line above.
The generated `<kernel>_dtypes`, template parameters and constants tied to them pass. This script
fails (exit 1) naming each line that does neither.

  python3 tests/lint/check_kernel_dtype_sets.py [ROOT]     # ROOT defaults to the repository root
"""
import os
import re
import sys

KERNEL_DIRS = ["backends/devices/cpu", "backends/kernels/quantized"]
FAMILIES_FILE = "backends/devices/cpu/dtype_dispatch.h"
MARKER = "// dtype set:"
# A call taking a dtype set as its first template argument, or a dispatch macro.
TEMPLATE_CALL = re.compile(r"\b(dispatchDtype|checkKnownDtype|checkDtypeIn|runBinaryLoop|unaryOp)<([^>(]*)>\s*\(")
MACRO_CALL = re.compile(r"\bSY_DISPATCH_\w+_TYPES\s*\(")
SUPPORTED_CALL = re.compile(r"\bcheckDtypeSupported\s*\((.*)\)\s*;")


def families(root):
    """The enumerator names of dtype_dispatch.h's DtypeSet: the sets written in code."""
    with open(os.path.join(root, FAMILIES_FILE), encoding="utf-8") as f:
        text = f.read()
    body = text[text.index("enum DtypeSet"):]
    body = body[:body.index("};")]
    return set(re.findall(r"^\s*(k\w+)\s*=", body, re.MULTILINE))


def last_argument(arguments):
    depth, start = 0, 0
    for i, c in enumerate(arguments):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == "," and depth == 0:
            start = i + 1
    return arguments[start:]


def sets_named(code):
    """The dtype-set expressions the line's switches and checks name."""
    code = code.replace("->", ".")
    found = [m.group(2) for m in TEMPLATE_CALL.finditer(code)]
    if MACRO_CALL.search(code):
        found.append("SY_DISPATCH macro")
    m = SUPPORTED_CALL.search(code)
    if m and "," in m.group(1):
        found.append(last_argument(m.group(1)))
    return found


def problems(root):
    names = families(root)
    family = re.compile(r"\b(" + "|".join(sorted(names)) + r")\b")
    found = []
    for folder in KERNEL_DIRS:
        directory = os.path.join(root, folder)
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if not name.endswith((".cpp", ".h")) or os.path.relpath(path, root) == FAMILIES_FILE:
                continue
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
            for number, line in enumerate(lines, 1):
                code = line.split("//", 1)[0]
                for expression in sets_named(code):
                    if expression != "SY_DISPATCH macro" and not family.search(expression):
                        continue
                    previous = lines[number - 2] if number >= 2 else ""
                    if MARKER in line or MARKER in previous:
                        continue
                    found.append(f"{folder}/{name}:{number}: a dtype switch over a family written in code "
                                 f"({expression.strip()}): use the kernel's generated <kernel>_dtypes, or say "
                                 f"why it is not a declaration with '{MARKER} ...': {line.strip()}")
    return found


def main(root):
    found = problems(root)
    for problem in found:
        print(problem, file=sys.stderr)
    print(f"{len(found)} dtype switches over a family written in a kernel")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")))
