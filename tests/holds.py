#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""lib's holds (the empty asm statements HOLD..() of lib/wordmerge.c), each removed in turn.

  holds.py dead SRC OUT --cc NAME=COMMAND...
      compiles SRC at -O2 and -Os, both builds, with each compiler, then again with each
      hold site removed (HOLD below), up to the first object a site changes.
      FAIL: for every site whose removal leaves every object byte-identical (status 1).
  holds.py measure SRC OUT --cc NAME=COMMAND... [--sites N,...] -- MAKE-COMMAND...
      the same compiles at -O2, then for each site that changes a compiler's object,
      MAKE-COMMAND LIB_CC=NAME LIB_SRC=OUT/src/wordmerge.c (make cycles-wordmerge: see
      tests/cycles.mk) with the site removed and without; prints per site and compiler
      the change in code bytes, in the fleet mix's mean modeled cycles per call of each
      function and core, and in the 64 KiB cells' (the loops'), worst of each function.
The site's line is blanked, not deleted, so that nothing else moves.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import cycles  # noqa: E402  (tools/cycles.py: the model's CSV)

# A site: HOLD..(...); alone on its line, but for a comment, or a macro's line of one.
HOLD = re.compile(r"^(\s*)(HOLD\d?\([^;]*\);?)(\s*(?:/\*.*\*/)?\s*\\?)$")
BUILDS = [("O2", 0), ("Os", 1), ("Os", 0), ("O2", 1)]


def sites(lines):
    return [i for i, line in enumerate(lines) if HOLD.match(line)]


def without(lines, i):
    m = HOLD.match(lines[i])
    return lines[:i] + [m.group(1) + m.group(3).strip() + "\n"] + lines[i + 1:]


def compile_obj(cc, opt, small, src, obj):
    """The object of src: its .text bytes (an error says what the compiler said)."""
    p = subprocess.run(cc.split() + ["-std=c11", "-Wall", "-Wextra", "-Werror", "-I",
                                     os.path.dirname(os.path.abspath(__file__)) + "/../lib",
                                     f"-{opt}", f"-DWM_SMALL_CODE={small}", "-c", src,
                                     "-o", obj], capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"holds: {cc} -{opt} failed on {src}:\n{p.stderr}")
    with open(obj, "rb") as f:
        return f.read()


def text_size(obj):
    out = subprocess.run(["size", "-A", obj], capture_output=True, text=True).stdout
    return sum(int(f[1]) for f in map(str.split, out.splitlines())
               if len(f) > 2 and f[0].startswith(".text"))


def variant(lines, out, name, i):
    """OUT/NAME/wordmerge.c: lines with site i removed (i None: as they are).  Every variant
    has the same file name, which the object holds."""
    path = os.path.join(out, name, "wordmerge.c")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.writelines(lines if i is None else without(lines, i))
    return path


def changed(lines, out, ccs, builds, i, first):
    """{cc name: (opt, small) of the first object site i changes, or None}; first: only up
    to the first compiler whose object it changes (a live site needs no more)."""
    src = variant(lines, out, f"site{i + 1}", i)
    got = {}
    for name, cc in ccs:
        got[name] = None
        for opt, small in builds:
            o = os.path.join(out, f"{name}-{opt}-{small}")
            with open(o + ".o", "rb") as f:
                base = f.read()
            if compile_obj(cc, opt, small, src, o + f"-site{i + 1}.o") != base:
                got[name] = (opt, small)
                break
        if first and got[name]:
            break
    return got


def scan(a, builds, first=False):
    with open(a.src) as f:
        lines = f.readlines()
    os.makedirs(a.out, exist_ok=True)
    base = variant(lines, a.out, "base", None)
    for name, cc in a.cc:
        for opt, small in builds:
            compile_obj(cc, opt, small, base, os.path.join(a.out, f"{name}-{opt}-{small}.o"))
    idx = [i for i in sites(lines) if not a.sites or i + 1 in a.sites]
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        res = list(ex.map(lambda i: changed(lines, a.out, a.cc, builds, i, first), idx))
    return lines, list(zip(idx, res))


