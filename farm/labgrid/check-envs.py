#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Load labgrid environments with labgrid's own loader (Environment, then
get_target, which creates every resource and binds every driver, without
activating any: no port is opened, no power switched) and check that each
has what conftest.py drives: a QEMUDriver, or a power driver, a console and
a UBootDriver.  Usage: check-envs.py ENV.yaml...  (LG_IMAGE must be set.)"""
import sys

from labgrid import Environment
from labgrid.driver import QEMUDriver, UBootDriver

# labgrid registers an environment's imported drivers once per process, so
# each environment is loaded in a process of its own.
if sys.argv[1:2] != ["--one"]:
    import subprocess
    rcs = [subprocess.call([sys.executable, __file__, "--one", p]) for p in sys.argv[1:]]
    sys.exit(1 if any(rcs) else 0)

bad = 0
for path in sys.argv[2:3]:
    try:
        env = Environment(config_file=path)
        target = env.get_target("main")
        if target is None:
            raise ValueError("no target 'main'")
        try:
            target.get_driver(UBootDriver, activate=False)
        except Exception:
            target.get_driver(QEMUDriver, activate=False)
            kind = "QEMU, the image as -kernel"
        else:
            for protocol in ("PowerProtocol", "ConsoleProtocol"):
                target.get_driver(protocol, activate=False)
            kind = "board: power, console, U-Boot"
        env.config.get_image_path("wordmerge")
        drivers = ", ".join(sorted(type(d).__name__ for d in target.drivers))
        print(f"PASS: {path}: labgrid loads it ({kind}; drivers {drivers})")
    except Exception as exc:
        print(f"FAIL: {path}: labgrid: {type(exc).__name__}: {exc}")
        bad += 1
sys.exit(1 if bad else 0)
