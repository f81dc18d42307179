#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The one reader of the image's console log, checked line by line against
the specification in docs/protocol.md (this module reads its two tables, so
the names of line forms, record kinds and fields live there, not here).

    wmlog.py check LOG     read LOG; a line that breaks the protocol is
                           exit status 2 with its line number
    wmlog.py verdict LOG   PASS: or FAIL: LOG, and why (judge); exit status 1 on FAIL:
    wmlog.py progress      a live log on stdin as make bench shows it: its
                           CSV:progress and CSV:done records in words, EXIT:

As a module: read(path) -> Log, or Error naming the line.  A log may be a QEMU log or a board's
serial capture: carriage returns, timestamps (STAMP), and lines without a tag of the protocol
(boot messages, noise), are passed over.  Python standard library only.
"""
import csv
import os
import re
import sys
import threading
import zlib

SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "protocol.md")
TAG = re.compile(r"^([A-Z][A-Z-]*): (.*)$")
# The timestamp a serial terminal can put before each line of a capture, passed over: tio -t's
# "[13:45:02.123] " (and its ISO 8601 "[2026-06-01T13:45:02.123] "), minicom's and picocom's
# "[2026-06-01 13:45:02] ".
STAMP = re.compile(r"^\[[0-9][0-9:.,T /+-]*\] ?")
DONE = "benchmark {mode}: {points} points measured, {failures} failures"   # a CSV:done record
TYPES = {"int": r"\d+", "int?": r"\d*", "hex": r"0x[0-9a-fA-F]+", "hex8": r"[0-9a-f]{8}",
         "name": r"[A-Za-z0-9_.-]+", "text": r".*"}


class Error(Exception):
    """An input a tool cannot use (a log that breaks the protocol, an ELF, a cycle model, a
    profile, targets): the message says why.  The one error class of tools/ and farm/."""


def fail(prog, e, status, note=""):
    """The one error line of every tool, PROG: error: WHY (an OSError by its file); STATUS."""
    why = f"{e.filename}: {e.strerror}" if getattr(e, "filename", None) else getattr(
        e, "strerror", None) or e
    print(f"{prog}: error: {why}{note}", file=sys.stderr)
    return status


def crc_add(crc, line):
    """The CRC-32 of a block's lines so far (from CSV:begin on), with LINE and its newline."""
    return zlib.crc32((line + "\n").encode(), crc)


def run_add(run, line):     # a run's (tagged lines, CRC) after LINE; BANNER: build-id starts one
    return (1, crc_add(0, line)) if line.startswith("BANNER: build-id") else (
        run[0] + 1, crc_add(run[1], line))


def exit_line(run, status):
    """The EXIT: line that closes a run of (tagged lines, CRC) with STATUS (docs/protocol.md)."""
    crc = zlib.crc32(f"EXIT: STATUS={status}".encode(), run[1])
    return f"EXIT: STATUS={status} lines={run[0]} crc={crc:08x}"


def _block(text, name):
    m = re.search(r"```" + name + r"\n(.*?)```", text, re.S)
    return [l for l in m.group(1).splitlines() if l.strip()]


def _spec():
    with open(SPEC, encoding="utf-8") as f:
        text = f.read()
    forms = {}
    for line in _block(text, "protocol-lines"):
        tag, form, rx = line.split(None, 2)
        forms.setdefault(tag, []).append((form, re.compile(rx + r"\s*$")))
    records = {}
    for line in _block(text, "protocol-records"):
        kind, *fields = line.split()
        records[kind] = [tuple(f.split(":")) for f in fields]
    return forms, records


FORMS, RECORDS = _spec()


def field_rx(tag, form, field):
    """The regex of FIELD in a line form of docs/protocol.md (LAVA's patterns take theirs)."""
    p, depth = next(rx.pattern for f, rx in FORMS[tag] if f == form), 1
    start = p.index(f"(?P<{field}>") + len(f"(?P<{field}>")
    for j in range(start, len(p)):
        depth += {"(": 1, ")": -1}.get(p[j], 0) if p[j - 1] != "\\" else 0
        if depth == 0:      # the parenthesis that closes the field's group
            return p[start:j]


