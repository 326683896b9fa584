#!/usr/bin/env python3
"""Checks that every C++ code block in README.md and docs/*.md is a compiled example, character for character.

Each ```cpp block must follow a line `<!-- example: examples/readme/NAME.cpp -->` (the path relative
to the source root), and its text must be exactly the region of that file between the lines
`// README: begin` and `// README: end`. The examples are built (and most of them run) by
./test.sh, so a documentation block that no longer compiles, or that drifted from the file that
does, fails the tests; and every example must be shown somewhere.

  tests/lint/check_readme_examples.py SOURCE_ROOT
"""
import pathlib
import re
import sys

MARKER = re.compile(r"^<!-- example: (\S+) -->$")
BEGIN, END = "// README: begin\n", "// README: end\n"


def region(path: pathlib.Path) -> str:
    text = path.read_text()
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise ValueError(f"{path}: needs exactly one '{BEGIN.strip()}' line before one '{END.strip()}' line")
    return text[text.index(BEGIN) + len(BEGIN):text.index(END)]


def check_file(readme: pathlib.Path, root: pathlib.Path, errors: list, used: set) -> None:
    readme_path = str(readme.relative_to(root))
    lines = readme.read_text().splitlines(keepends=True)
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```cpp"):
            i += 1
            continue
        start = i
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            i += 1
        block = "".join(lines[start + 1:i])
        i += 1
        marker = MARKER.match(lines[start - 1].strip()) if start > 0 else None
        where = f"{readme_path}:{start + 1}"
        if not marker:
            errors.append(f"{where}: a ```cpp block without '<!-- example: examples/readme/NAME.cpp -->' on the line "
                          "before it; put the code in an example file that ./test.sh builds")
            continue
        example = root / marker.group(1)
        used.add(example.resolve())
        try:
            expected = region(example)
        except (OSError, ValueError) as e:
            errors.append(f"{where}: {e}")
            continue
        if block != expected:
            first = next((n for n, (a, b) in enumerate(zip(block.splitlines(), expected.splitlines())) if a != b),
                         min(len(block.splitlines()), len(expected.splitlines())))
            errors.append(f"{where}: the block differs from {marker.group(1)}'s README region at its line {first + 1}; "
                          "copy the region into the README (or the README block into the file)")


def main(root_path: str) -> int:
    root = pathlib.Path(root_path)
    errors, used = [], set()
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        check_file(page, root, errors, used)
    for example in sorted((root / "examples" / "readme").glob("*.cpp")):
        if example.resolve() not in used:
            errors.append(f"{example}: no block of README.md or docs/*.md shows this example; remove it or show it")
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
