#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""ELF facts from pyelftools (Debian's, it imports only under /usr/bin/python3).
wmlog.Error: no readable ELF, or a stripped one where names are needed.
  symbolize ELF [LOG]   copy LOG (or stdin) a line at a time, naming the code
      addresses of "TRAP: " lines " <sym+0xoff>" (elf.whose; " <?>": sepc=, ra= in none);
      exit 2 after a "BANNER: build-id" that is not ELF's (no more names)
  check ELF --load-addr ADDR   exit 1, one line on stderr, unless ELF is a whole
      RISC-V 64-bit little-endian ELF entered and loaded at ADDR
  user OBJ              exit 1, why on stdout, unless the image links OBJ as a user's: RV64
      soft-float, relocatable, its memcpy/memmove/memset functions, nothing undefined
  functions ELF         "0xADDR SIZE NAME" of every function, " lib" after lib's
  header --bin BIN --elf ELF --ram-base ADDR [--name NAME] [-v]   BIN's RISC-V Image
      header as U-Boot's booti reads it, against ELF: a FAIL: line per failed check
      (every check with -v), then one PASS:/FAIL: verdict; exit 1 if any check failed.
Bad usage, other errors: exit 2."""

import argparse
import bisect
import collections
import fnmatch
import glob
import os
import re
import struct
import sys

from elftools.elf.constants import SH_FLAGS
from elftools.elf.descriptions import describe_e_machine, describe_e_type
from elftools.elf.elffile import ELFFile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wmlog  # noqa: E402  (tools/wmlog.py: the one error class, the one error line)
from wmlog import Error  # noqa: E402

Func = collections.namedtuple("Func", "addr size name type")
LIB, LIB_FILE = ("memcpy", "memmove", "memset", "wm_*"), "lib/wordmerge.c"  # its own are wm_*
FLOAT_ABI = {2: "single-float", 4: "double-float", 6: "quad-float"}     # e_flags bits 1-2


def is_lib(name, aliases=True):  # aliases: memcpy etc., the image's names of wm_memcpy etc.
    return any(fnmatch.fnmatchcase(name, p) for p in LIB[0 if aliases else 3:])


def find(top, bid):
    """The image under TOP ($O: virt/ and the board builds, an IMPL= build's too, and bench-*/'s)
    whose build id is BID, a log's; None if none is."""
    dirs = (glob.glob(f"{glob.escape(top)}/{d}/wordmerge.elf") for d in ("*", "bench-*/*"))
    return next((p for ps in dirs for p in sorted(ps) if bid and Elf(p).build_id() == bid), None)


