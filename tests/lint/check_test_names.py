#!/usr/bin/env python3
"""Checks that every value-parameterized GoogleTest suite names its instances readably.

Without a name generator (the fourth argument of INSTANTIATE_TEST_SUITE_P), GoogleTest numbers the
instances (`MatchesThePortableKernel/3`), and the test list that ctest's test discovery reads shows
each parameter as GoogleTest prints it, a byte dump for a struct without PrintTo
(`144-byte object <03-00 ...>`). CMake's test discovery, unless told NO_PRETTY_VALUES, also appends
that printed parameter to a generated name ("1Threads  # GetParam() = 1"). This script fails
(exit 1) naming each INSTANTIATE_TEST_SUITE_P in a C++ source (tests, conformance harness,
examples) that passes no name generator, and each gtest_discover_tests call in a CMake file that
does not pass NO_PRETTY_VALUES.

  python3 tests/lint/check_test_names.py [ROOT]     # ROOT defaults to the repository root
"""
import os
import re
import sys

SKIP_DIRS = {"build", ".git", "third_party"}
MACRO = re.compile(r"\bINSTANTIATE_TEST_SUITE_P\s*\(")
CLOSING = {")": "(", "]": "[", "}": "{"}


def source_files(root, suffixes):
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in SKIP_DIRS and not d.startswith("build"))
        for name in sorted(files):
            if name.endswith(suffixes):
                yield os.path.join(directory, name)


def top_level_arguments(text, start):
    """The number of top-level arguments of the call whose '(' is at text[start - 1]."""
    depth = []
    arguments = 1
    i = start
    while i < len(text):
        c = text[i]
        if c in "\"'":  # a string or character literal (escapes skipped)
            i += 1
            while i < len(text) and text[i] != c:
                i += 2 if text[i] == "\\" else 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                break
        elif c in "([{":
            depth.append(c)
        elif c in ")]}":
            if not depth:
                return arguments
            depth.pop()
        elif c == "," and not depth:
            arguments += 1
        i += 1
    return arguments


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    problems = []
    checked = 0
    for path in source_files(root, ("CMakeLists.txt", ".cmake")):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for match in re.finditer(r"^[^#\n]*\bgtest_discover_tests\s*\(", text, re.MULTILINE):
            end = text.find(")", match.end())
            if "NO_PRETTY_VALUES" not in text[match.end():end]:
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{os.path.relpath(path, root)}:{line}: gtest_discover_tests without NO_PRETTY_VALUES; "
                                "the name generator's name, not the printed parameter, must end each test's name")
    for path in source_files(root, (".h", ".cpp", ".cc")):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for match in MACRO.finditer(text):
            line_start = text.rfind("\n", 0, match.start()) + 1
            if text[line_start:match.start()].lstrip().startswith("//"):
                continue  # a comment mentioning the macro
            checked += 1
            if top_level_arguments(text, match.end()) < 4:
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{os.path.relpath(path, root)}:{line}: INSTANTIATE_TEST_SUITE_P without a name "
                                "generator; pass one (a lambda of ::testing::TestParamInfo) so that each instance "
                                "has a readable name")
    for problem in problems:
        print(problem)
    if checked == 0:
        print("no INSTANTIATE_TEST_SUITE_P found: is ROOT the repository?")
        return 1
    print(f"{checked} INSTANTIATE_TEST_SUITE_P checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
