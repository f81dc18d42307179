#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Run a board's LAVA job (farm/lava/jobs.yaml) on this machine with
Debian's lava-run.

  run-local.py BOARD IMAGE DEVICE.yaml OUT [--validate]

The job as jobs.py makes it for a lab, with two changes: its image url is
file://IMAGE and its device_type that of DEVICE.yaml (a rendered device of
farm/lava/devices/; the dispatcher is devices/dispatcher-qemu.yaml).
lava-run's log and output go to OUT/ (emptied first); its scratch folders
under /srv/tftp and /var/lib/lava/dispatcher/tmp are removed after.

--validate: lava-run --validate only (the dispatcher's pipeline check),
which must pass.  Else the job runs and farm/check.py's lava check compares
its results with the image's console in lava-run's log.  Prints the verdict
as one PASS:/FAIL: line; exit status 1 when it fails, 2 on bad usage.
(tests/tests.cfg runs it: the farm-lava-* tests; docs/farms.md.)"""
import argparse
import os
import shutil
import subprocess
import sys

import yaml

import jobs

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import check  # noqa: E402  farm/check.py

SCRATCH = ("/srv/tftp", "/var/lib/lava/dispatcher/tmp")

ap = argparse.ArgumentParser()
ap.add_argument("board")
ap.add_argument("image")
ap.add_argument("device")
ap.add_argument("out")
ap.add_argument("--validate", action="store_true")
a = ap.parse_args()
what = f"lava-run{' --validate' if a.validate else ''} of the {a.board} job on {a.device}"
for path in (a.image, a.device):
    if not os.path.isfile(path):
        print(f"FAIL: {what}: no such file: {path}")
        sys.exit(2)
with open(a.device, encoding="utf-8") as f:
    device = yaml.safe_load(f)
job = jobs.job(a.board, image="file://" + os.path.abspath(a.image), device_type=device["device_type"])
uboot = device["actions"]["boot"]["methods"].get("u-boot") or {}

shutil.rmtree(a.out, ignore_errors=True)
os.makedirs(a.out)
local = os.path.join(a.out, "job.yaml")
with open(local, "w", encoding="utf-8") as f:
    f.write(jobs.dump(job))
job_id = f"wm-{os.getpid()}"
log = os.path.join(a.out, "lava-run.log")
cmd = ["timeout", "-k", "5", "60" if a.validate else "420", "lava-run"] + \
      (["--validate"] if a.validate else []) + \
      ["--job-id", job_id, "--output-dir", os.path.join(a.out, "output"), "--device", a.device,
       "--dispatcher", os.path.join(HERE, "devices", "dispatcher-qemu.yaml"), local]
os.makedirs("/srv/tftp", exist_ok=True)
with open(log, "wb") as f:
    rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL).returncode
for d in SCRATCH:
    shutil.rmtree(os.path.join(d, job_id), ignore_errors=True)

if rc != 0:
    with open(log, errors="replace") as f:
        print("".join(f.readlines()[-20:]), end="")
    print(f"lava-run exit {rc} (log {log})")
if a.validate:
    ok = rc == 0 and '"case": "validate", "definition": "lava", "result": "pass"' in open(log, errors="replace").read()
    print(f"{'PASS' if ok else 'FAIL'}: {what}: " + ("the pipeline validates" if ok else f"no passing validate case (log {log})"))
    sys.exit(0 if ok else 1)
# A failed job too: the check says why.
sys.exit(check.check(what, check.lava, log, uboot.get("parameters", {}).get("bootloader_prompt")))
