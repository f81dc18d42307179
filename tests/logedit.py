#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""For tests that need a figure of a log, or a log changed on purpose, read
and written with tools/wmlog.py's records (docs/protocol.md names the fields):

  logedit.py get LOG KIND FIELD [NAME=VALUE...]
      FIELD of every KIND cell of LOG's last benchmark block whose fields
      NAME are VALUE, a line each
  logedit.py edit LOG OUT [--drop KIND] RULE...
      LOG with each RULE applied, every block's CSV:end and every EXIT: line's
      lines and CRC made anew (wmlog.crc_add, wmlog.exit_line), then read back
      by wmlog; --drop KIND leaves out the KIND lines and is not read back (a
      log broken on purpose).  RULE: KIND[,NAME=VALUE...]:FIELD=EXPR, EXPR a
      Python expression of the record's fields (numbers as numbers), e.g.
      'sweep:cycles=instret + 5'; or TAG:FIELD=VALUE, a field of a text line
      (its named group in docs/protocol.md), e.g. 'EXIT:status=0'
"""
import csv
import io
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import wmlog  # noqa: E402


def matches(rec, conds):
    return all(str(rec.get(k)) == v for k, v in conds)


def conditions(words):
    return [tuple(w.split("=", 1)) for w in words]


def edit_text(line, rules):
    """LINE with the TAG:FIELD=VALUE rules of its tag applied."""
    m = wmlog.TAG.match(line)
    for tag, _, field, value in (r for r in rules if m and r[0] == m.group(1)):
        fm = next(filter(None, (rx.match(m.group(2)) for _, rx in wmlog.FORMS[tag])))
        if field in fm.re.groupindex:       # the line's form has the field
            at = len(tag) + 2
            line = line[:at + fm.start(field)] + value + line[at + fm.end(field):]
    return line


def edit(lines, rules, drop):
    out, crc, n, run = [], None, 0, (0, 0)
    for line in lines:
        line = edit_text(line, rules)
        m = wmlog.TAG.match(line)
        if m and m.group(1) == "EXIT" and " crc=" in line:
            line = wmlog.exit_line(run, line.split()[1][len("STATUS="):])
        if line.startswith("CSV:"):
            raw = next(csv.reader([line[4:]]))
            kind, spec = raw[0], wmlog.RECORDS.get(raw[0], [])
            if kind == drop:
                continue
            names = [name for name, _ in spec]
            rec = {name: (raw[1 + i:] if typ.endswith("...") else raw[1 + i])
                   for i, (name, typ) in enumerate(spec) if 1 + i < len(raw)}
            env = {k: int(v) if isinstance(v, str) and re.fullmatch(r"\d+", v) else v
                   for k, v in rec.items()}
            changed = False
            for rkind, conds, field, expr in rules:
                if rkind == kind and matches(rec, conds):
                    i = 1 + names.index(field)      # a field of "..." takes the rest
                    end = len(raw) if spec[i - 1][1].endswith("...") else i + 1
                    raw[i:end] = [str(eval(expr, {}, dict(env)))]
                    changed = True
            if changed:
                buf = io.StringIO()
                csv.writer(buf, lineterminator="").writerow(raw)
                line = "CSV:" + buf.getvalue()
            if kind == "begin":
                crc, n = wmlog.crc_add(0, line), 0
            elif kind == "end":
                line = f"CSV:end,{n},{crc:08x}"
            elif crc is not None:
                crc, n = wmlog.crc_add(crc, line), n + 1
        if line.startswith("CSV:") or m and m.group(1) in wmlog.FORMS:
            run = wmlog.run_add(run, line)
        out.append(line)
    return out


def main(argv):
    if len(argv) >= 4 and argv[0] == "get":
        log, kind, field, conds = argv[1], argv[2], argv[3], conditions(argv[4:])
        cells = wmlog.read(log).bench.cells[kind].values()
        print("\n".join(str(c[field]) for c in cells if matches(c, conds)))
        return 0
    if len(argv) >= 3 and argv[0] == "edit":
        log, out, rest = argv[1], argv[2], argv[3:]
        drop = rest[1] if rest[:1] == ["--drop"] else None
        rules = []
        for r in rest[2 if drop else 0:]:
            where, _, assign = r.partition(":")
            kind, *conds = where.split(",")
            field, _, expr = assign.partition("=")
            rules.append((kind, conditions(conds), field, expr))
        with open(log, encoding="utf-8", errors="replace") as f:
            lines = f.read().replace("\r", "").split("\n")
        with open(out, "w", encoding="utf-8") as f:
            f.write("\n".join(edit(lines, rules, drop)))
        if not drop:
            wmlog.read(out)         # raises if the edit broke the protocol
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
