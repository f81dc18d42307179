#!/usr/bin/python3
"""misalign-table.py - turn misalign-plugin raw records into a per-function table.

Usage:
  misalign-table.py [--fail-in SYM[,SYM...]] [--require SYM[,SYM...]]
                    RAW_FILE GUEST_ELF

RAW_FILE is what `-plugin file=misalign.so,out=RAW_FILE` wrote.  Every record
pc is resolved to function+offset from GUEST_ELF's symbol table (tools/elf.py).
Output:

  # function  loads  stores  first-pc (symbol+off)  example-addr  sites
  MISALIGNED: <function> <loads> <stores> <first-pc> (<sym+off>) <addr> <sites>
  ...
  MISALIGNED-TOTAL: <n> accesses at <k> sites

loads/stores are access counts (sum over sites); "sites" lists every
misaligned instruction of the function as +off:<L|S><size>x<count>.
A pc that is in no function of GUEST_ELF (e.g. OpenSBI code) is shown under
the function name "<unknown>".

Checks (SYM may be a shell-style glob such as 'wm_*'; both options may be
repeated and take comma-separated lists):
  --fail-in SYM  exit 1 and print `FAIL: misaligned access in <sym> at
                 <sym+off>` for every site that falls inside SYM.
  --require SYM  exit 1 with `FAIL: control <sym> not seen: plugin did not
                 observe the deliberate misaligned access` if no site falls
                 inside SYM, else print `PASS: control <sym> seen`.

Exit status: 0 ok, 1 a check failed, 2 bad input (missing/empty/malformed
raw file, missing or unreadable ELF, bad usage).
"""

import argparse
import fnmatch
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf  # noqa: E402  (tools/elf.py)

PROG = "misalign-table"
VALID_SIZES = (1, 2, 4, 8, 16)


class InputError(Exception):
    pass


# --------------------------------------------------------------- raw file --

def parse_raw(path):
    """Return (header_line, [records]); each record is a dict."""
    if not os.path.exists(path):
        raise InputError("raw file %s does not exist (did QEMU run with "
                         "-plugin ...,out=%s ?)" % (path, path))
    if not os.path.isfile(path):
        raise InputError("raw file %s is not a regular file" % path)
    if os.path.getsize(path) == 0:
        raise InputError("raw file %s is empty: the plugin never wrote its "
                         "report (QEMU killed or crashed before exit?)" % path)
    with open(path, "r", encoding="ascii", errors="replace") as f:
        lines = f.read().splitlines()

    if not lines[0].startswith("# misalign-plugin "):
        raise InputError("raw file %s: line 1: not a misalign-plugin report "
                         "(missing '# misalign-plugin' header)" % path)
    records = []
    end = None
    for no, line in enumerate(lines[1:], start=2):
        s = line.strip()
        if not s:
            continue
        if s.startswith("#"):
            if s.startswith("# end"):
                if end is not None:
                    raise InputError("raw file %s: line %d: duplicate "
                                     "'# end' trailer" % (path, no))
                end = (no, s)
            continue
        if end is not None:
            raise InputError("raw file %s: line %d: record after '# end' "
                             "trailer" % (path, no))
        f = s.split()
        try:
            if len(f) != 5:
                raise ValueError("expected 5 fields, got %d" % len(f))
            pc = int(f[0], 16)
            size = int(f[1], 10)
            if size not in VALID_SIZES:
                raise ValueError("bad access size %r" % f[1])
            kind = f[2]
            if kind not in ("L", "S"):
                raise ValueError("bad kind %r (want L or S)" % kind)
            count = int(f[3], 10)
            if count <= 0:
                raise ValueError("bad count %r" % f[3])
            addr = int(f[4], 16)
        except ValueError as e:
            raise InputError("raw file %s: line %d: malformed record %r: %s"
                             % (path, no, line, e))
        records.append({"pc": pc, "size": size, "kind": kind,
                        "count": count, "addr": addr})
    if end is None:
        raise InputError("raw file %s: no '# end' trailer: report truncated "
                         "(QEMU did not exit cleanly?)" % path)
    m = re.search(r"records=(\d+)", end[1])
    if not m or int(m.group(1)) != len(records):
        raise InputError("raw file %s: line %d: trailer says %s but %d "
                         "records were read" % (path, end[0], end[1],
                                                len(records)))
    m = re.search(r"dropped=(\d+)", end[1])
    if m and int(m.group(1)):
        print("WARN: plugin table was full: %s accesses were not recorded"
              % m.group(1))
    m = re.search(r"checked=(\d+)", end[1])
    checked = int(m.group(1)) if m else None
    return checked, records


# ----------------------------------------------------------------- symbols --

