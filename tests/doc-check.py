#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Docs that stay true to the tree (tests/tests.cfg: group docs; figures, group bench).

    doc-check.py links [FILE.md ...]   every relative link of README.md and docs/*.md (or
        the files given) names a file or folder that exists, and its #anchor a heading
        of that file (GitHub's anchors: lower case, punctuation dropped, spaces as -)
    doc-check.py layout [LIST]         every file `git ls-files` holds (or LIST's lines)
        is in docs/layout.md's listing: under its top folder's entry, by its path
        there or by a folder of that path (impl/ lists impl/bytes.c)
    doc-check.py examples [--update] [FILE.md ...]   runs the command of each `<!-- run: CMD
        -->` of README.md and docs/*.md (or the files given) in the repository's top, and
        finds the lines of the code block below it in its output, in order: `...` stands for
        any lines, ` ...` within or ending a line for any text, a build id for any; the
        output's $O (the build folder, default build) is read as `build`
    doc-check.py figures [--update] [FILE.md ...]   the same for each `<!-- figures: CMD -->`:
        docs/benchmarks.md's tables, whose commands print the figures of builds that take
        long (the test docs-figures makes them first, in its own folder, as $O)
        --update: a line whose figures changed (it matches with any numbers and runs of
        spaces in place of its own) takes the printed ones, written into its file; a line
        that does not match even so is still a FAIL: line (a table of another shape is
        edited by hand)

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


# What --update may change in a line: its numbers, and the runs of spaces that align them.
NUMBER = r"[-+−]?\d+(?:\.\d+)?"
CHANGING = re.compile(f"({NUMBER}| +)")


def pattern(w, loose=False):
    """A block line as a regex of the whole output line; loose: any number and any run of
    spaces where w has one, each a group (so the printed ones can be taken)."""
    out = []
    for i, part in enumerate(re.split(r" \.\.\.(?: |$)", w)):
        out.append(".*" if i else "")
        for j, text in enumerate(re.split(r"(?<=build-id )[0-9a-f]{40}", part)):
            out.append("[0-9a-f]{40}" if j else "")
            out += [re.escape(t) if k % 2 == 0 or not loose else "( +)" if t[0] == " " else
                    f"({NUMBER})" for k, t in enumerate(CHANGING.split(text))]
    return "".join(out)


def renumber(w, m):
    """w with its numbers and runs of spaces replaced by the groups of m (a match of
    pattern(w, loose=True))."""
    new, k = [], 0
    for i, part in enumerate(re.split(r"( \.\.\.(?: |$)|(?<=build-id )[0-9a-f]{40})", w)):
        for j, t in enumerate([part] if i % 2 else CHANGING.split(part)):
            k += i % 2 == 0 and j % 2 == 1
            new.append(m[k] if i % 2 == 0 and j % 2 else t)
    return "".join(new)


def examples(files, tag="run", update=False):
    """The problems of every TAG block of files: what was not printed, where it was due;
    update: the lines whose numbers alone differ written with the printed ones."""
    problems, n, changed = [], 0, 0
    printed = {}    # figures: a command shown twice reads the same build, so it runs once
    for md in files:
        with open(os.path.join(TOP, md), encoding="utf-8") as f:
            text = f.read()
        edits = []
        for block in re.finditer(rf"<!-- {tag}: ([^\n]*?) -->\n```\n(.*?)```", text, re.S):
            cmd, want = block[1], block[2]
            n += 1
            got = printed.get(cmd) if tag == "figures" else None
            if got is None:
                got = printed[cmd] = subprocess.run(["bash", "-c", cmd + " 2>&1"], cwd=TOP,
                                                    capture_output=True, text=True).stdout
            o = os.environ.get("O", "build").rstrip("/")
            got = got.replace(os.path.abspath(o) + "/", "build/").replace(o + "/", "build/")
            lines, at, skip, new = got.splitlines(), 0, True, []     # the block begins anywhere
            for w in want.splitlines():
                new.append(w)
                if w == "...":
                    skip = True
                    continue
                span = range(at, len(lines) if skip else min(at + 1, len(lines)))
                hit = next((i for i in span if re.fullmatch(pattern(w), lines[i])), None)
                if hit is None and update:
                    hit = next((i for i in span if re.fullmatch(pattern(w, True), lines[i])),
                               None)
                    if hit is not None:
                        new[-1] = renumber(w, re.fullmatch(pattern(w, True), lines[hit]))
                if hit is None:
                    problems.append(f"{md}: `{cmd}` did not print, "
                                    + ("after" if skip else "right after") +
                                    f" its line {at}: {w}")
                    break
                at, skip = hit + 1, False
            old = want.splitlines()[:len(new)]       # the lines checked, up to a FAIL
            if new != old:
                changed += sum(a != b for a, b in zip(new, old))
                edits.append((block.start(2), block.start(2) + sum(len(w) + 1 for w in old), new))
        for a, b, new in reversed(edits):
            text = text[:a] + "".join(w + "\n" for w in new) + text[b:]
        if edits:
            with open(os.path.join(TOP, md), "w", encoding="utf-8") as f:
                f.write(text)
    return problems, f"{n} examples printed as the docs show them" + (
        f" ({changed} lines updated)" if update else "")


def main(argv):
    if argv[:1] in (["examples"], ["figures"]):
        update = "--update" in argv[1:2]
        files = argv[1 + update:]
        problems, said = examples(files or ["README.md"] + sorted(
            "docs/" + f for f in os.listdir(os.path.join(TOP, "docs")) if f.endswith(".md")),
            "run" if argv[0] == "examples" else "figures", update)
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
