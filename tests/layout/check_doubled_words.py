#!/usr/bin/env python3
"""Checks that no message, comment or document repeats a word ("level level
id", "the the"): the string literals and comments of the C++ sources, the
comments of the protos and scripts, and the Markdown pages.

Adjacent string literals are joined first ("level " "level id" is one
text), and a repeat across a line break counts. Code outside comments and
literals is not read: `Level level;` is a declaration, not a sentence.
Words apart by anything but spaces ("levels/level", "a, a") do not count,
nor do parts of flags, paths and compounds ("--streams streams",
"one-cell"), quoted code (Markdown's fences and `spans`, in comments too),
or a few repeats that English allows ("that that", "had had").

Prints each repeat as FILE:LINE: "word word" and exits 1 if there is any,
else exits 0. Usage: check_doubled_words.py REPOSITORY_ROOT
"""
import os
import re
import sys

SOURCE_DIRS = ["lib", "proto", "server", "client", "tests", "bench", "docs",
               "scripts", "docker", "levels"]
TOP_FILES = ["README.md", "CONTRIBUTING.md"]
ALLOWED = {"that", "had", "is", "end"}  # "end end": Lua in a literal
# A word, then only spaces or a line break (with a comment's leading "//",
# "#" or "*"), then the same word.
REPEAT = re.compile(
    r"(?<![-\w./])([A-Za-z]+)(?:[ \t]+|[ \t]*\n[ \t]*(?://+|#+|\*)?[ \t]*)"
    r"\1(?![-\w/])",
    re.IGNORECASE)
# Code quoted in prose: fenced blocks and `spans` of Markdown and comments.
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)
C_TEXT = re.compile(
    r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\((.*?)\)\1"|"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\.|[^'\\\n])*'",
    re.DOTALL)


def c_texts(source):
    """(offset, text) for every comment and string literal; adjacent
    literals (apart by whitespace only) are joined."""
    out = []
    last_end = None
    for m in C_TEXT.finditer(source):
        token = m.group(0)
        if token.startswith("'"):
            last_end = None
            continue
        if token.startswith("//") or token.startswith("/*"):
            out.append((m.start(), token))
            last_end = None
            continue
        text = m.group(2) if token.startswith("R") else token[1:-1]
        if (last_end is not None and out
                and source[last_end:m.start()].strip() == ""):
            start, joined = out[-1]
            out[-1] = (start, joined + text)
        else:
            out.append((m.start(), text))
        last_end = m.end()
    return out


def hash_comments(source):
    return [(m.start(), m.group(0)) for m in re.finditer(r"#[^\n]*", source)]


def repeats(path, source):
    if path.endswith((".cc", ".h", ".proto", ".js", ".go")):
        texts = c_texts(source)
    elif path.endswith((".py", ".sh", ".txt", ".cmake", ".yaml", ".yml")) or (
            os.path.basename(path) in ("Dockerfile", "CMakeLists.txt")):
        texts = hash_comments(source)
    elif path.endswith(".md"):
        texts = [(0, source)]
    else:
        return []
    found = []
    for offset, text in texts:
        # Blank quoted code out, keeping its line breaks for the line count.
        text = CODE.sub(lambda m: re.sub(r"[^\n]", "~", m.group(0)), text)
        for m in REPEAT.finditer(text):
            if m.group(1).lower() in ALLOWED:
                continue
            line = source.count("\n", 0, offset) + text.count(
                "\n", 0, m.start()) + 1
            found.append(f'{path}:{line}: "{m.group(0)}"')
    return found


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = sys.argv[1]
    paths = [p for p in TOP_FILES if os.path.isfile(os.path.join(root, p))]
    for top in SOURCE_DIRS:
        for dirpath, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d not in ("node_modules", "corpus",
                                                    "regressions", "pending")]
            for name in names:
                paths.append(os.path.relpath(os.path.join(dirpath, name), root))
    problems = []
    for path in sorted(paths):
        try:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                source = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        problems.extend(repeats(path, source))
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} repeated words")
        return 1
    print(f"no repeated word in {len(paths)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
