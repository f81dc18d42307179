#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""protocol-tags.py FILE...: every line tag of docs/protocol.md (the tags
tools/wmlog.py reads from it, and CSV) that a C string in FILE spells, one
line each; exit status 1 if any.  Comments are passed over (they may name
the lines they describe).  firmware/protocol.h is the one file that
may: the image's tagged lines go through firmware/protocol.c with its tags."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import wmlog  # noqa: E402

tags = sorted(set(wmlog.FORMS) | {"CSV"}, key=len, reverse=True)
# A string that starts with a tag, or a line inside a string that does.
spelt = re.compile(r'(?:"|\\n)(%s)(?=[:"])' % "|".join(map(re.escape, tags)))
found = 0
for path in sys.argv[1:]:
    if os.path.normpath(path) == os.path.join("firmware", "protocol.h"):
        continue
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            code = "" if line.lstrip().startswith("*") else re.sub(r"/\*.*?(\*/|$)|//.*", "", line)
            for m in spelt.finditer(code):
                print(f"{path}:{n}: spells the tag {m.group(1)}: {line.strip()[:100]}")
                found += 1
print(f"{'FAIL' if found else 'PASS'}: protocol-tags: {found} tags spelt outside "
      f"firmware/protocol.h in {len(sys.argv) - 1} files ({len(tags)} tags)")
sys.exit(1 if found else 0)
