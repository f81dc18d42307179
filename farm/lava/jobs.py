#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The LAVA jobs of jobs.yaml (docs/farms.md), one per board:
  jobs.py write [--template FILE] OUT [BOARD...]   OUT/BOARD.yaml per board (default: all),
      each checked with LAVA's own job schema (lava-common): a PASS:/FAIL: line each
  jobs.py run BOARD IMAGE DEVICE.yaml OUT [--validate]   BOARD's job with url file://IMAGE
      and DEVICE's device_type, run by lava-run here (log and output in OUT), then checked
      by farm/check.py's lava check (--validate: the pipeline's check only): one line
Exit status 1 if a check fails."""
import argparse
import os
import shutil
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import check  # noqa: E402  farm/check.py
from check import wmlog  # noqa: E402

TEMPLATE = os.path.join(HERE, "jobs.yaml")


def _fill(x, url):
    if isinstance(x, (dict, list)):
        return ({k: _fill(v, url) for k, v in x.items()} if isinstance(x, dict)
                else [_fill(v, url) for v in x])
    return url if x == "IMAGE" else x.replace(
        "{GROUP}", wmlog.field_rx("PASS", "group", "group")).replace(
        "{VERDICT}", wmlog.field_rx("PMU", "verdict", "verdict")) if isinstance(x, str) else x


def load(template=TEMPLATE):
    with open(template, encoding="utf-8") as f:
        return yaml.safe_load(f)


def job(board, template=TEMPLATE, image=None, device_type=None):
    """The board's job as a dict; run gives its own image and device_type."""
    t = load(template)
    b, test = t["boards"][board], t["job"].pop("test")
    kind = t["kinds"][b["kind"]]
    return {"device_type": device_type or b["device_type"], "job_name": b["job_name"], **t["job"],
            **({"context": kind["context"]} if "context" in kind else {}),
            "actions": _fill(kind["actions"] + [{"test": test}], image or b["image"])}


def dump(j):
    return ("# Made by farm/lava/jobs.py from farm/lava/jobs.yaml: edit that file.\n"
            + yaml.safe_dump(j, sort_keys=False, width=1000))


def write(a):
    from lava_common.schemas import validate
    os.makedirs(a.out, exist_ok=True)
    bad = 0
    for board in a.board or load(a.template)["boards"]:
        path = os.path.join(a.out, board + ".yaml")
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(dump(job(board, a.template)))
            with open(path, encoding="utf-8") as f:
                validate(yaml.safe_load(f), strict=True)  # the job as written
            print(f"PASS: {path}: LAVA job schema (lava-common)")
        except Exception as exc:  # voluptuous.Invalid names the key
            print(f"FAIL: {path}: {type(exc).__name__}: {exc}")
            bad += 1
    return 1 if bad else 0


def run(a):
    if not os.path.isfile(a.image):
        return [f"no such file: {a.image}"], ""
    with open(a.device, encoding="utf-8") as f:
        device = yaml.safe_load(f)
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    os.makedirs("/srv/tftp", exist_ok=True)  # LAVA's TFTP folder (/etc/default/tftpd-hpa)
    path = os.path.join(a.out, "job.yaml")
    log = os.path.join(a.out, "lava-run.log")
    job_id = f"wm-{os.getpid()}"
    with open(path, "w", encoding="utf-8") as f:
        f.write(dump(job(a.board, image="file://" + os.path.abspath(a.image),
                         device_type=device["device_type"])))
    with open(log, "wb") as f:
        rc = subprocess.run(["timeout", "-k", "5", "60" if a.validate else "420", "lava-run"]
                            + ["--validate"] * a.validate
                            + ["--job-id", job_id, "--output-dir", os.path.join(a.out, "output"),
                               "--device", a.device, "--dispatcher",
                               os.path.join(HERE, "devices", "dispatcher-qemu.yaml"), path],
                            stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL).returncode
    for d in ("/srv/tftp", "/var/lib/lava/dispatcher/tmp"):  # lava-run's scratch folders
        shutil.rmtree(os.path.join(d, job_id), ignore_errors=True)
    with open(log, errors="replace") as f:
        text = f.read()
    if rc != 0:
        print("".join(text.splitlines(True)[-20:]) + f"lava-run exit {rc} (log {log})")
    if a.validate:
        ok = rc == 0 and '"case": "validate", "definition": "lava", "result": "pass"' in text
        return (([], "the pipeline validates") if ok
                else ([f"no passing validate case (log {log})"], ""))
    uboot = device["actions"]["boot"]["methods"].get("u-boot") or {}
    return check.lava(log, uboot.get("parameters", {}).get("bootloader_prompt"))  # a failed job too


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("--template", default=TEMPLATE)
    w.add_argument("out")
    w.add_argument("board", nargs="*")
    r = sub.add_parser("run")
    for arg in ("board", "image", "device", "out"):
        r.add_argument(arg)
    r.add_argument("--validate", action="store_true")
    a = ap.parse_args()
    if a.cmd == "write":
        return write(a)
    return check.check(f"lava-run{' --validate' * a.validate} of the {a.board} job on {a.device}",
                       run, a)


if __name__ == "__main__":
    sys.exit(main())
