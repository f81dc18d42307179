# SPDX-License-Identifier: MIT
"""Boot the wordmerge image on a labgrid target once per session and read
its console until the EXIT: line (every wait bounded).

Two kinds of target (environments in this folder):

- QEMU with the image as -kernel: a QEMUDriver and no UBootDriver
  (qemu-virt.yaml).  It is powered on, the console read, powered off.
- a board: a PowerProtocol driver (whatever the lab has), a console
  (SerialDriver), a UBootDriver, optionally a TFTPProviderDriver
  (visionfive2.yaml, unmatched.yaml; uboot-qemu.yaml is the same path with
  QEMU as power and console and U-Boot as its -kernel).  The board is power-cycled, U-Boot's
  autoboot interrupted (UBootDriver), the image staged on the TFTP server if
  the target has one, the options' wordmerge_load commands run at the
  U-Boot prompt and then UBootDriver's boot_command (booti).

Options (the environment's `options:`, all optional):
  wordmerge_timeout   seconds from power-on to the EXIT: line (default 300)
  wordmerge_load      U-Boot commands that load the image, `;`-separated;
                      {image} is the staged file's name (boards only)
  wordmerge_log       where to write the console log (default: none; the
                      command line's --wordmerge-log wins)
"""
import os
import shutil
import time

import pytest
from pexpect import TIMEOUT

from wordmerge_log import Run, exit_status


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
    """Everything the console gives until an EXIT: STATUS=n line, the
    deadline, or the end of a QEMU that exited without one; each read waits
    at most 5 s."""
    buf = b""
    while time.monotonic() < deadline:
        try:
            chunk = console.read(size=4096, timeout=min(5.0, max(0.1, deadline - time.monotonic())))
        except TIMEOUT:
            chunk = b""
        if not chunk:
            if _exited(console):
                break  # QEMU ended without an EXIT: line (test_boot says so)
            time.sleep(0.1)
            continue
        buf += chunk
        if exit_status(buf.decode("utf-8", "replace")) is not None:
            # The rest of the EXIT: line is in; give trailing output 1 s.
            try:
                buf += console.read(size=4096, timeout=1.0)
            except TIMEOUT:
                pass
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
        # Waits (login_timeout) for U-Boot and stops autoboot.  A failure
        # here or in a load command errors every test with its message.
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
def wordmerge_run(target, request):
    """The parsed console log of one boot of the image (wordmerge_log.Run)."""
    timeout = float(_option(target, "wordmerge_timeout", 300))
    deadline = time.monotonic() + timeout
    from labgrid.driver import QEMUDriver, UBootDriver
    started = time.monotonic()
    try:
        target.get_driver(UBootDriver, activate=False)
        board = True
    except Exception:  # no U-Boot: the image is QEMU's -kernel
        board = False
    if board:
        text = _boot_board(target, deadline)
    else:
        text = _boot_qemu(target, target.get_driver(QEMUDriver), deadline)
    log = request.config.getoption("--wordmerge-log") or _option(target, "wordmerge_log")
    if log:
        os.makedirs(os.path.dirname(os.path.abspath(log)), exist_ok=True)
        with open(log, "w") as f:
            f.write(text)
    run = Run(text)
    # WordmergeQEMUDriver: QEMU's own exit status (the finisher's), if it
    # ended by itself; None on a board or when labgrid stopped QEMU.
    try:
        run.qemu_exitcode = target.get_driver(QEMUDriver, activate=False).exitcode
    except Exception:
        run.qemu_exitcode = None
    run.seconds = time.monotonic() - started
    run.timeout = timeout
    request.config._wordmerge_run = run
    return run


def pytest_terminal_summary(terminalreporter, config):
    run = getattr(config, "_wordmerge_run", None)
    if run is None:
        return
    tr = terminalreporter
    tr.section("wordmerge")
    for line in run.banner:
        tr.write_line(line)
    if run.verdict:
        tr.write_line("PMU: VERDICT: " + run.verdict)
    if run.summary_line:
        tr.write_line(run.summary_line)
    if run.bench_summary:
        tr.write_line(run.bench_summary)
    if run.cycles:
        tr.write_line(f"CYCLES: {len(run.cycles)} timed cells (CSV:sweep/big/extra lines)")
    tr.write_line(f"EXIT: STATUS={run.status}" if run.status is not None else
                  f"no EXIT: line within {run.timeout:.0f} s")
    tr.write_line(f"(power-on to end of reading: {run.seconds:.1f} s)")