def _key_fields(kind):
    """What names one cell of KIND: its fields before the first measured one."""
    names = [n for n, _ in RECORDS[kind]]
    return names[:min(names.index(m) for m in ("runs", "calls") if m in names)]


class Bench:
    """One benchmark block, CSV:begin to CSV:end."""

    def __init__(self, lineno, rec):
        self.line, self.mode, self.format = lineno, rec["mode"], rec["format"]
        self.meta, self.impls, self.symbols, self.functions, self.sources = {}, [], {}, {}, []
        # Every record kind with an fn and an impl field is a measured cell.
        self.cells = {k: {} for k, spec in RECORDS.items()
                      if {"fn", "impl"} <= {name for name, _ in spec}}
        self.keys = {k: _key_fields(k) for k in self.cells}
        self.order = []          # (kind, key) of every cell, in the log's order
        self.done = None
        self.records, self.crc = 0, zlib.crc32(b"")

    def meta_int(self, key):
        return int(self.meta[key], 0)

    def add(self, kind, rec, where):
        if kind == "source":    # a peer's measured file, before its CSV:impl (docs/peers.md)
            self.sources.append(rec)
        elif "impl" in rec and (u := [s for s in self.sources if s["impl"] == rec["impl"]
                                      and s["known"] != "known"]):  # named with its label
            rec["impl"] += (f" ({u[0]['version']}, " + ", ".join(
                s["file"].rsplit("/")[-1] for s in u) + " not in the known set)")
        if kind == "meta":
            v = rec["value"]
            self.meta[rec["key"]] = v[0] if len(v) == 1 else v
        elif kind == "impl":
            self.impls.append(rec["impl"])
            self.symbols.update({(rec["impl"], f): rec[f] for f in ("memcpy", "memmove", "memset")
                                 if rec[f] != "-"})     # "-": the implementation lacks it
        elif kind == "function":
            self.functions[rec["fn"]] = rec["title"]
        elif kind in self.cells:
            if rec["impl"] not in self.impls or rec["fn"] not in self.functions:
                raise Error(f"{where}: {rec['fn']}[{rec['impl']}] was not announced "
                               "by a CSV:impl or CSV:function line")
            key = tuple(rec[f] for f in self.keys[kind])
            if key in self.cells[kind]:
                raise Error(f"{where}: the cell {kind} {key} again")
            self.cells[kind][key] = rec
            self.order.append((kind, key))
        elif kind == "done":
            self.done = rec


class Log:
    """A console log, read: see docs/protocol.md for what each field means."""

    def __init__(self, path):
        self.path = path
        self.build_id = self.verdict = self.plan = self.summary = self.status = self.sealed = None
        self.groups, self.fails, self.traps, self.benches, self.lines = {}, [], [], [], []

    @property
    def bench(self):
        """The last complete benchmark block, or None."""
        return self.benches[-1] if self.benches else None

    @property
    def failed(self):
        """Groups that ended with a FAIL: line, in plan order."""
        return [g for g in self.plan or [] if self.groups.get(g, {}).get("result") == "FAIL"]

    @property
    def missing(self):
        """Groups the plan announced that ended with no line."""
        return [g for g in (self.plan or []) if g not in self.groups]


def _fields(kind, raw, where):
    spec = RECORDS[kind]
    rest = spec[-1][1].endswith("...")
    if len(raw) != len(spec) and not (rest and len(raw) >= len(spec)):
        raise Error(f"{where}: CSV:{kind} has {len(raw)} fields, the protocol {len(spec)}")
    rec = {}
    for i, (name, typ) in enumerate(spec):
        vals = raw[i:] if typ.endswith("...") else [raw[i]]
        for v in vals:
            if not re.fullmatch(TYPES[typ.rstrip(".")], v):
                raise Error(f"{where}: CSV:{kind} field {name} is {v!r}, not {typ}")
        if typ.startswith("int"):
            vals = [int(v) if v else None for v in vals]
        rec[name] = vals if typ.endswith("...") else vals[0]
    return rec


