# SPDX-License-Identifier: MIT
"""Boot the wordmerge image on a labgrid target once per session, read its
console to the EXIT: line (every wait bounded) and parse it with
tools/wmlog.py, the one reader of the console protocol (docs/protocol.md).

A target with a UBootDriver is a board (visionfive2.yaml, unmatched.yaml;
uboot-qemu.yaml is QEMU + U-Boot as one): it is power-cycled, autoboot
stopped, the image staged on the TFTP server if there is one, the
wordmerge_load commands run at the prompt, then boot_command (booti).
Without one, the QEMUDriver boots the image as -kernel (qemu-virt.yaml).

Options (the environment's `options:`, all optional):
  wordmerge_timeout   seconds from power-on to the EXIT: line (default 300)
  wordmerge_load      U-Boot commands that load the image, `;`-separated;
                      {image} is the staged file's name (boards only)
  wordmerge_log       where to write the console log (default: a temporary
                      file; the command line's --wordmerge-log wins)
"""
import os
import shutil
import sys
import tempfile
import time

import pytest
from pexpect import TIMEOUT

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import wmlog  # noqa: E402


def pytest_addoption(parser):
    parser.addoption("--wordmerge-log", default=None,
                     help="write the image's console log to this file")


def _option(target, name, default=None):
    """The target's option, else the environment's, else default."""
    data = target.env.config.data
    for options in ((data.get("targets", {}).get(target.name) or {}).get("options"),
                    data.get("options")):
        if options and name in options:
            return options[name]
    return default


def _exited(console):
    """True when the console is a QEMU driver whose QEMU has exited."""
    child = getattr(console, "_child", None)
    return child is not None and child.poll() is not None


def _read_until_exit(console, deadline):
    """Everything the console gives until a whole EXIT: line (the protocol's
    last), the deadline, or the end of a QEMU that exited without one; each
    read waits at most 5 s for data."""
    buf, start = b"", 0
    while time.monotonic() < deadline:
        try:
            chunk = console.read(size=4096, timeout=min(5.0, max(0.1, deadline - time.monotonic())))
        except TIMEOUT:
            chunk = b""
        if not chunk:
            if _exited(console):
                break  # QEMU ended without an EXIT: line (test_boot says so)
            time.sleep(0.1)  # a console that returns nothing without waiting
            continue
        buf += chunk
        end = buf.rfind(b"\n")
        if end >= start:  # whole new lines
            new, start = buf[start:end].decode("utf-8", "replace").split("\n"), end + 1
            if any((m := wmlog.TAG.match(l.rstrip("\r"))) and m.group(1) == "EXIT" for l in new):
                break
    return buf.decode("utf-8", "replace")


def _boot_qemu(target, qemu, deadline):
    qemu.on()
    try:
        return _read_until_exit(qemu, deadline)
    finally:
        qemu.off()
        target.deactivate(qemu)


def _boot_board(target, deadline):
    from labgrid.driver import UBootDriver
    power = target.get_driver("PowerProtocol")
    uboot = target.get_driver(UBootDriver, activate=False)
    image = "wordmerge.bin"
    try:
        from labgrid.driver import TFTPProviderDriver
        tftp = target.get_driver(TFTPProviderDriver)
    except Exception:  # no TFTP server in this environment
        tftp = None
    if tftp is not None:
        path = target.env.config.get_image_path("wordmerge")
        image = tftp.stage(path)
        # labgrid 0.4.1 links the file into the TFTP folder only for a remote
        # provider (on an exporter); a local one gets a copy here.
        local = os.path.join(tftp.provider.internal, os.path.basename(path))
        if not os.path.exists(local):
            shutil.copyfile(path, local)
    power.cycle()
    try:
        # UBootDriver stops autoboot with one key (one prompt); run_check
        # types at a prompt and returns at the next, so no command goes out
        # while a TFTP transfer, whose loop reads the console for Ctrl-C and
        # drops what it reads, still runs.  A failure errors every test.
        target.activate(uboot)
        for cmd in str(_option(target, "wordmerge_load", "")).split(";"):
            cmd = cmd.strip().replace("{image}", image)
            if cmd:
                uboot.run_check(cmd, timeout=max(1, int(deadline - time.monotonic())))
        uboot.boot("")  # boot_command: booti ${kernel_addr_r} - ${fdtcontroladdr}
        return _read_until_exit(uboot.console, deadline)
    finally:
        power.off()
        target.deactivate(uboot)
        target.deactivate(power)


@pytest.fixture(scope="session")
def wordmerge_log(target, request):
    """One boot of the image: its console log as wmlog.read gives it (a
    wmlog.Log), with console (its lines), timeout, seconds and
    qemu_exitcode added.  A log that breaks the protocol errors every test."""
    from labgrid.driver import QEMUDriver, UBootDriver
    timeout = float(_option(target, "wordmerge_timeout", 300))
    started = time.monotonic()
    try:
        target.get_driver(UBootDriver, activate=False)
        board = True
    except Exception:  # no U-Boot: the image is QEMU's -kernel
        board = False
    deadline = started + timeout
    if board:
        text = _boot_board(target, deadline)
    else:
        text = _boot_qemu(target, target.get_driver(QEMUDriver), deadline)
    path = request.config.getoption("--wordmerge-log") or _option(target, "wordmerge_log")
    if not path:
        path = os.path.join(tempfile.mkdtemp(prefix="wordmerge-"), "console.log")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    console = text.replace("\r", "").split("\n")
    try:
        log = wmlog.read(path)
    except wmlog.LogError as e:
        pytest.fail(f"the console log breaks the protocol: {e}; its last lines:\n"
                    + "\n".join(console[-15:]), pytrace=False)
    log.console, log.timeout = console, timeout
    log.seconds = time.monotonic() - started
    # WordmergeQEMUDriver: QEMU's own exit status (the finisher's), if it
    # ended by itself; None on a board or when labgrid stopped QEMU.
    try:
        log.qemu_exitcode = target.get_driver(QEMUDriver, activate=False).exitcode
    except Exception:
        log.qemu_exitcode = None
    request.config._wordmerge_log = log
    return log


def pytest_terminal_summary(terminalreporter, config):
    log = getattr(config, "_wordmerge_log", None)
    if log is None:
        return
    tr = terminalreporter
    tr.section("wordmerge")
    for n, tag, form, _ in log.lines:
        if tag in ("BANNER", "SUMMARY", "EXIT") or form == "verdict":
            tr.write_line(log.console[n - 1])
    if log.bench is not None:
        tr.write_line(f"benchmark block: {len(log.bench.order)} cells, {log.bench.done}")
    if log.status is None:
        tr.write_line(f"no EXIT: line within {log.timeout:.0f} s")
    tr.write_line(f"{log.path} (power-on to end of reading: {log.seconds:.1f} s)")