class Elf:
    def __init__(self, path):
        self.path, self._funcs = path, None
        try:
            self.f = open(path, "rb")
            self.elf = ELFFile(self.f)
        except Exception as e:          # OSError, pyelftools' own and its parser's
            why = getattr(e, "strerror", None) or e
            raise Error(f"cannot read {path} as an ELF file ({why})")
        self.entry = self.elf.header.e_entry

    def not_rv64(self):
        """Why this is not RISC-V 64-bit little-endian, or None."""
        e = self.elf
        return ("a big-endian object: RISC-V is little-endian" if not e.little_endian else
                f"a 32-bit (ELF{e.elfclass}) object: the image is RV64" if e.elfclass != 64 else
                None if e.header.e_machine == "EM_RISCV" else
                f"an object for {describe_e_machine(e.header.e_machine)}, not RISC-V")

    def loads(self):
        """[(paddr, vaddr, file bytes)] of the PT_LOADs."""
        return [(p.header.p_paddr, p.header.p_vaddr, p.data())
                for p in self.elf.iter_segments() if p.header.p_type == "PT_LOAD"]

    def read(self, addr, size):     # bytes at a linked address, or None
        return next((d[addr - v:addr - v + size] for _, v, d in self.loads()
                     if v <= addr and addr + size <= v + len(d)), None)

    def build_id(self):
        s = self.elf.get_section_by_name(".note.gnu.build-id")
        return next((n.n_desc for n in s.iter_notes() if n.n_type == "NT_GNU_BUILD_ID"),
                    None) if s else None

    def wrote(self, log, build_id, memcpy_addr=None):
        """Error unless this is the image that wrote LOG: the log's build id (BANNER:) and
        memcpy's address (CSV:meta), where the log gives them."""
        ours, at = self.build_id(), memcpy_addr and self.address("memcpy")[0]
        if build_id and build_id != ours or at and at != int(memcpy_addr, 16):
            raise Error(f"{self.path} is not the image that wrote {log}: " + (
                f"memcpy at 0x{at:x}, the log says {memcpy_addr}" if ours == build_id or not
                build_id else f"its build id is {ours or 'absent'}, the log's {build_id}"))

    def _symbols(self):
        tab = self.elf.get_section_by_name(".symtab")
        if tab is None:
            raise Error(f"{self.path} has no symbol table (stripped?): no function names")
        return [s for s in tab.iter_symbols() if s.name and s.entry.st_shndx != "SHN_UNDEF"]

    def address(self, name):
        """(addr, size) of the symbol name, a global before a local."""
        syms = sorted((s.entry.st_info.bind == "STB_LOCAL", s.entry.st_value, s.entry.st_size)
                      for s in self._symbols() if s.name == name)
        if not syms:
            raise Error(f"{self.path} has no symbol {name}")
        return syms[0][1:]

    def code(self, e, any_section=None):
        """The name of the section holding symbol entry e if it holds code (or any_section)."""
        sec = self.elf.get_section(e.st_shndx) if isinstance(e.st_shndx, int) else None
        return sec and (any_section or sec.header.sh_flags & SH_FLAGS.SHF_EXECINSTR) and sec.name

    def functions(self):
        """Code symbols (FUNC; NOTYPE: assembly) by address, each address's names a FUNC, a
        global, the shortest, then the last by name (_start, not _image_start; memcpy, not its
        alias wm_memcpy) first."""
        if self._funcs is None:
            out = []
            for s in self._symbols():
                e = s.entry
                if (e.st_info.type in ("STT_FUNC", "STT_NOTYPE") and self.code(e)
                        and not s.name.startswith(("$", ".L"))):
                    rank = {"STB_GLOBAL": 0, "STB_WEAK": 1}.get(e.st_info.bind, 2)
                    out.append((e.st_value, e.st_info.type != "STT_FUNC", rank,
                                Func(e.st_value, e.st_size, s.name, e.st_info.type)))
            out.sort(key=lambda t: t[3].name, reverse=True)
            self._funcs = [t[3] for t in sorted(out, key=lambda t: (*t[:3], len(t[3].name)))]
            self._starts = [f.addr for f in self._funcs]
        return self._funcs

    def lookup(self, addr):
        user, names, off = self.whose(addr)
        return f"{names[0]}+0x{off:x}" if names else user and f"user_{user}.o+0x{off:x}"

    def owners(self):
        """{NAME: (start, end)} of each user's object: its own output section .user.NAME."""
        return {s.name[6:]: (s["sh_addr"], s["sh_addr"] + s["sh_size"])
                for s in self.elf.iter_sections() if s.name.startswith(".user.")}

    def whose(self, addr):
        """(user, names, offset) of addr by where it lies: its user's NAME (or None); the names of
        the function holding it (innermost sized, else an unsized label below) if of that object
        as the build named it, and the offset; else [], the offset in the user's object or None."""
        funcs, i = self.functions(), bisect.bisect_right(self._starts, addr)
        inside = [f.addr for f in funcs[:i] if f.size and addr < f.addr + f.size]
        if not inside and i and not any(f.size for f in funcs if f.addr == self._starts[i - 1]):
            inside = [self._starts[i - 1]]
        own = lambda a: next((n for n, (lo, hi) in self.owners().items() if lo <= a < hi), None)
        user, at = own(addr), inside and inside[-1]
        names = [f.name for f in funcs if inside and f.addr == at and own(at) == user and (
            not user or f.name.startswith((f"user_{user}_", f"user_{user}.")))]
        return user, names, addr - at if names else user and addr - self.owners()[user][0]

def check(path, load_addr):
    """Error unless QEMU can boot path at load_addr."""
    elf = Elf(path)
    h, e, size = elf.elf.header, elf.elf, os.fstat(elf.f.fileno()).st_size
    loads = [p.header for p in e.iter_segments() if p.header.p_type == "PT_LOAD"]
    low = min((p.p_paddr for p in loads), default=0)
    if elf.not_rv64():
        raise Error(f"{path} is not a RISC-V 64-bit little-endian ELF: {elf.not_rv64()}")
    if any(p.p_offset + p.p_filesz > size for p in loads):
        raise Error(f"{path} is truncated: its PT_LOAD bytes go past the end of the file "
                       f"({size} bytes)")
    if h.e_entry != load_addr or low != load_addr:
        raise Error(f"{path} is linked for another platform: entry 0x{h.e_entry:x}, lowest "
                       f"PT_LOAD 0x{low:x}, not this one's load address 0x{load_addr:x}")


