#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""run-local.py BOARD IMAGE DEVICE.yaml OUT [--validate]: BOARD's LAVA job
with url file://IMAGE and DEVICE's device_type, run by lava-run here (log
and output in OUT), then checked by farm/check.py's lava check (--validate:
the pipeline's check only).  One PASS:/FAIL: line, 1 on FAIL.  docs/farms.md."""
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

ap = argparse.ArgumentParser()
for arg in ("board", "image", "device", "out"):
    ap.add_argument(arg)
ap.add_argument("--validate", action="store_true")
a = ap.parse_args()


def run():
    if not os.path.isfile(a.image):
        return [f"no such file: {a.image}"], ""
    with open(a.device, encoding="utf-8") as f:
        device = yaml.safe_load(f)
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    os.makedirs("/srv/tftp", exist_ok=True)  # LAVA's TFTP folder (/etc/default/tftpd-hpa)
    job, log, job_id = os.path.join(a.out, "job.yaml"), os.path.join(a.out, "lava-run.log"), f"wm-{os.getpid()}"
    with open(job, "w", encoding="utf-8") as f:
        f.write(jobs.dump(jobs.job(a.board, image="file://" + os.path.abspath(a.image),
                                   device_type=device["device_type"])))
    with open(log, "wb") as f:
        rc = subprocess.run(["timeout", "-k", "5", "60" if a.validate else "420", "lava-run"]
                            + ["--validate"] * a.validate
                            + ["--job-id", job_id, "--output-dir", os.path.join(a.out, "output"),
                               "--device", a.device, "--dispatcher",
                               os.path.join(HERE, "devices", "dispatcher-qemu.yaml"), job],
                            stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL).returncode
    for d in ("/srv/tftp", "/var/lib/lava/dispatcher/tmp"):  # lava-run's scratch folders
        shutil.rmtree(os.path.join(d, job_id), ignore_errors=True)
    with open(log, errors="replace") as f:
        text = f.read()
    if rc != 0:
        print("".join(text.splitlines(True)[-20:]) + f"lava-run exit {rc} (log {log})")
    if a.validate:
        ok = rc == 0 and '"case": "validate", "definition": "lava", "result": "pass"' in text
        return ([], "the pipeline validates") if ok else ([f"no passing validate case (log {log})"], "")
    uboot = device["actions"]["boot"]["methods"].get("u-boot") or {}
    return check.lava(log, uboot.get("parameters", {}).get("bootloader_prompt"))  # a failed job too


sys.exit(check.check(f"lava-run{' --validate' * a.validate} of the {a.board} job on {a.device}", run))
