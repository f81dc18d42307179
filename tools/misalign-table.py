#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The misalign plugin's raw records as a table by function:
    misalign-table.py [--fail-in SYM[,SYM...]] [--require SYM[,SYM...]] [--log LOG] RAW_FILE GUEST_ELF
RAW_FILE is what `-plugin file=misalign.so,out=RAW_FILE` wrote; each record's pc is named
function+offset from GUEST_ELF's symbols (tools/elf.py), "<unknown>" outside every function:
  MISALIGNED: <function> <loads> <stores> <first-pc> (<sym+off>) <addr> <sites>
  MISALIGNED-TOTAL: <n> accesses at <k> sites
(access counts; sites: each misaligned instruction as +off:<L|S><size>x<count>).  SYM may be
a shell-style glob ('wm_*'); both options may repeat and take comma-separated lists:
  --fail-in SYM  `FAIL: misaligned access in <sym> at <sym+off>` for every site in SYM, exit 1
  --require SYM  `PASS: control <sym> seen`, or FAIL: and exit 1 if no site is in SYM
  --log LOG      the console log of that run: for every implementation its benchmark
                 announces (CSV:impl; none without one), the accesses in its three
                 functions, informative:
                 `MISALIGNED-IMPL: <impl> <loads> <stores>`
Exit status: 0 ok, 1 a check failed, 2 bad input (a raw file missing, empty, malformed or cut
short; an ELF missing or unreadable; bad usage).
"""
import argparse
import fnmatch
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf  # noqa: E402  (tools/elf.py)
import wmlog  # noqa: E402  (tools/wmlog.py)


class InputError(Exception):
    """The raw file or the ELF cannot be used (exit status 2)."""


def regular_file(path, what, hint=""):
    if not os.path.isfile(path):
        raise InputError(f"{what} {path} " + ("is not a regular file" if os.path.exists(path)
                                              else f"does not exist{hint}"))


def parse_raw(path):
    """(checked, [(pc, size, kind, count, addr)]) of the plugin's report, its trailer checked."""
    regular_file(path, "raw file", f" (did QEMU run with -plugin ...,out={path} ?)")
    if os.path.getsize(path) == 0:
        raise InputError(f"raw file {path} is empty: the plugin never wrote its report (QEMU "
                         "killed or crashed before exit?)")
    with open(path, encoding="ascii", errors="replace") as f:
        lines = f.read().splitlines()
    if not lines[0].startswith("# misalign-plugin "):
        raise InputError(f"raw file {path}: line 1: not a misalign-plugin report (missing "
                         "'# misalign-plugin' header)")
    records, end = [], None
    for no, line in enumerate(lines[1:], 2):
        s, where = line.strip(), f"raw file {path}: line {no}"
        if s.startswith("# end"):
            if end:
                raise InputError(f"{where}: duplicate '# end' trailer")
            end = (no, s)
        elif s and not s.startswith("#"):
            if end:
                raise InputError(f"{where}: record after '# end' trailer")
            f = s.split()
            try:
                if len(f) != 5:
                    raise ValueError(f"expected 5 fields, got {len(f)}")
                rec = (int(f[0], 16), int(f[1], 10), f[2], int(f[3], 10), int(f[4], 16))
                why = (f"bad access size {f[1]!r}" if rec[1] not in (1, 2, 4, 8, 16) else
                       f"bad kind {f[2]!r} (want L or S)" if f[2] not in ("L", "S") else
                       f"bad count {f[3]!r}" if rec[3] <= 0 else None)
                if why:
                    raise ValueError(why)
            except ValueError as e:
                raise InputError(f"{where}: malformed record {line!r}: {e}")
            records.append(rec)
    if end is None:
        raise InputError(f"raw file {path}: no '# end' trailer: report truncated (QEMU did not "
                         "exit cleanly?)")
    count = dict(re.findall(r"(records|checked)=(\d+)", end[1]))
    if int(count.get("records", -1)) != len(records):
        raise InputError(f"raw file {path}: line {end[0]}: trailer says {end[1]} but "
                         f"{len(records)} records were read")
    return (int(count["checked"]) if "checked" in count else None), records


