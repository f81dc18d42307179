# SPDX-License-Identifier: MIT
"""One boot of the image per session on labgrid's target main (a board through
U-Boot where it has a UBootDriver, else QEMU), its console read to the EXIT:
line and parsed with tools/wmlog.py; the target's options: docs/farms.md."""
import os
import re
import shutil
import sys
import tempfile
import time

import pytest
from pexpect import TIMEOUT

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from check import wmlog  # noqa: E402  farm/check.py

EXIT = re.compile(rb"^EXIT: .*\n", re.M)  # the protocol's last line, whole


def pytest_addoption(parser):
    parser.addoption("--wordmerge-log", help="write the image's console log to this file")


def _read_until_exit(console, deadline):
    """The console's output to the EXIT: line, the deadline, or the end of a
    QEMU that exited without one; each read waits at most 5 s."""
    buf = b""
    while time.monotonic() < deadline:
        try:
            chunk = console.read(size=4096, timeout=min(5.0, max(0.1, deadline - time.monotonic())))
        except TIMEOUT:
            chunk = b""
        if not chunk:
            child = getattr(console, "_child", None)
            if child is not None and child.poll() is not None:
                break  # QEMU ended without an EXIT: line (test_boot says so)
            time.sleep(0.1)  # a console that returns nothing without waiting
            continue
        line_start, buf = buf.rfind(b"\n") + 1, buf + chunk
        if EXIT.search(buf, line_start):
            break
    return buf.decode("utf-8", "replace")


def _boot_board(target, deadline, load):
    from labgrid.driver import TFTPProviderDriver, UBootDriver
    power = target.get_driver("PowerProtocol")
    uboot = target.get_driver(UBootDriver, activate=False)
    image = "wordmerge.bin"
    if any(isinstance(d, TFTPProviderDriver) for d in target.drivers):
        path = target.env.config.get_image_path("wordmerge")
        tftp = target.get_driver(TFTPProviderDriver)
        image = tftp.stage(path)
        # labgrid 0.4.1 links a staged file into the TFTP folder only for a
        # remote provider (on an exporter); a local one gets a copy here.
        local = os.path.join(tftp.provider.internal, os.path.basename(path))
        if not os.path.exists(local):
            shutil.copyfile(path, local)
    power.cycle()
    try:
        # UBootDriver stops autoboot with one key (one prompt); run_check types
        # at a prompt and returns at the next, so no command goes out during a
        # TFTP transfer, whose loop reads the console for Ctrl-C and drops it.
        target.activate(uboot)
        for cmd in filter(None, (c.strip().replace("{image}", image) for c in load.split(";"))):
            uboot.run_check(cmd, timeout=max(1, int(deadline - time.monotonic())))
        uboot.boot("")  # boot_command
        return _read_until_exit(uboot.console, deadline)
    finally:
        power.off()
        target.deactivate(uboot)
        target.deactivate(power)


@pytest.fixture(scope="session")
def wordmerge_log(target, request):
    """One boot: the wmlog.Log of its console plus console (the lines), timeout,
    seconds, qemu_exitcode (if QEMU ended by itself)."""
    from labgrid.driver import QEMUDriver, UBootDriver
    option = lambda name, default: target.env.config.get_target_option(target.name, name, default)
    timeout, started = float(option("wordmerge_timeout", "300")), time.monotonic()
    qemu = next((d for d in target.drivers if isinstance(d, QEMUDriver)), None)
    if any(isinstance(d, UBootDriver) for d in target.drivers):
        text = _boot_board(target, started + timeout, option("wordmerge_load", ""))
    else:
        target.activate(qemu)
        qemu.on()
        try:
            text = _read_until_exit(qemu, started + timeout)
        finally:
            qemu.off()
            target.deactivate(qemu)
    path = (request.config.getoption("--wordmerge-log")
            or os.path.join(tempfile.mkdtemp(prefix="wordmerge-"), "console.log"))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    wmlog.write_atomic(path, text)
    console = text.replace("\r", "").split("\n")
    try:
        log = wmlog.read(path)
    except wmlog.Error as e:
        pytest.fail(f"the console log breaks the protocol: {e}; its last lines:\n"
                    + "\n".join(console[-15:]), pytrace=False)
    log.console, log.timeout, log.seconds = console, timeout, time.monotonic() - started
    log.qemu_exitcode = getattr(qemu, "exitcode", None)
    request.config._wordmerge_log = log
    return log


def pytest_terminal_summary(terminalreporter, config):
    log, tr = getattr(config, "_wordmerge_log", None), terminalreporter
    if log is None:
        return
    tr.section("wordmerge")
    for n, tag, form, _ in log.lines:
        if tag in ("BANNER", "SUMMARY", "EXIT") or form == "verdict":
            tr.write_line(log.console[n - 1])
    if log.bench is not None:
        tr.write_line(f"benchmark block: {len(log.bench.order)} cells, {log.bench.done}")
    tr.write_line(f"{log.path} (power-on to end of reading: {log.seconds:.1f} s)")
