#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Validate LAVA job definitions with LAVA's own job schema (Debian's
lava-common: lava_common.schemas.validate, what lava-server runs when a job
is submitted).  Usage: validate.py JOB.yaml...  Exit 1 if any is invalid."""
import sys

import voluptuous
from lava_common.compat import yaml_safe_load
from lava_common.schemas import validate

bad = 0
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            data = yaml_safe_load(f)
        validate(data, strict=True)
    except (OSError, voluptuous.Invalid) as exc:
        where = "/".join(str(p) for p in getattr(exc, "path", []))
        print(f"FAIL: {path}: LAVA job schema: {exc}" + (f" (at {where})" if where else ""))
        bad += 1
    except Exception as exc:  # YAML errors and the like
        print(f"FAIL: {path}: {type(exc).__name__}: {exc}")
        bad += 1
    else:
        print(f"PASS: {path}: LAVA job schema (lava-common)")
sys.exit(1 if bad else 0)