def main(argv):
    ap = argparse.ArgumentParser(prog="misalign-table", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("raw")
    ap.add_argument("elf")
    for opt in ("--fail-in", "--require"):
        ap.add_argument(opt, action="append", default=[], metavar="SYM[,SYM...]")
    ap.add_argument("--log")
    args = ap.parse_args(argv)
    fail_in, require = ([x.strip() for v in opt for x in v.split(",") if x.strip()]
                        for opt in (args.fail_in, args.require))
    try:
        checked, records = parse_raw(args.raw)
        regular_file(args.elf, "guest ELF")
        guest = elf.Elf(args.elf)
        names = {f.name for f in guest.functions()}
        if not names:
            raise InputError(f"guest ELF {args.elf} has no text symbols (stripped?)")
        bench = args.log and wmlog.read(args.log).bench
    except (InputError, elf.ElfError, wmlog.LogError) as e:
        print(f"misalign-table: error: {e}", file=sys.stderr)
        return 2

    sites = []                  # (record, function, every name of it, where, site)
    for r in records:
        hit = guest.function_at(r[0])
        func, aliases = (hit[0][0].name, [f.name for f in hit[0]]) if hit else ("<unknown>", [])
        where, off = (f"{func}+0x{hit[1]:x}", f"+0x{hit[1]:x}") if hit else (f"0x{r[0]:x}",) * 2
        sites.append((r, func, aliases, where, f"{off}:{r[2]}{r[1]}x{r[3]}"))
    funcs = {}                  # by pc, a load before a store, smaller first
    for site in sorted(sites, key=lambda x: (x[0][0], x[0][2], x[0][1])):
        funcs.setdefault(site[1], []).append(site)
    if checked is not None:
        print(f"# plugin checked {checked} data accesses")
        if checked == 0:
            print("WARN: the plugin saw no data access at all")
    print("# function  loads  stores  first-pc (symbol+off)  example-addr  "
          "sites(+off:<L|S><size>x<count>)")
    if not funcs:
        print("MISALIGNED: none")
    width = max([len(f) for f in funcs] + [8])
    for func, ss in sorted(funcs.items(), key=lambda kv: kv[1][0][0][0]):
        (pc, _, _, _, addr), where = ss[0][0], ss[0][3]
        loads, stores = (sum(s[0][3] for s in ss if s[0][2] == k) for k in "LS")
        print(f"MISALIGNED: {func:<{width}} {loads:7d} {stores:7d}  0x{pc:x} ({where})  "
              f"0x{addr:x}  {' '.join(s[4] for s in ss)}")
    print(f"MISALIGNED-TOTAL: {sum(r[3] for r in records)} accesses at {len(records)} sites")
    for impl in bench.impls if bench else ():
        syms = {s for (i, _), s in bench.symbols.items() if i == impl}
        loads, stores = (sum(s[0][3] for s in sites if s[0][2] == k and syms & set(s[2]))
                         for k in "LS")
        print(f"MISALIGNED-IMPL: {impl} {loads} {stores}")
    status = 0
    for pat, required in [(p, False) for p in fail_in] + [(p, True) for p in require]:
        hits = [s for s in sites if any(fnmatch.fnmatchcase(n, pat) for n in s[2])]
        known = any(fnmatch.fnmatchcase(n, pat) for n in names)
        if required:
            if not known:
                print(f"FAIL: control {pat} is not a symbol of {args.elf}")
            print(f"PASS: control {pat} seen" if hits else f"FAIL: control {pat} not seen: "
                  "plugin did not observe the deliberate misaligned access")
        else:
            if not known:
                print(f"WARN: --fail-in {pat} matches no symbol in {args.elf} (typo, or "
                      "inlined away?)")
            for (pc, size, kind, count, addr), func, _, where, _ in hits:
                print(f"FAIL: misaligned access in {func} at {where} "
                      f"({dict(L='load', S='store')[kind]}{size} x{count}, e.g. addr 0x{addr:x})")
            if not hits:
                print(f"PASS: no misaligned access in {pat}")
        status |= bool(hits) != required
    return int(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
