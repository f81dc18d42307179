#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check the RISC-V Image header of a wordmerge .bin as U-Boot's booti reads it (the Linux
kernel's Documentation/riscv/boot-image-header.rst, U-Boot's arch/riscv/lib/image.c): booti
refuses a wrong magic2 or an image_size of 0, then moves an image loaded inside RAM to RAM base
+ text_offset and reserves image_size bytes there.  So besides the header's fields this checks,
with the ELF's facts (tools/elf.py), that RAM base + text_offset is where the ELF is linked (the
image is not position independent), that image_size is _end - _start and covers the file, and
that the file is the ELF's loaded bytes (what objcopy -O binary makes).  A FAIL: line per failed
check (every check with -v), then one PASS:/FAIL: verdict; exit status 1 if any check failed.
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf as elfmod  # noqa: E402  (tools/elf.py)

# 64 bytes, little-endian: code0 (a jump over the header), code1, text_offset, image_size, flags
# (bit 0 clear: little-endian), version ((major << 16) | minor), res1, res2, magic, magic2, res3.
HEADER = struct.Struct("<IIQQQIIQ8sII")
MAGIC, MAGIC2 = b"RISCV\0\0\0", 0x05435352     # magic2: "RSC\x05" read little-endian


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bin", required=True, help="the image (objcopy -O binary of the ELF)")
    ap.add_argument("--elf", required=True)
    ap.add_argument("--ram-base", required=True, type=lambda s: int(s, 0),
                    help="start of the board's RAM (U-Boot's gd->ram_base)")
    ap.add_argument("--name", help="label for the output lines (default: the .bin's path)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every check")
    args = ap.parse_args()
    name, ram = args.name or args.bin, args.ram_base
    try:
        with open(args.bin, "rb") as f:
            data = f.read()
        if len(data) < HEADER.size:
            raise ValueError(f"{len(data)} bytes, shorter than the {HEADER.size}-byte header")
        elf = elfmod.Elf(args.elf)
        start, end, load_end = ((elf.address(s) or [None])[0] for s in ("_start", "_end",
                                                                        "_load_end"))
        if start is None or end is None:
            raise ValueError("the ELF has no _start or _end symbol")
    except (OSError, ValueError, elfmod.ElfError) as e:
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
        (isize >= size, f"image_size 0x{isize:x} >= file size 0x{size:x}")] + [
        (size == load_end - start, f"file size 0x{size:x} = _load_end - _start (the whole "
         "loaded image, nothing else)")] * (load_end is not None) + [
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


if __name__ == "__main__":
    sys.exit(main())