def cmd_dead(a):
    lines, res = scan(a, BUILDS, first=True)
    names = ", ".join(n for n, _ in a.cc)
    dead = 0
    for i, got in res:
        what = f"{a.src}:{i + 1} {HOLD.match(lines[i]).group(2)}"
        live = [f"{n} -{o[0]}{' small' if o[1] else ''}" for n, o in got.items() if o]
        if live:
            print(f"live: {what}: changes {', '.join(live)}")
        else:
            dead += 1
            print(f"FAIL: dead hold {what}: the objects of {names} at -O2 and -Os, both "
                  "builds, are byte-identical without it")
    print(f"{'FAIL' if dead else 'PASS'}: holds: {len(res)} sites, {dead} dead")
    return 1 if dead else 0


def figures(csv):
    """{fn: (mix u74, mix u54, worst 64 KiB u74, u54)} of wordmerge's model CSV."""
    rows = cycles.read_csv(csv, ["wordmerge"])[1]
    out = {}
    for fn in sorted({k[0] for k in rows["mix"]}):
        mix = [r for k, r in rows["mix"].items() if k[0] == fn]
        big = [r for k, r in rows["sweep"].items()     # memmove's: memmove_fwd, memmove_bwd
               if k[0].split("_")[0] == fn and r["n"] == 65536]
        calls = sum(r["calls"] for r in mix)
        out[fn] = tuple(sum(r[c] for r in mix) / calls for c in ("u74", "u54")) + tuple(
            max(r[c] for r in big) for c in ("u74", "u54"))
    return out


def model(a, lines, name, i):
    src = variant(lines, a.out, "src", i)
    os.utime(src)
    subprocess.run(a.make + [f"LIB_CC={name}", f"LIB_SRC={src}"], check=True,
                   stdout=subprocess.DEVNULL)
    return figures(os.path.join(a.model_out, "cycles", "cycles-wordmerge"
                                + ("" if name == "gcc" else "-" + name) + ".csv"))


def cmd_measure(a):
    lines, res = scan(a, BUILDS[:1])
    base = {name: model(a, lines, name, None) for name, _ in a.cc}
    size = {name: text_size(os.path.join(a.out, f"{name}-O2-0.o")) for name, _ in a.cc}
    print("site: compiler: code bytes; then per function the fleet mix's modeled U74/U54 "
          "cycles per call, and the worst 64 KiB cell's, with the hold removed (+: it pays)")
    for i, got in res:
        print(f"{a.src}:{i + 1} {HOLD.match(lines[i]).group(2)}")
        for name, cc in a.cc:
            if not got[name]:
                print(f"  {name}: the same code")
                continue
            f = figures_diff(base[name], model(a, lines, name, i))
            b = text_size(os.path.join(a.out, f"{name}-O2-0-site{i + 1}.o")) - size[name]
            print(f"  {name}: {b:+d} bytes;" + ";".join(f" {fn} mix {f[fn][0]} / {f[fn][1]}, "
                                                         f"64 KiB {f[fn][2]} / {f[fn][3]}"
                                                         for fn in f))
    return 0


def figures_diff(base, new):
    return {fn: [f"{(y / x - 1) * 100:+.1f}%" for x, y in zip(base[fn], new[fn])] for fn in base}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cmd", choices=("dead", "measure"))
    ap.add_argument("src")
    ap.add_argument("out")
    ap.add_argument("--cc", action="append", required=True,
                    type=lambda s: tuple(s.split("=", 1)), help="NAME=COMMAND")
    ap.add_argument("--sites", type=lambda s: {int(x) for x in s.split(",") if x},
                    help="only the sites on these lines")
    ap.add_argument("--model-out", help="make's O of MAKE-COMMAND")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    a.make = argv[cut + 1:]
    return cmd_dead(a) if a.cmd == "dead" else cmd_measure(a)


if __name__ == "__main__":
    sys.exit(main())
