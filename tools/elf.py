#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The one place that reads ELF files (issue 10): ELF32/ELF64, either byte
order, Python standard library only.

As a module (tools/misalign-table.py, check-image-header.py, cycles.py,
report.py):

    elf = Elf(path)              # ElfError: missing, not an ELF, truncated
    elf.functions()              # [Func(addr, size, name, file, bind, type)]
    elf.lookup(addr)             # (name, offset) of the function holding addr, or None
    elf.function_at(addr)        # ([Func, ...] all its names, offset), or None
    elf.address(name)            # (addr, size) of any defined symbol, or None
    elf.read(addr, size)         # bytes at a linked address (PROGBITS), or None
    elf.section_data(name), elf.segments, elf.flat_image()

Function symbols are those defined in an executable section, of type FUNC
or NOTYPE (assembly labels), without the "$x"/".L" mapping and local
labels: what `nm` shows as t/T/w/W.  A Func's file is the source file of
its compilation unit from DWARF (.debug_aranges, as `nm -l` finds it) when
the ELF has debug information, else, for a local symbol, the STT_FILE
symbol before it; None when neither says (object files: STT_FILE only).

lookup(): the innermost sized function containing addr; failing that, an
unsized label (assembly without .size) when it is the nearest symbol at or
below addr.  Of several names at one address the first of: FUNC before
NOTYPE, global before weak before local, the name that sorts last (what the
image's own table printed before issue 10: _start, not _image_start).

As a command:

  elf.py symbolize ELF [LOG]   copy LOG (default stdin) to stdout, a line
                               at a time; in every line starting "TRAP: ",
                               append " <sym+0xoff>" to each hex number that
                               lies in a function of ELF ("sepc=" and "ra="
                               get " <?>" when none does): the image prints
                               raw addresses, this restores the names.
  elf.py sym ELF ADDR          "sym+0xoff" of ADDR (exit 1: in no function)
  elf.py addr ELF NAME         "0xADDR SIZE" of symbol NAME (exit 1: none)
  elf.py functions ELF         "0xADDR SIZE NAME [FILE]" of every function

Errors (missing file, not an ELF, truncated, bad usage): one line on
stderr, exit status 2.
"""

import bisect
import collections
import os
import re
import struct
import sys

PROG = "elf.py"

SHT_PROGBITS, SHT_SYMTAB, SHT_NOBITS = 1, 2, 8
SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
PT_LOAD = 1
ET_REL = 1
STT_NOTYPE, STT_OBJECT, STT_FUNC, STT_SECTION, STT_FILE = 0, 1, 2, 3, 4
STB_LOCAL, STB_GLOBAL, STB_WEAK = 0, 1, 2
SHN_UNDEF, SHN_LORESERVE = 0, 0xff00

Section = collections.namedtuple(
    "Section", "index name type flags addr offset size link info entsize")
Segment = collections.namedtuple(
    "Segment", "type flags offset vaddr paddr filesz memsz")
Symbol = collections.namedtuple(
    "Symbol", "name addr size type bind shndx stt_file")
Func = collections.namedtuple("Func", "addr size name file bind type")


class ElfError(Exception):
    """The file cannot be read as an ELF file; the message says why."""


class Elf:
    def __init__(self, path):
        self.path = path
        try:
            with open(path, "rb") as f:
                self.data = f.read()
        except OSError as e:
            raise ElfError(f"cannot read {path}: {e.strerror}")
        d = self.data
        if len(d) < 16 or d[:4] != b"\x7fELF":
            raise ElfError(f"{path} is not an ELF file (no \\x7fELF magic)")
        if d[4] not in (1, 2) or d[5] not in (1, 2):
            raise ElfError(f"{path}: unknown ELF class {d[4]} or data encoding {d[5]}")
        self.bits = 64 if d[4] == 2 else 32
        self.endian = "<" if d[5] == 1 else ">"
        self.word = self.bits // 8
        try:
            self._parse()
        except (struct.error, IndexError, ValueError) as e:
            raise ElfError(f"{path}: truncated or damaged ELF file ({e})")
        self._funcs = None
        self._units = None

    # ---- parsing ----------------------------------------------------------------

    def _unpack(self, fmt, off):
        fmt = self.endian + fmt
        if off < 0 or off + struct.calcsize(fmt) > len(self.data):
            raise ValueError(f"offset 0x{off:x} past the end of the file")
        return struct.unpack_from(fmt, self.data, off)

    def _bytes(self, off, size):
        if off < 0 or size < 0 or off + size > len(self.data):
            raise ValueError(f"0x{size:x} bytes at 0x{off:x} past the end of the file")
        return self.data[off:off + size]

    def _parse(self):
        if self.bits == 64:
            (self.type, self.machine, _v, self.entry, phoff, shoff, _f, _eh, phentsize,
             phnum, shentsize, shnum, shstrndx) = self._unpack("HHIQQQIHHHHHH", 16)
            shfmt, phfmt = "IIQQQQIIQQ", "IIQQQQQQ"
        else:
            (self.type, self.machine, _v, self.entry, phoff, shoff, _f, _eh, phentsize,
             phnum, shentsize, shnum, shstrndx) = self._unpack("HHIIIIIHHHHHH", 16)
            shfmt, phfmt = "IIIIIIIIII", "IIIIIIII"
        raw = []
        if shoff:
            first = self._unpack(shfmt, shoff)
            if shnum == 0:              # extended numbering: count in section 0
                shnum = first[5]
            if shstrndx == 0xffff:
                shstrndx = first[6]
            for i in range(shnum):
                raw.append(self._unpack(shfmt, shoff + i * shentsize))
        names = b""
        if raw and shstrndx < len(raw):
            s = raw[shstrndx]
            names = self._bytes(s[4], s[5])
        self.sections = []
        for i, (nm, typ, flags, addr, off, size, link, info, _al, entsize) in enumerate(raw):
            self.sections.append(Section(i, _cstr(names, nm), typ, flags, addr, off,
                                         size, link, info, entsize))
        self.segments = []
        for i in range(phnum if phoff else 0):
            p = self._unpack(phfmt, phoff + i * phentsize)
            if self.bits == 64:
                typ, flags, off, vaddr, paddr, filesz, memsz, _al = p
            else:
                typ, off, vaddr, paddr, filesz, memsz, flags, _al = p
            self.segments.append(Segment(typ, flags, off, vaddr, paddr, filesz, memsz))
        self.symbols = []
        symfmt = "IBBHQQ" if self.bits == 64 else "IIIBBH"
        for s in self.sections:
            if s.type != SHT_SYMTAB or not s.entsize:
                continue
            strtab = self.sections[s.link]
            strs = self._bytes(strtab.offset, strtab.size)
            stt_file = None
            for k in range(s.size // s.entsize):
                f = self._unpack(symfmt, s.offset + k * s.entsize)
                if self.bits == 64:
                    nm, info, _o, shndx, value, size = f
                else:
                    nm, value, size, info, _o, shndx = f
                typ, bind = info & 0xf, info >> 4
                name = _cstr(strs, nm)
                if typ == STT_FILE:
                    stt_file = name or None
                    continue
                if k == 0:
                    continue
                self.symbols.append(Symbol(name, value, size, typ, bind, shndx,
                                           stt_file if bind == STB_LOCAL else None))

    # ---- symbols -----------------------------------------------------------------

    def _is_code(self, shndx):
        return (SHN_UNDEF < shndx < SHN_LORESERVE and shndx < len(self.sections)
                and self.sections[shndx].flags & SHF_EXECINSTR)

    def functions(self):
        """Function symbols sorted by address (the preferred name first among
        names of one address): [Func(addr, size, name, file, bind, type)]."""
        if self._funcs is None:
            out = []
            for s in self.symbols:
                if (s.type in (STT_FUNC, STT_NOTYPE) and s.name and self._is_code(s.shndx)
                        and not s.name.startswith(("$", ".L"))):
                    out.append(Func(s.addr, s.size, s.name,
                                    self.unit_file(s.addr) or s.stt_file, s.bind, s.type))
            # Names of one address: as the image's own table chose before
            # issue 10 (the last in `nm -n` order), a FUNC and a global first.
            out.sort(key=lambda f: f.name, reverse=True)
            out.sort(key=lambda f: (f.addr, f.type != STT_FUNC,
                                    {STB_GLOBAL: 0, STB_WEAK: 1}.get(f.bind, 2)))
            self._funcs = out
            self._starts = []
            self._groups = []
            for f in out:
                if self._starts and self._starts[-1] == f.addr:
                    self._groups[-1].append(f)
                else:
                    self._starts.append(f.addr)
                    self._groups.append([f])
        return self._funcs

    def function_at(self, addr):
        """([Func, ...], offset): every name of the function that holds
        addr, the preferred one first; or None."""
        self.functions()
        i = bisect.bisect_right(self._starts, addr) - 1
        if i < 0:
            return None
        # The innermost sized function (an unsized label inside a sized
        # function must not hide it) ...
        for j in range(i, -1, -1):
            size = max(f.size for f in self._groups[j])
            if size and addr < self._starts[j] + size:
                return self._groups[j], addr - self._starts[j]
        # ... else the nearest label when it has no size (assembly).
        if max(f.size for f in self._groups[i]) == 0:
            return self._groups[i], addr - self._starts[i]
        return None

    def lookup(self, addr):
        """(name, offset) of the function that holds addr, or None."""
        hit = self.function_at(addr)
        return None if hit is None else (hit[0][0].name, hit[1])

    def symbol(self, name):
        """The defined symbol NAME (a global before a local), or None."""
        best = None
        for s in self.symbols:
            if s.name == name and s.shndx != SHN_UNDEF and s.type not in (STT_SECTION,):
                if best is None or (best.bind == STB_LOCAL and s.bind != STB_LOCAL):
                    best = s
        return best

    def address(self, name):
        """(addr, size) of the defined symbol NAME, or None."""
        s = self.symbol(name)
        return None if s is None else (s.addr, s.size)

    # ---- bytes ---------------------------------------------------------------------

    def section(self, name):
        for s in self.sections:
            if s.name == name:
                return s
        return None

    def section_data(self, name):
        """The file bytes of section NAME (b"" for NOBITS), or None."""
        s = self.section(name)
        if s is None:
            return None
        return b"" if s.type == SHT_NOBITS else self._bytes(s.offset, s.size)

    def file_offset(self, addr, size=1):
        """File offset of the linked address addr in a PROGBITS section, or None."""
        for s in self.sections:
            if (s.type == SHT_PROGBITS and s.flags & SHF_ALLOC and s.addr <= addr
                    and addr + size <= s.addr + s.size):
                return s.offset + addr - s.addr
        return None

    def read(self, addr, size):
        """size bytes at the linked address addr, or None."""
        o = self.file_offset(addr, size)
        return None if o is None else self.data[o:o + size]

    def flat_image(self):
        """(first load address, bytes) as `objcopy -O binary` lays them out:
        the allocated sections with file contents at their load addresses
        (PT_LOAD's paddr), gaps zero-filled."""
        parts = []
        for s in self.sections:
            if s.type == SHT_NOBITS or not s.flags & SHF_ALLOC or not s.size:
                continue
            lma = s.addr
            for p in self.segments:
                if p.type == PT_LOAD and p.offset <= s.offset < p.offset + p.filesz:
                    lma = p.paddr + s.offset - p.offset
            parts.append((lma, self._bytes(s.offset, s.size)))
        if not parts:
            return 0, b""
        parts.sort()
        base = parts[0][0]
        out = bytearray(max(a + len(b) for a, b in parts) - base)
        for a, b in parts:
            out[a - base:a - base + len(b)] = b
        return base, bytes(out)

    # ---- source files from DWARF -------------------------------------------------

    def unit_file(self, addr):
        """Source file of the compilation unit whose code holds addr
        (comp_dir/name, as `nm -l` prints it), or None."""
        if self._units is None:
            try:
                self._units = self._read_aranges()
            except (struct.error, IndexError, ValueError, KeyError):
                self._units = ([], [])      # damaged debug info: no files
        starts, ranges = self._units
        i = bisect.bisect_right(starts, addr) - 1
        if i >= 0 and addr < ranges[i][1]:
            return ranges[i][2]
        return None

    def _read_aranges(self):
        ar = self.section_data(".debug_aranges")
        if not ar or self.type == ET_REL:      # unrelocated DWARF: no use
            return [], []
        names = {}
        ranges = []
        o = 0
        while o + 4 <= len(ar):
            unit = o
            length, = struct.unpack_from(self.endian + "I", ar, o)
            offsz = 4
            o += 4
            if length == 0xffffffff:
                length, = struct.unpack_from(self.endian + "Q", ar, o)
                o += 8
                offsz = 8
            end = o + length
            _ver, = struct.unpack_from(self.endian + "H", ar, o)
            info_off, = struct.unpack_from(self.endian + ("I" if offsz == 4 else "Q"), ar, o + 2)
            asz, segsz = ar[o + 2 + offsz], ar[o + 3 + offsz]
            o += 4 + offsz
            tup = 2 * asz + segsz
            o = unit + -(-(o - unit) // (2 * asz)) * (2 * asz)
            afmt = self.endian + {4: "I", 8: "Q"}[asz]
            if info_off not in names:
                names[info_off] = self._unit_name(info_off)
            while o + tup <= end:
                a, = struct.unpack_from(afmt, ar, o + segsz)
                n, = struct.unpack_from(afmt, ar, o + segsz + asz)
                o += tup
                # (0, 0) ends the list, but GCC also leaves one for code
                # the link dropped: read to the unit's end.
                if names[info_off] and n:
                    ranges.append((a, a + n, names[info_off]))
            o = end
        ranges.sort()
        return [r[0] for r in ranges], ranges

    def _unit_name(self, off):
        """comp_dir/name of the compilation unit at .debug_info offset off."""
        info = self.section_data(".debug_info")
        abbrev = self.section_data(".debug_abbrev")
        if not info or not abbrev:
            return None
        e = self.endian
        length, = struct.unpack_from(e + "I", info, off)
        o, offsz = off + 4, 4
        if length == 0xffffffff:
            o, offsz = off + 12, 8
        ver, = struct.unpack_from(e + "H", info, o)
        ofmt = e + ("I" if offsz == 4 else "Q")
        if ver >= 5:
            asz = info[o + 3]
            aoff, = struct.unpack_from(ofmt, info, o + 4)
            o += 4 + offsz
        else:
            aoff, = struct.unpack_from(ofmt, info, o + 2)
            asz = info[o + 2 + offsz]
            o += 3 + offsz
        code, o = _uleb(info, o)
        # The abbreviation of the unit's first DIE.
        a = aoff
        while True:
            c, a = _uleb(abbrev, a)
            if c == 0:
                return None
            _tag, a = _uleb(abbrev, a)
            a += 1                              # children flag
            specs = []
            while True:
                at, a = _uleb(abbrev, a)
                form, a = _uleb(abbrev, a)
                if at == 0 and form == 0:
                    break
                if form == 0x21:                # implicit_const
                    _v, a = _sleb(abbrev, a)
                specs.append((at, form))
            if c == code:
                break
        vals = {}
        for at, form in specs:
            v, o = self._form(info, o, form, offsz, asz)
            if at in (0x03, 0x1b):              # DW_AT_name, DW_AT_comp_dir
                vals[at] = v
        name, cdir = vals.get(0x03), vals.get(0x1b)
        if not isinstance(name, str):
            return None
        if isinstance(cdir, str) and not os.path.isabs(name):
            return os.path.join(cdir, name)
        return name

    def _form(self, d, o, form, offsz, asz):
        """(value, next offset) of one attribute; strings decoded, others
        skipped (None)."""
        e = self.endian
        ofmt = e + ("I" if offsz == 4 else "Q")
        fixed = {0x01: asz, 0x05: 2, 0x06: 4, 0x07: 8, 0x0b: 1, 0x0c: 1, 0x10: offsz,
                 0x11: 1, 0x12: 2, 0x13: 4, 0x14: 8, 0x17: offsz, 0x19: 0, 0x1c: 4,
                 0x1e: 16, 0x20: 8, 0x21: 0, 0x24: 8, 0x25: 1, 0x26: 2, 0x27: 3,
                 0x28: 4, 0x29: 1, 0x2a: 2, 0x2b: 3, 0x2c: 4}
        if form == 0x08:                        # string
            end = d.index(b"\0", o)
            return d[o:end].decode("utf-8", "replace"), end + 1
        if form in (0x0e, 0x1f, 0x1d):          # strp, line_strp, strp_sup
            p, = struct.unpack_from(ofmt, d, o)
            sec = self.section_data(".debug_line_str" if form == 0x1f else ".debug_str")
            return (_cstr(sec, p) if sec else None), o + offsz
        if form in fixed:
            return None, o + fixed[form]
        if form in (0x0d,):                     # sdata
            return None, _sleb(d, o)[1]
        if form in (0x0f, 0x15, 0x1a, 0x1b, 0x22, 0x23):   # uleb forms
            return None, _uleb(d, o)[1]
        if form in (0x09, 0x18):                # block, exprloc
            n, o = _uleb(d, o)
            return None, o + n
        if form in (0x0a, 0x03, 0x04):          # block1, block2, block4
            w = {0x0a: 1, 0x03: 2, 0x04: 4}[form]
            n = int.from_bytes(d[o:o + w], "little" if e == "<" else "big")
            return None, o + w + n
        raise ValueError(f"DWARF form 0x{form:x}")


def _cstr(buf, off):
    end = buf.find(b"\0", off)
    if end < 0:
        end = len(buf)
    return buf[off:end].decode("utf-8", "replace")


def _leb(d, o, signed=False):
    """(value, next offset) of the LEB128 number at d[o]."""
    v = shift = 0
    while True:
        b = d[o]
        o += 1
        v |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            if signed and b & 0x40:
                v -= 1 << shift
            return v, o


def _uleb(d, o):
    return _leb(d, o)


def _sleb(d, o):
    return _leb(d, o, True)


# ---- symbolizing a log ------------------------------------------------------------

HEX = re.compile(rb"(?<![0-9A-Za-z_])0x([0-9a-fA-F]+)(?![0-9A-Za-z_])(?! <)")
# The fields the image named a function for before issue 10, "<?>" included.
ALWAYS = (b"sepc=", b"ra=")


def symbolize_line(elf, line):
    """line (bytes) with " <sym+0xoff>" after each code address, when it is
    a TRAP: line; any other line unchanged."""
    if not line.lstrip(b"\r").startswith(b"TRAP: "):
        return line

    def sub(m):
        hit = elf.lookup(int(m.group(1), 16))
        if hit:
            return m.group(0) + b" <%s+0x%x>" % (hit[0].encode(), hit[1])
        before = line[max(0, m.start() - 6):m.start()]
        if before.endswith(ALWAYS) and not before.endswith(b"_ra="):
            return m.group(0) + b" <?>"
        return m.group(0)

    return HEX.sub(sub, line)


def cmd_symbolize(elf, src):
    out = sys.stdout.buffer
    while True:
        line = src.readline()
        if not line:
            break
        try:
            line = symbolize_line(elf, line)
        except Exception:                       # never lose a line of the log
            pass
        out.write(line)
        out.flush()
    return 0


# ---- command line ------------------------------------------------------------------

USAGE = """usage: elf.py symbolize ELF [LOG]
       elf.py sym ELF ADDR
       elf.py addr ELF NAME
       elf.py functions ELF"""


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__ if argv else USAGE, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    cmd, args = argv[0], argv[1:]
    nargs = {"symbolize": (1, 2), "sym": (2, 2), "addr": (2, 2), "functions": (1, 1)}
    if cmd not in nargs or not nargs[cmd][0] <= len(args) <= nargs[cmd][1]:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        elf = Elf(args[0])
        if cmd == "symbolize":
            if len(args) == 2:
                try:
                    src = open(args[1], "rb")
                except OSError as e:
                    raise ElfError(f"cannot read {args[1]}: {e.strerror}")
                with src:
                    return cmd_symbolize(elf, src)
            return cmd_symbolize(elf, sys.stdin.buffer)
        if cmd == "sym":
            try:
                addr = int(args[1], 16)
            except ValueError:
                raise ElfError(f"not a hex address: {args[1]}")
            hit = elf.lookup(addr)
            if hit is None:
                print("?")
                return 1
            print(f"{hit[0]}+0x{hit[1]:x}")
            return 0
        if cmd == "addr":
            a = elf.address(args[1])
            if a is None:
                print(f"{PROG}: {args[0]} has no symbol {args[1]}", file=sys.stderr)
                return 1
            print(f"0x{a[0]:x} {a[1]}")
            return 0
        if cmd == "functions":
            for f in elf.functions():
                print(f"0x{f.addr:x} {f.size} {f.name}" + (f" {f.file}" if f.file else ""))
            return 0
    except ElfError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
