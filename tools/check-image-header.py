#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check the RISC-V Linux-style Image header of a wordmerge .bin.

U-Boot's booti starts an image only if it carries the 64-byte header of the
Linux kernel's Documentation/riscv/boot-image-header.rst:

  off size field
    0   4  code0        executable code: here a jump over the header
    4   4  code1        executable code
    8   8  text_offset  image load offset from the start of RAM (LE)
   16   8  image_size   effective image size, BSS included (LE)
   24   8  flags        bit 0: 0 = little-endian kernel
   32   4  version      (major << 16) | minor; 0.2 is current
   36   4  res1         reserved, 0
   40   8  res2         reserved, 0
   48   8  magic        "RISCV\\0\\0\\0" (deprecated since 0.2)
   56   4  magic2       "RSC\\x05"
   60   4  res3         reserved for the PE/COFF header offset, 0 here

booti (U-Boot arch/riscv/lib/image.c) rejects an image whose magic2 is wrong
or whose image_size is 0, then moves it to RAM base + text_offset whenever it
was loaded inside RAM, and reserves image_size bytes there.  So besides the
fields, this checks that RAM base + text_offset is the address the ELF is
linked at (the image is not position independent) and that image_size covers
everything the image uses: _end - _start from the ELF, at least the file;
and that the file is the ELF's loaded bytes (what objcopy -O binary makes).
The ELF is read with tools/elf.py.

Usage: check-image-header.py --bin FILE --elf FILE --ram-base ADDR [--name LABEL]
Prints a FAIL: line per failed check (every check with --verbose) and one
PASS:/FAIL: verdict; exits 1 if any check failed.
"""

import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf as elfmod  # noqa: E402  (tools/elf.py)

HEADER = struct.Struct("<IIQQQIIQ8sII")
MAGIC = b"RISCV\0\0\0"
MAGIC2 = 0x05435352  # "RSC\x05" read little-endian
VERSION_0_2 = (0 << 16) | 2


def decode_jal(insn):
    """(rd, byte offset) of a 32-bit JAL instruction, or None."""
    if insn & 0x7F != 0x6F:
        return None
    rd = (insn >> 7) & 0x1F
    imm = (((insn >> 31) & 1) << 20 | ((insn >> 12) & 0xFF) << 12
           | ((insn >> 20) & 1) << 11 | ((insn >> 21) & 0x3FF) << 1)
    if imm & (1 << 20):
        imm -= 1 << 21
    return rd, imm


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the raw image (objcopy -O binary)")
    ap.add_argument("--elf", required=True, help="the ELF it was made from")
    ap.add_argument("--ram-base", required=True, type=lambda s: int(s, 0),
                    help="start of the board's RAM (U-Boot's gd->ram_base)")
    ap.add_argument("--name", default=None, help="label for the output lines")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print every check, not only the failed ones")
    args = ap.parse_args()
    name = args.name or args.bin

    with open(args.bin, "rb") as f:
        data = f.read()
    if len(data) < HEADER.size:
        print(f"FAIL: {name}: {len(data)} bytes, shorter than the {HEADER.size}-byte header")
        return 1
    (code0, code1, text_offset, image_size, flags, version, res1, res2,
     magic, magic2, res3) = HEADER.unpack_from(data)
    try:
        elf = elfmod.Elf(args.elf)
    except elfmod.ElfError as e:
        print(f"FAIL: {name}: {e}")
        return 1

    def sym(n):
        a = elf.address(n)
        return None if a is None else a[0]

    entry = elf.entry
    start, end, load_end = sym("_start"), sym("_end"), sym("_load_end")

    failed = 0

    def check(ok, what):
        nonlocal failed
        if args.verbose or not ok:
            print(f"{'PASS' if ok else 'FAIL'}: {name}: {what}")
        failed += not ok

    if start is None or end is None:
        check(False, "the ELF has no _start or _end symbol")
        return 1
    size = len(data)
    jal = decode_jal(code0)
    if jal is None or jal[0] != 0:
        check(False, f"code0 0x{code0:08x} is not a jump (jal x0)")
    else:
        target = jal[1]
        check(HEADER.size <= target < size,
              f"code0 0x{code0:08x} jumps over the header to image+0x{target:x}")
    check(entry == start, f"ELF entry 0x{entry:x} is _start 0x{start:x}, the header's first byte")
    check(magic == MAGIC, f"magic {magic!r} (want {MAGIC!r})")
    check(magic2 == MAGIC2, f"magic2 {struct.pack('<I', magic2)!r} (want b'RSC\\x05')")
    check(version == VERSION_0_2,
          f"version {version >> 16}.{version & 0xFFFF} (want 0.2)")
    check(flags == 0, f"flags 0x{flags:x} (bit 0 clear: little-endian)")
    check(res1 == 0 and res2 == 0 and res3 == 0,
          f"reserved fields 0 (res1 {res1}, res2 {res2}, res3 {res3}: no PE/COFF header)")
    check(args.ram_base + text_offset == start,
          f"text_offset 0x{text_offset:x}: RAM base 0x{args.ram_base:x} + text_offset"
          f" = 0x{args.ram_base + text_offset:x}, where booti puts it; linked at 0x{start:x}")
    check(image_size != 0 and image_size == end - start,
          f"image_size 0x{image_size:x} = _end - _start 0x{end - start:x} (BSS and stacks included)")
    check(image_size >= size,
          f"image_size 0x{image_size:x} >= file size 0x{size:x}")
    if load_end is not None:
        check(size == load_end - start,
              f"file size 0x{size:x} = _load_end - _start (the whole loaded image, nothing else)")
    # The bytes objcopy -O binary makes: each PT_LOAD's file bytes at its
    # load address, the gaps zero.
    loads = [(paddr, data) for paddr, _, data in elf.loads() if data]
    base = min((p for p, _ in loads), default=0)
    flat = bytearray(max((p + len(d) for p, d in loads), default=base) - base)
    for p, d in loads:
        flat[p - base:p - base + len(d)] = d
    check(base == start and data == flat,
          f"the file is the ELF's loaded bytes from 0x{base:x} ({len(flat)} bytes"
          f"{', equal' if data == flat else ', differ'})")
    if failed:
        print(f"FAIL: {name}: {failed} header check(s) failed: booti would refuse or misplace it")
        return 1
    print(f"PASS: {name}: RISC-V Image header good for booti: code0 j +0x{jal[1]:x},"
          f" version 0.2, flags 0 (LE), magic RISCV + RSC\\x05, text_offset 0x{text_offset:x}"
          f" (RAM 0x{args.ram_base:x} + it = link address 0x{start:x}),"
          f" image_size 0x{image_size:x} = _end - _start (file 0x{size:x})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
