#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a copy of a device tree blob whose one property names a string
outside the strings block: a tree that QEMU and OpenSBI still pass on (they
look properties up by name) but that the image must refuse, before it has
read where the test finisher is (tests/tests.cfg: exit-bad-tree).

    dtb-corrupt.py IN.dtb OUT.dtb NODE PROPERTY

NODE is the node's path without the leading slash (e.g. fw-cfg@10100000).
Python standard library only; writes OUT only when the property was found.
"""
import struct
import sys


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__.split("\n\n")[1].strip())
    src, dst, node, prop = argv[1:]
    b = bytearray(open(src, "rb").read())
    if len(b) < 40 or struct.unpack(">I", b[:4])[0] != 0xD00DFEED:
        sys.exit(f"dtb-corrupt.py: {src} is not a device tree blob")
    off_struct, off_strings = struct.unpack(">II", b[8:16])
    size_strings, size_struct = struct.unpack(">II", b[32:40])
    p, path, found = off_struct, [], False
    while p < off_struct + size_struct and not found:
        token = struct.unpack(">I", b[p:p + 4])[0]
        p += 4
        if token == 1:                      # FDT_BEGIN_NODE
            e = b.index(0, p)
            path.append(b[p:e].decode())
            p = (e + 4) & ~3
        elif token == 2:                    # FDT_END_NODE
            path.pop()
        elif token == 3:                    # FDT_PROP
            length, nameoff = struct.unpack(">II", b[p:p + 8])
            name = b[off_strings + nameoff:b.index(0, off_strings + nameoff)].decode()
            if "/".join(path[1:]) == node and name == prop:
                b[p + 4:p + 8] = struct.pack(">I", size_strings + 0x1000)
                found = True
            p += 8 + ((length + 3) & ~3)
        elif token == 9:                    # FDT_END
            break
    if not found:
        sys.exit(f"dtb-corrupt.py: no property {prop} in /{node} of {src}")
    with open(dst, "wb") as f:
        f.write(b)


if __name__ == "__main__":
    main(sys.argv)
