#!/usr/bin/env python3
"""Checks that every Note reference in the sources names a Note that exists.

A Note is defined by a comment line that holds only `// Note [Title]` (or `# Note [Title]`), with
its text on the following lines. Anywhere else, `Note [Title]` is a reference, and should be
written "See Note [Title]" so that a reader cannot take it for a definition. This script fails
(exit 1) when a reference names a title no definition has, when two definitions share a title, or
when a comment line holding only `Note [Title]` is not followed by the Note's text. A reference
not written "See Note [..]" is printed as a warning.

  python3 tests/lint/check_note_references.py [ROOT]     # ROOT defaults to the repository root
"""
import os
import re
import sys

SOURCE_SUFFIXES = (".h", ".cpp", ".cc", ".py", ".cmake", ".txt", ".md", ".sh", ".fbs", ".yaml")
SKIP_DIRS = {"build", ".git", "third_party"}
DEFINITION = re.compile(r"^\s*(?://|#)\s*Note \[([^\]]+)\]\s*$")
REFERENCE = re.compile(r"(\bsee\s+)?Note \[([^\]]+)\]", re.IGNORECASE)
COMMENT_LEADER = re.compile(r"^\s*(?://+|#+|\*)?\s*")
# Titles that stand for "a title" in prose about the convention itself.
PLACEHOLDERS = {"Title", "Title states the invariant", ".."}


def source_files(root):
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in SKIP_DIRS and not d.startswith("build"))
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES) or name == "CMakeLists.txt":
                yield os.path.join(directory, name)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    definitions = {}
    references = []
    problems = []
    warnings = []  # printed, not failing: folders other work owns may still hold the old spelling
    for path in source_files(root):
        if os.path.abspath(path) == os.path.abspath(__file__):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        where = os.path.relpath(path, root)
        for number, line in enumerate(lines, 1):
            definition = DEFINITION.match(line)
            if definition:
                title = definition.group(1)
                following = lines[number].strip() if number < len(lines) else ""
                if following in ("", "//", "#"):
                    problems.append(f"{where}:{number}: Note [{title}] stands alone on its line but no text follows; "
                                    f"write a reference as \"See Note [{title}]\"")
                elif title in definitions:
                    problems.append(f"{where}:{number}: Note [{title}] is defined twice (first at "
                                    f"{definitions[title]})")
                else:
                    definitions[title] = f"{where}:{number}"
                continue
            # A title may wrap onto the next comment line.
            text = line
            if re.search(r"Note \[[^\]]*$", text) and number < len(lines):
                text += " " + COMMENT_LEADER.sub("", lines[number], count=1)
            for reference in REFERENCE.finditer(text):
                title = " ".join(reference.group(2).split())
                if title in PLACEHOLDERS:
                    continue
                references.append((where, number, title))
                wrapped_see = (reference.start() == len(COMMENT_LEADER.match(line).group(0)) and number > 1 and
                               re.search(r"\bsee\s*$", lines[number - 2], re.IGNORECASE))
                if not reference.group(1) and not wrapped_see:
                    warnings.append(f"{where}:{number}: write the reference to Note [{title}] as \"See Note [{title}]\" "
                                    f"(or \"see Note [..]\" mid-sentence), so it cannot be taken for a definition")
    for where, number, title in references:
        if title not in definitions:
            problems.append(f"{where}:{number}: Note [{title}] is referenced but no file defines it "
                            f"(a definition is a line `// Note [{title}]` followed by its text)")
    if not definitions:
        problems.append(f"{root}: no Note definitions found; is this the repository root?")
    for line in warnings + problems:
        print(line)
    print(f"{len(definitions)} Notes, {len(references)} references, {len(problems)} problems, "
          f"{len(warnings)} warnings")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