def user(path):
    """Why the image cannot link path as a user's object, or None."""
    try:
        elf = Elf(path)
        h, syms = elf.elf.header, list(elf.elf.get_section_by_name(".symtab").iter_symbols())
    except (Error, AttributeError):     # no ELF, no symbol table
        return "not an ELF object"
    abi, three = FLOAT_ABI.get(h.e_flags & 6), LIB[:3]
    undef = [s.name for s in syms if s.entry.st_shndx == "SHN_UNDEF" and s.name]
    ours = [s for s in syms if s.name in three and s.entry.st_shndx != "SHN_UNDEF"
            and s.entry.st_info.bind != "STB_LOCAL"]
    bad = [s for s in ours if s.entry.st_info.type != "STT_FUNC" or not elf.code(s.entry)]
    kind = bad and (bad[0].entry.st_info.type, elf.code(bad[0].entry, any) or "no section")
    return (elf.not_rv64()
            or h.e_type != "ET_REL" and f"not a relocatable object: {describe_e_type(h.e_type)}"
            or abi and f"a hard-float ABI object (flags 0x{h.e_flags:x}, {abi} ABI): the image "
            "is lp64, soft-float (build it with -march=rv64imac -mabi=lp64)"
            or bad and f"{bad[0].name} is not a function: %s in %s (a function is STT_FUNC in "
            f".text; assembly: .type {bad[0].name}, @function)" % kind
            or not ours and "defines none of memcpy, memmove, memset"
            or undef and f"needs {' '.join(undef)} (undefined; the image is freestanding, and "
            "its functions run in U-mode, where they reach no code but the file's own)")


# 64 bytes, little-endian: code0 (a jump over the header), code1, text_offset, image_size, flags
# (bit 0 clear: little-endian), version ((major << 16) | minor), res1, res2, magic, magic2, res3.
HEADER = struct.Struct("<IIQQQIIQ8sII")
MAGIC, MAGIC2 = b"RISCV\0\0\0", 0x05435352     # magic2: "RSC\x05" read little-endian


def header(argv):
    """The Image header as booti reads it (the Linux kernel's Documentation/riscv/
    boot-image-header.rst, U-Boot's arch/riscv/lib/image.c): booti refuses a wrong magic2
    or an image_size of 0, then moves an image loaded inside RAM to RAM base + text_offset
    and reserves image_size bytes there.  So besides the header's fields: RAM base +
    text_offset is where the ELF is linked (the image is not position independent),
    image_size is _end - _start and covers the file, and the file is the ELF's loaded
    bytes (what objcopy -O binary makes)."""
    ap = argparse.ArgumentParser(prog="elf.py header")
    ap.add_argument("--bin", required=True, help="the image (objcopy -O binary of the ELF)")
    ap.add_argument("--elf", required=True)
    ap.add_argument("--ram-base", required=True, type=lambda s: int(s, 0),
                    help="start of the board's RAM (U-Boot's gd->ram_base)")
    ap.add_argument("--name", help="label for the output lines (default: the .bin's path)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every check")
    args = ap.parse_args(argv)
    name, ram = args.name or args.bin, args.ram_base
    try:
        with open(args.bin, "rb") as f:
            data = f.read()
        if len(data) < HEADER.size:
            raise ValueError(f"{len(data)} bytes, shorter than the {HEADER.size}-byte header")
        elf = Elf(args.elf)
        start, end, load_end = (elf.address(s)[0] for s in ("_start", "_end", "_load_end"))
    except (OSError, ValueError, Error) as e:
        why = f"cannot read {e.filename}: {e.strerror}" if isinstance(e, OSError) else e
        print(f"FAIL: {name}: {why}")
        return 1
    code0, _, offset, isize, flags, version, res1, res2, magic, magic2, res3 = \
        HEADER.unpack_from(data)
    # code0's jump: a `jal x0` (j) and its offset, the J-type immediate's bits put together
    imm = ((code0 >> 31) & 1) << 20 | ((code0 >> 12) & 0xFF) << 12 \
        | ((code0 >> 20) & 1) << 11 | ((code0 >> 21) & 0x3FF) << 1
    size, jump = len(data), None if code0 & 0xFFF != 0x06F else imm - (imm >> 20 << 21)
    # What objcopy -O binary makes: each PT_LOAD's file bytes at its load address, gaps zero.
    loads = [(paddr, d) for paddr, _, d in elf.loads() if d]
    base = min((p for p, _ in loads), default=0)
    flat = bytearray(max((p + len(d) for p, d in loads), default=base) - base)
    for p, d in loads:
        flat[p - base:p - base + len(d)] = d
    checks = [
        (jump is not None and HEADER.size <= jump < size, f"code0 0x{code0:08x} is not a jump "
         "(jal x0)" if jump is None else f"code0 0x{code0:08x} jumps over the header to "
         f"image+0x{jump:x}"),
        (elf.entry == start, f"ELF entry 0x{elf.entry:x} is _start 0x{start:x}, the header's "
         "first byte"),
        (magic == MAGIC, f"magic {magic!r} (want {MAGIC!r})"),
        (magic2 == MAGIC2, f"magic2 {struct.pack('<I', magic2)!r} (want b'RSC\\x05')"),
        (version == 2, f"version {version >> 16}.{version & 0xFFFF} (want 0.2)"),
        (flags == 0, f"flags 0x{flags:x} (bit 0 clear: little-endian)"),
        (res1 == res2 == res3 == 0, f"reserved fields 0 (res1 {res1}, res2 {res2}, res3 {res3}: "
         "no PE/COFF header)"),
        (ram + offset == start, f"text_offset 0x{offset:x}: RAM base 0x{ram:x} + text_offset = "
         f"0x{ram + offset:x}, where booti puts it; linked at 0x{start:x}"),
        (isize != 0 and isize == end - start, f"image_size 0x{isize:x} = _end - _start "
         f"0x{end - start:x} (BSS and stacks included)"),
        (isize >= size, f"image_size 0x{isize:x} >= file size 0x{size:x}"),
        (size == load_end - start, f"file size 0x{size:x} = _load_end - _start (the whole "
         "loaded image, nothing else)"),
        (base == start and data == flat, f"the file is the ELF's loaded bytes from 0x{base:x} "
         f"({len(flat)} bytes{', equal' if data == flat else ', differ'})")]
    for ok, what in checks:
        if args.verbose or not ok:
            print(f"{'PASS' if ok else 'FAIL'}: {name}: {what}")
    failed = sum(not ok for ok, _ in checks)
    if failed:
        print(f"FAIL: {name}: {failed} header check(s) failed: booti would refuse or misplace it")
        return 1
    print(f"PASS: {name}: RISC-V Image header good for booti: code0 j +0x{jump:x}, version 0.2, "
          f"flags 0 (LE), magic RISCV + RSC\\x05, text_offset 0x{offset:x} (RAM 0x{ram:x} + it "
          f"= link address 0x{start:x}), image_size 0x{isize:x} = _end - _start (file "
          f"0x{size:x})")
    return 0