class Symbols:
    """Function symbols of an ELF (tools/elf.py)."""

    def __init__(self, path):
        if not os.path.exists(path):
            raise InputError("guest ELF %s does not exist" % path)
        if not os.path.isfile(path):
            raise InputError("guest ELF %s is not a regular file" % path)
        try:
            self.elf = elf.Elf(path)
            funcs = self.elf.functions()
        except elf.ElfError as e:
            raise InputError(str(e))
        if not funcs:
            raise InputError("guest ELF %s has no text symbols (stripped?)"
                             % path)
        self.all_names = {f.name for f in funcs}

    def resolve(self, pc):
        """Return (primary_name, aliases, offset) or None: the innermost
        sized function holding pc, else an unsized label right below it."""
        hit = self.elf.function_at(pc)
        if hit is None:
            return None
        names = [f.name for f in hit[0]]
        return names[0], names, hit[1]

    def matching(self, pattern):
        return [n for n in self.all_names if fnmatch.fnmatchcase(n, pattern)]


# -------------------------------------------------------------------- main --

def split_list(values):
    out = []
    for v in values or []:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return out


def main(argv):
    ap = argparse.ArgumentParser(
        prog=PROG, description="Per-function table of misaligned accesses "
        "recorded by the misalign QEMU plugin.")
    ap.add_argument("raw", help="raw file written by the plugin (out=FILE)")
    ap.add_argument("elf", help="guest ELF with symbols")
    ap.add_argument("--fail-in", action="append", metavar="SYM[,SYM...]",
                    help="fail if any misaligned access is inside SYM "
                    "(glob allowed)")
    ap.add_argument("--require", action="append", metavar="SYM[,SYM...]",
                    help="fail unless a misaligned access is inside SYM")
    args = ap.parse_args(argv)
    fail_in = split_list(args.fail_in)
    require = split_list(args.require)

    try:
        checked, records = parse_raw(args.raw)
        syms = Symbols(args.elf)
    except InputError as e:
        print("%s: error: %s" % (PROG, e), file=sys.stderr)
        return 2

    # Attach symbol info to each record.
    for r in records:
        res = syms.resolve(r["pc"])
        if res:
            r["func"], r["aliases"], off = res
            r["where"] = "%s+0x%x" % (r["func"], off)
            r["off"] = off
        else:
            r["func"], r["aliases"] = "<unknown>", []
            r["where"] = "0x%x" % r["pc"]
            r["off"] = None

    funcs = {}
    for r in sorted(records, key=lambda r: (r["pc"], r["kind"], r["size"])):
        funcs.setdefault(r["func"], []).append(r)

    total = sum(r["count"] for r in records)
    if checked is not None:
        print("# plugin checked %d data accesses" % checked)
        if checked == 0:
            print("WARN: the plugin saw no data access at all")
    print("# function  loads  stores  first-pc (symbol+off)  example-addr  "
          "sites(+off:<L|S><size>x<count>)")
    if not funcs:
        print("MISALIGNED: none")
    width = max([len(f) for f in funcs] + [8])
    for func, rs in sorted(funcs.items(), key=lambda kv: kv[1][0]["pc"]):
        loads = sum(r["count"] for r in rs if r["kind"] == "L")
        stores = sum(r["count"] for r in rs if r["kind"] == "S")
        first = rs[0]
        sites = " ".join(
            ("+0x%x" % r["off"] if r["off"] is not None else "0x%x" % r["pc"])
            + ":%s%dx%d" % (r["kind"], r["size"], r["count"]) for r in rs)
        print("MISALIGNED: %-*s %7d %7d  0x%x (%s)  0x%x  %s"
              % (width, func, loads, stores, first["pc"], first["where"],
                 first["addr"], sites))
    nsites = len(records)
    print("MISALIGNED-TOTAL: %d accesses at %d sites" % (total, nsites))

    status = 0

    def in_pattern(r, pat):
        return any(fnmatch.fnmatchcase(n, pat) for n in r["aliases"])

    for pat in fail_in:
        if not syms.matching(pat):
            print("WARN: --fail-in %s matches no symbol in %s (typo, or "
                  "inlined away?)" % (pat, args.elf))
        hits = [r for r in records if in_pattern(r, pat)]
        for r in hits:
            print("FAIL: misaligned access in %s at %s (%s%d x%d, e.g. "
                  "addr 0x%x)" % (r["func"], r["where"],
                                  "load" if r["kind"] == "L" else "store",
                                  r["size"], r["count"], r["addr"]))
        if hits:
            status = 1
        else:
            print("PASS: no misaligned access in %s" % pat)

    for pat in require:
        if not syms.matching(pat):
            print("FAIL: control %s is not a symbol of %s" % (pat, args.elf))
        if any(in_pattern(r, pat) for r in records):
            print("PASS: control %s seen" % pat)
        else:
            print("FAIL: control %s not seen: plugin did not observe the "
                  "deliberate misaligned access" % pat)
            status = 1

    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
