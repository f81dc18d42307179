#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Docs that stay true to the tree (tests/tests.cfg, group docs).

    doc-check.py links [FILE.md ...]   every relative link of README.md and docs/*.md (or
        the files given) names a file or folder that exists, and its #anchor a heading
        of that file (GitHub's anchors: lower case, punctuation dropped, spaces as -)
    doc-check.py layout [LIST]         every file `git ls-files` holds (or LIST's lines)
        is in docs/layout.md's listing: under its top folder's entry, by its path
        there or by a folder of that path (impl/ lists impl/bytes.c)
    doc-check.py examples [FILE.md ...]   runs the command of each `<!-- run: CMD -->` of
        README.md and docs/*.md (or the files given) in the repository's top, and finds the
        lines of the code block below it in its output, in order: `...` stands for any
        lines, ` ...` within or ending a line for any text, a build id for any; the
        output's $O (the build folder, default build) is read as `build`

One FAIL: line per problem and exit status 1, else one PASS: line.
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path):
    """The anchors of path's headings, as GitHub makes them (a repeated one gets -1, -2)."""
    seen, out, fence = {}, set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            fence ^= line.startswith("```")
            m = not fence and re.match(r"#+\s+(.*?)\s*#*$", line)
            if m:
                a = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
                out.add(a + (f"-{seen[a]}" if a in seen else ""))
                seen[a] = seen.get(a, 0) + 1
    return out


def links(files):
    problems = []
    for md in files:
        with open(os.path.join(TOP, md), encoding="utf-8") as f:
            text = re.sub(r"```.*?```", "", f.read(), flags=re.S)    # code is not links
        for no, line in enumerate(text.splitlines(), 1):
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):      # http:, mailto:: not ours to check
                    continue
                path, _, anchor = target.partition("#")
                full = os.path.normpath(os.path.join(TOP, os.path.dirname(md), path)) \
                    if path else os.path.join(TOP, md)
                if not os.path.exists(full):
                    problems.append(f"{md}: link {target}: no {os.path.relpath(full, TOP)}")
                elif anchor and full.endswith(".md") and anchor not in anchors(full):
                    problems.append(f"{md}: link {target}: no heading #{anchor} "
                                    f"in {os.path.relpath(full, TOP)}")
    return problems, f"{len(files)} files' relative links and anchors resolve"


def layout(files):
    with open(os.path.join(TOP, "docs", "layout.md"), encoding="utf-8") as f:
        listing = f.read().split("\n\n")[1]        # the indented block under the title
    entries, name = {}, None
    for line in listing.splitlines():
        m = re.match(r"    (\S+)", line)
        if m:
            name = m.group(1)
        entries[name] = entries.get(name, "") + " " + line.strip()
    problems = []
    for path in files:
        top, _, rest = path.partition("/")
        text = entries.get(top + "/", "") if rest else " ".join(entries)
        names = [rest or top] + [rest[:i + 1] for i, c in enumerate(rest) if c == "/"]
        if not any(re.search(r"(?<![\w.-])" + re.escape(n) + r"(?![\w.-])", text)
                   for n in names):
            problems.append(f"docs/layout.md does not list {path}")
    return problems, f"docs/layout.md lists all {len(files)} files"


def examples(files):
    """The problems of every run block of files: what was not printed, where it was due."""
    problems, n = [], 0
    for md in files:
        with open(os.path.join(TOP, md), encoding="utf-8") as f:
            blocks = re.findall(r"<!-- run: (.*?) -->\n```\n(.*?)```", f.read(), re.S)
        for cmd, want in blocks:
            n += 1
            got = subprocess.run(["bash", "-c", cmd + " 2>&1"], cwd=TOP, capture_output=True,
                                 text=True).stdout
            o = os.environ.get("O", "build").rstrip("/")
            got = got.replace(os.path.abspath(o) + "/", "build/").replace(o + "/", "build/")
            lines, at, skip = got.splitlines(), 0, True      # the block begins anywhere
            for w in want.splitlines():
                if w == "...":
                    skip = True
                    continue
                rx = ".*".join("[0-9a-f]{40}".join(map(re.escape, re.split(
                    r"(?<=build-id )[0-9a-f]{40}", part)))
                               for part in re.split(r" \.\.\.(?: |$)", w))
                hit = next((i for i in range(at, len(lines) if skip else min(at + 1, len(lines)))
                            if re.fullmatch(rx, lines[i])), None)
                if hit is None:
                    problems.append(f"{md}: `{cmd}` did not print, "
                                    + ("after" if skip else "right after") +
                                    f" its line {at}: {w}")
                    break
                at, skip = hit + 1, False
    return problems, f"{n} examples printed as the docs show them"


def main(argv):
    if argv[:1] == ["examples"]:
        problems, said = examples(argv[1:] or ["README.md"] + sorted(
            "docs/" + f for f in os.listdir(os.path.join(TOP, "docs")) if f.endswith(".md")))
    elif argv[:1] == ["links"]:
        problems, said = links(argv[1:] or ["README.md"] + sorted(
            "docs/" + f for f in os.listdir(os.path.join(TOP, "docs")) if f.endswith(".md")))
    elif argv[:1] == ["layout"] and len(argv) <= 2:
        if len(argv) == 2:
            with open(argv[1], encoding="utf-8") as f:
                files = f.read().split()
        else:
            files = subprocess.run(["git", "-C", TOP, "ls-files"], capture_output=True,
                                   text=True, check=True).stdout.split()
        problems, said = layout(files)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print(f"FAIL: {p}")
    print(f"FAIL: {len(problems)} problems" if problems else f"PASS: {said}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