HEX = re.compile(rb"(?<![0-9A-Za-z_])0x([0-9a-fA-F]+)(?![0-9A-Za-z_])(?! <)")
BUILD_ID = re.compile(rb"\r*BANNER: build-id ([0-9a-f]*)\r?\n?$")


def symbolize(elf, src, out):
    """Copy src to out a line at a time (a live run's output), never losing
    one: whatever goes wrong, the rest is copied as it is."""
    status = 0

    def name(m):
        sym = elf.lookup(int(m.group(1), 16))
        before = m.string[max(0, m.start() - 6):m.start()]
        if not sym and before.endswith((b"sepc=", b"ra=")) and not before.endswith(b"_ra="):
            sym = "?"           # the fields that the image's own table named
        return m.group(0) + (b" <%s>" % sym.encode() if sym else b"")

    for line in iter(src.readline, b""):
        m = BUILD_ID.match(line)
        try:
            if m and status == 0:
                elf.wrote("the log", m.group(1).decode())
        except Error as e:
            print(f"elf.py: error: {e}: its names would be wrong; the rest is copied without "
                  "names", file=sys.stderr)
            status = 2
        try:
            if status == 0 and line.lstrip(b"\r").startswith(b"TRAP: "):
                line = HEX.sub(name, line)
        except Error as e:   # stripped
            print(f"elf.py: note: {e}: the log is copied as it is", file=sys.stderr)
            status = None
        except Exception:
            pass
        out.write(line)
        out.flush()
    return status or 0


def main(argv):
    cmd, args = (argv[0], argv[1:]) if argv else ("", [])
    if cmd == "header":
        return header(args)
    nargs = {"symbolize": (1, 2), "functions": (1,), "check": (3,), "user": (1,)}
    if len(args) not in nargs.get(cmd, ()) or cmd == "check" and args[1] != "--load-addr":
        print(__doc__, file=sys.stderr)
        return 2
    try:
        if cmd == "check":
            return check(args[0], int(args[2], 0)) or 0
        if cmd == "user":   # the reason for its caller (firmware/impls.mk) to print
            why = user(args[0])
            return print(why) or 1 if why else 0
        elf = Elf(args[0])
        if cmd == "symbolize":
            with open(args[1], "rb") if len(args) == 2 else sys.stdin.buffer as src:
                return symbolize(elf, src, sys.stdout.buffer)
        for f in elf.functions():
            print(f"0x{f.addr:x} {f.size} {f.name}" + " lib" * is_lib(f.name))
        return 0
    except BrokenPipeError:
        return 0
    except (Error, ValueError, OSError) as e:     # ValueError: ADDR
        return wmlog.fail("elf.py", e, 1 if cmd == "check" and isinstance(e, Error) else 2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