def read(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    log, bench, run = Log(path), None, (0, 0)     # run: its tagged lines and their CRC so far
    for n, line in enumerate(text.replace("\r", "").split("\n"), 1):
        where, line = f"{path}:{n}", STAMP.sub("", line, count=1)
        k = line.find("CSV:begin,")
        if k > 0:
            line = line[k:]      # noise before the first data line of a capture
        k = line.find("CSV:")
        if k > 0 and bench is not None:
            raise Error(f"{where}: {line[:k]!r} before a CSV: record: a per-line timestamp or "
                        "prefix of a form not read (tio -t's, minicom's [...] timestamps are)")
        if line.startswith("CSV:"):
            run = run_add(run, line)
            raw = next(csv.reader([line[4:]]))
            kind = raw[0] if raw else ""
            if kind not in RECORDS:
                raise Error(f"{where}: unknown record kind {kind!r}: {line}")
            rec = _fields(kind, raw[1:], where)
            if (kind == "begin") != (bench is None):
                raise Error(f"{where}: CSV:{kind} " + ("inside a block that has no CSV:end"
                               if bench else "outside a CSV:begin .. CSV:end block"))
            if kind == "begin":
                bench = Bench(n, rec)
            elif kind == "end":
                if rec["lines"] != bench.records or rec["crc"] != f"{bench.crc:08x}":
                    raise Error(f"{where}: the block from line {bench.line} is damaged: "
                                   f"{bench.records} records with CRC {bench.crc:08x}, "
                                   f"CSV:end says {rec['lines']} and {rec['crc']}")
                bench.end = n
                log.benches.append(bench)
                bench = None
                continue
            else:
                bench.add(kind, rec, where)
                bench.records += 1
            bench.crc = crc_add(bench.crc, line)
            continue
        m = TAG.match(line)
        if not m or m.group(1) not in FORMS:
            continue
        tag, rest = m.groups()
        form, fm = next(((f, x) for f, rx in FORMS[tag] if (x := rx.match(rest))), (None, None))
        if fm is None:
            raise Error(f"{where}: a {tag}: line of no form the protocol knows: {line}")
        f = fm.groupdict()
        if tag == "EXIT" and f["crc"] and line != (want := exit_line(run, f["status"])):
            raise Error(f"{where}: the run is damaged: its lines before make '{want}'")
        run = run_add(run, line)
        log.lines.append((n, tag, form, f))
        if tag in ("FAIL", "TRAP"):     # log.fails (a case's line too, beside a PASS:), log.traps
            getattr(log, tag.lower() + "s").append(line)
        if form in ("build_id", "verdict"):
            setattr(log, form, f[form])
        elif form == "plan":
            log.plan = f["groups"].split()
            if len(log.plan) != int(f["count"]):
                raise Error(f"{where}: PLAN: counts {f['count']} groups, names {len(log.plan)}")
        elif form in ("group", "case"):
            if log.plan is not None and f["group"] not in log.plan:
                raise Error(f"{where}: group {f['group']} is not in the PLAN: line")
            if form == "group":     # a case's FAIL: line is one of fails
                log.groups[f["group"]] = dict(f, result=tag, line=line)
        elif tag == "SUMMARY":
            log.summary = {k: int(v) for k, v in f.items()}
        elif tag == "EXIT":
            log.status, log.sealed = int(f["status"]), bool(f["crc"])
    if bench is not None:
        raise Error(f"{path}: truncated: the block from line {bench.line} has no CSV:end "
                       f"({bench.records} records read)")
    return log


def write_atomic(path, text):
    """Every tool's output file whole or not at all: written beside PATH, renamed into place."""
    tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:    # named by the file it was for, not the temporary one
        raise OSError(e.errno, f"cannot write {path}: {e.strerror}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def read_plugin(path, magic, forms):
    """([(line number, tag, values)], the trailer's {key: value}) of what our plugin wrote
    (tools/plugin.c): its first line '# MAGIC ...' (mode and version), its last the '# end
    key=value...' trailer of exit, a record a line between: a tag of FORMS, then a value for
    each letter of forms[tag] (x hex, d decimal, b hex bytes; "": the rest of the line)."""
    with open(path, encoding="ascii", errors="replace") as f:
        lines = f.read().splitlines()
    if not lines:
        raise Error(f"{path} is empty: the plugin never wrote to it (QEMU killed before exit?)")
    if not lines[0].startswith(f"# {magic} "):
        raise Error(f"{path}: line 1 is not '# {magic} ...'")
    if not lines[-1].startswith("# end "):
        raise Error(f"{path}: truncated (no '# end' line last): QEMU did not exit cleanly")
    recs = []
    for no, line in enumerate(lines[1:-1], 2):
        tag, _, rest = line.partition(" ")
        try:
            recs.append((no, tag, [{"x": lambda v: int(v, 16), "d": int, "b": bytes.fromhex}[c](v)
                                   for c, v in zip(forms[tag], rest.split(), strict=True)]
                         if forms[tag] else rest))
        except (KeyError, ValueError):
            raise Error(f"{path}:{no}: malformed line: {line[:80]}")
    return recs, dict(kv.partition("=")[::2] for kv in lines[-1][6:].split())


def judge(log):
    """Why LOG is not one whole passing run, or "": the one verdict of a log, run-qemu.sh's and
    make report's; what the image says of itself is evidence (docs/protocol.md, the verdict)."""
    runs, exits = ([n for n, _, f, _ in log.lines if f == form] for form in ("build_id", "exit"))
    ns = [n for n, *_ in log.lines] + [n for b in log.benches for n in (b.line, b.end)]
    bad = log.fails + log.traps
    return (len(runs) != 1 and f"{len(runs)} runs (BANNER: build-id lines), not one"
            or min(ns) < runs[0] and f"line {min(ns)}: a tagged line before the run"
            or not exits and "no EXIT: line: the log is incomplete"
            or max(ns) > exits[0] and f"line {max(ns)}: a tagged line after EXIT:"
            or not log.sealed and "its EXIT: line has no lines= crc=: it cannot be checked whole"
            or log.status and f"the image failed (EXIT: STATUS={log.status})"
            or bad and f"a failure, '{bad[0]}'"
            or log.missing and f"{log.missing[0]} of its PLAN: line has no PASS: line" or "")


def read_bench(path, allow_failed=False):
    """read(path) and its benchmark block; none, or a log judge() fails, unless ALLOW_FAILED."""
    log = read(path)
    why = not log.bench and "no complete benchmark block (CSV:begin .. CSV:end)" or (
        not allow_failed and judge(log))
    if why:
        raise Error(f"{path}: {why}: refused")
    return log, log.bench


def progress(src, out):
    """make bench's view of a live log: EXIT: as it is, CSV:progress and CSV:done in words."""
    for line in iter(src.readline, ""):
        line = line.rstrip("\r\n")
        raw = line.startswith(("CSV:progress,", "CSV:done,")) and next(csv.reader([line[4:]]))
        try:
            r = raw and _fields(raw[0], raw[1:], "")
        except Error:
            continue
        if r and raw[0] == "done":
            line = "SUMMARY: " + DONE
        elif r:     # a, b: the 32 MiB phase's implementation and memcpy's row, else dst%8, src%8
            line = ("PROGRESS: fleet call mix, {fn}" if r["phase"] == "mix" else
                    "PROGRESS: {fn} 32 MiB, {a}" + ", row i={b} of 0..7" * (r["fn"] == "memcpy")
                    if r["phase"] == "big" else
                    "PROGRESS: {phase}, {fn}, dst%8={a}" + " src%8={b}" * bool(r["b"]))
        if r or line.startswith("EXIT"):
            print(line.format(**r) if r else line, file=out, flush=True)
    return 0


def main(argv):
    if argv[1:] == ["progress"]:
        return progress(sys.stdin, sys.stdout)
    if len(argv) != 3 or argv[1] not in ("check", "verdict"):
        print("usage:" + __doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        log = read(argv[2])
    except (Error, OSError) as e:
        return fail("wmlog", e, 2)
    if argv[1] == "verdict":
        why = judge(log)
        print(f"FAIL: {argv[2]}: {why}" if why else f"PASS: {argv[2]}: one whole passing run")
        return int(bool(why))
    print(f"wmlog: {argv[2]}: {len(log.lines)} protocol lines, {len(log.groups)} groups"
          f"{', missing ' + ' '.join(log.missing) if log.missing else ''}, "
          f"{len(log.benches)} benchmark blocks, status {log.status}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
