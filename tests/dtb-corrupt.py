#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Write a copy of a device tree blob whose one property names a string
outside the strings block: a tree that QEMU and OpenSBI still pass on (they
look properties up by name) but that the image must refuse, before it has
read where the test finisher is (tests/tests.cfg: exit-bad-tree).

    dtb-corrupt.py IN.dtb OUT.dtb NODE PROPERTY

NODE is the node's path without the leading slash (e.g. fw-cfg@10100000).
libfdt finds the property (Debian's python3-libfdt, under /usr/bin/python3);
OUT is written only when it was found.
"""
import struct
import sys

import libfdt


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__.split("\n\n")[1].strip())
    src, dst, node, prop = argv[1:]
    b = bytearray(open(src, "rb").read())
    try:
        fdt = libfdt.Fdt(b)
    except libfdt.FdtException as e:
        sys.exit(f"dtb-corrupt.py: {src} is not a device tree blob ({e})")
    try:
        p = fdt.first_property_offset(fdt.path_offset("/" + node))
        while fdt.get_property_by_offset(p).name != prop:
            p = fdt.next_property_offset(p)
    except libfdt.FdtException:
        sys.exit(f"dtb-corrupt.py: no property {prop} in /{node} of {src}")
    # The property's record: its token, its length, then its name's offset.
    at = fdt.off_dt_struct() + p + 8
    b[at:at + 4] = struct.pack(">I", fdt.size_dt_strings() + 0x1000)
    with open(dst, "wb") as f:
        f.write(b)


if __name__ == "__main__":
    main(sys.argv)
