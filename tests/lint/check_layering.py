#!/usr/bin/env python3
"""Fails when a file includes a header from a folder its layer may not use.

The rules are the `layers` block of docs/design.md (See Note [Layers] below): one line per folder,
`folder: the folders it may include`, lowest layer first. A folder may always include itself. A
`*` stands for one path component and binds to the same name on both sides of a rule, so
`backends/delegates/*/aot: backends/delegates/*/runtime` lets a delegate's ahead-of-time half
include its own run-time half, not another delegate's. A header named in full (ops/TensorMethods.h)
allows that one header only. `any` allows everything (tests, tools).
A file's rule is the most specific line whose folder contains it; root-level files are named by
their file name (switchyard.h).

    check_layering.py SOURCE_ROOT

Prints `file:line: includes <header>: <rule> may include only ...` per violation and exits 1, or
the number of files checked and exits 0.
"""
# Note [Layers]
# Every folder of the library belongs to a layer and includes only from its own layer and the ones
# below, lowest first: the shared vocabulary (core/), values (ivalue/), the dispatcher, the
# operators, then kernels and fallbacks, then the program runtime and delegates' run-time halves,
# then the ahead-of-time code and delegates' aot halves, then tools. A layer can then be read,
# built and tested without those above it, an application that only runs programs links no
# exporter, and a change to a layer cannot break the ones below. docs/design.md's `layers` block is
# the rule; this script enforces it on every include, so the rule and the code cannot drift apart.
import fnmatch
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]switchyard/([^>"]+)[>"]')
SKIP_DIRS = {".git", "third_party"}


def read_rules(design_md):
    rules = []
    in_block = False
    with open(design_md, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            stripped = line.strip()
            if stripped == "```layers":
                in_block = True
            elif in_block and stripped == "```":
                break
            elif in_block and stripped and not stripped.startswith("#"):
                folder, sep, allowed = stripped.partition(":")
                if not sep:
                    sys.exit(f"{design_md}:{number}: a layers line reads `folder: allowed folders`, not {stripped!r}")
                rules.append((folder.strip(), allowed.split()))
    if not rules:
        sys.exit(f"{design_md}: no ```layers block")
    return rules


def covers(pattern, folder):
    """Whether `folder` is `pattern` or below it; returns the names `*` binds to, or None."""
    p_parts, f_parts = pattern.split("/"), folder.split("/")
    if len(f_parts) < len(p_parts):
        return None
    if not all(fnmatch.fnmatchcase(f, p) for f, p in zip(f_parts, p_parts)):
        return None
    return [f for f, p in zip(f_parts, p_parts) if p == "*"]


def rule_for(rules, folder):
    """(pattern, allowed, bound names) of the most specific rule covering `folder`, or None."""
    best = None
    for pattern, allowed in rules:
        bound = covers(pattern, folder)
        if bound is not None and (best is None or pattern.count("/") > best[0].count("/")):
            best = (pattern, allowed, bound)
    return best


def folder_of(path):
    return os.path.dirname(path) or path


def check_include(rules, own, target, header):
    """None when the include is allowed, else the reason."""
    pattern, allowed, bound = own
    t_pattern, _, t_bound = target
    if t_pattern == pattern and t_bound == bound:
        return None
    if "any" in allowed:
        return None
    for a in allowed:
        if a == t_pattern and ("*" not in a or t_bound == bound):
            return None
        if a == header:  # one header of a higher folder, named in full
            return None
    return f"{pattern} may include only {', '.join(allowed) or 'nothing but itself'}"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    rules = read_rules(os.path.join(root, "docs", "design.md"))
    violations, checked = [], 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith(("build", "out")))
        for name in sorted(filenames):
            if not name.endswith((".h", ".cpp")):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            own = rule_for(rules, folder_of(rel))
            checked += 1
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
                for number, line in enumerate(fh, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    header = m.group(1)
                    if own is None:
                        violations.append(f"{rel}:{number}: includes switchyard/{header}, but {folder_of(rel)} "
                                          "has no line in docs/design.md's layers block: add one")
                        continue
                    target = rule_for(rules, folder_of(header))
                    if target is None:
                        violations.append(f"{rel}:{number}: includes switchyard/{header}, whose folder has no "
                                          "line in docs/design.md's layers block")
                        continue
                    reason = check_include(rules, own, target, header)
                    if reason:
                        violations.append(f"{rel}:{number}: includes switchyard/{header}: {reason} "
                                          "(docs/design.md; see Note [Layers])")
    for v in violations:
        print(v)
    if violations:
        print(f"{len(violations)} include(s) against the layering")
        return 1
    print(f"layering: {checked} files follow docs/design.md's layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
