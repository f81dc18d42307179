#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Run the tests of tests/tests.cfg: build what they need, run them in
parallel, print one PASS:/FAIL:/SKIP: line each and a final tally.

Usage: tests/run.py [-j N] [-O DIR] [--backstop S] [--table FILE] [--list]
                    [--strict] [NAME|GROUP ...]

`make test` calls it; `make test T="NAME|GROUP ..."` passes the filter.  A
name or group that matches no entry is an error.  Exit status: 0 all
selected tests passed (or were skipped), 1 a test failed or timed out (or,
with --strict, was skipped), 2 bad usage or a bad table, 130 or 143
interrupted by SIGINT or SIGTERM.

The table's `needs` records say which tools a test needs: tools/deps.sh
installs those of the selected tests that are missing (as root, on Debian);
a test whose tools are still not all here is skipped, not run (SKIP: NAME:
needs TOOL (Debian PKG, Fedora PKG, Arch PKG)).  make test runs where it
can (not root, no apt-get, a system other than Debian); make test STRICT=1
(CI) fails on a skip.

Every test and build runs in a process group of its own; run.py ends the
whole group when it ends (whatever the command left behind in it), when the
backstop (--backstop, default 900 s: every tool has its own timeout, this
is the last) runs out, and on SIGINT or SIGTERM, which end the run: the
running tests and builds are stopped (SIGTERM, SIGKILL 10 s later), one
line says so, and no verdict is given.  A test stopped by the backstop is a
TIMEOUT: line, counted as failed, whatever status it was meant to end with.
A build whose variables say BUILD_BACKSTOP=S has S seconds if that is more.

The table (tests/tests.cfg, its header says more): a record a test, one
field a line, in the manner of kvm-unit-tests' unittests.cfg:

    [NAME]
    groups  = GROUP ...
    build   = MAKE-ARGUMENTS             (optional)
    command = BASH-COMMAND
    status  = STATUS
    expect  = 'REGEX'                    (optional, as often as needed)

`FIELD = VALUE` starts in column 0; an indented line continues the value of
the line above it, joined to it by one space (fold a long value at a
space).  `#` in column 0 starts a comment; blank lines and comments end a
value.  groups: names, a blank between them.  expect's regex is one word as
a shell splits it (quoted: '...', or "..." for a regex holding a ').

build: make arguments (none: nothing), run as `make O=DIR ARGS` where DIR
is a directory under -O's t/ named after the variables ARGS set (t/default
when none; one build per distinct set, however many tests share it; the
targets of every test with that set are made in one make): the tests build
nothing in -O's own image folders (virt/, visionfive2/, ...), which are the
user's.  command: run by bash in the repository top, with
  O     the -O directory             B    the entry's build directory
  T     a scratch directory of the test's own (emptied first)
  LOG   $T/run.log                   ELF  $B/virt/wordmerge.elf
  boot  a function: ./run-qemu.sh --no-build --no-icount --timeout 300
        --elf $ELF --log $LOG, then its own arguments (later options win:
        a test that needs exact counts says --icount)
  runelf  a function: runelf FILE ARGS runs the ELF program FILE on this
        host, or, where the kernel cannot execute its kind (a -m32 binary on
        a kernel without IA32 emulation, an arm64 host), under the matching
        qemu-user (qemu-i386-static, ...); run.py says so once a run, and
        the test fails (status 126) only when neither way runs it
status: the exit status the command must end with, 0..255, or !0 for any
but 0; 77 from a test that expects another status means SKIP (its SKIP:
line says why).  expect: extended regexes (Python's re) that some line of the
output must match; `!RE` no line may match; `N*RE` exactly N lines match.
A test that must end with 0 must print no line starting with FAIL:.

A record `[needs]` with `tools = TOOL ...` (tools of tools/deps.sh's table)
and one or more `match = 'REGEX'` says that every test whose build or
command some REGEX matches needs those tools.  The long checks of the
commands are functions of tests/checks.sh, which every command sources.
"""

import argparse
import errno
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CFG = os.path.join(TOP, "tests", "tests.cfg")
BACKSTOP_S = 900          # every tool has its own timeout; this is the last
SKIP_STATUS = 77
# Every command's prelude: its functions (boot, runelf, the long checks).
BOOT = ". tests/checks.sh\n"
# The qemu-user that runs an ELF of each e_machine (the ELF header's field),
# for a host whose kernel cannot; and the line that says so, the same for
# every test it happens to, so that run.py prints it once.
QEMU_USER = {3: "i386", 62: "x86_64", 183: "aarch64", 40: "arm", 22: "s390x", 20: "ppc",
             21: "ppc64", 8: "mips", 243: "riscv64"}
FOREIGN = "run.py: note: this host's kernel cannot run {} ELF programs; they run under {}"


def exec_elf(argv):
    """runelf FILE ARGS: exec FILE, or its qemu-user where the kernel refuses
    its format (ENOEXEC); neither: a message and status 126, as bash's own."""
    if not argv:
        print("usage: runelf FILE [ARGS...]", file=sys.stderr)
        return 2
    try:
        os.execv(argv[0], argv)
    except OSError as err:
        if err.errno != errno.ENOEXEC:
            print(f"runelf: {argv[0]}: {err.strerror}", file=sys.stderr)
            return 127 if err.errno == errno.ENOENT else 126
    with open(argv[0], "rb") as f:
        head = f.read(20)
    machine = (int.from_bytes(head[18:20], "little" if head[5:6] == b"\1" else "big")
               if head[:4] == b"\x7fELF" and len(head) == 20 else None)
    qemu = f"qemu-{QEMU_USER.get(machine, '?')}-static"
    path = shutil.which(qemu) if machine in QEMU_USER else None
    if not path:
        print(f"runelf: error: this host's kernel cannot run {argv[0]} (e_machine {machine}), "
              f"and there is no {qemu} to run it under (Debian: qemu-user-static)", file=sys.stderr)
        return 126
    print(FOREIGN.format(QEMU_USER[machine], qemu), file=sys.stderr, flush=True)
    os.execv(path, [qemu] + argv)


class TableError(Exception):
    pass


# The fields of each kind of record: a test ([NAME]) and a needs record
# ([needs]); those that may come more than once, and those a record must have.
FIELDS = {"test": ("groups", "build", "command", "status", "expect"),
          "needs": ("tools", "match")}
REPEATED = ("expect", "match")
REQUIRED = {"test": ("groups", "command", "status"), "needs": ("tools", "match")}


def read_records(path):
    """The table's records, in order: (NAME or "needs", line, {field: [(line,
    value), ...]}), each value with its continued lines joined by a space."""
    records, last = [], None
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                last = None
                continue
            if line[0] in " \t":
                if last is None:
                    raise TableError(f"line {lineno}: an indented line continues no field")
                last[-1] = (last[-1][0], last[-1][1] + " " + line.strip())
                continue
            last = None
            m = re.fullmatch(r"\[(.*)\]\s*", line)
            if m:
                records.append((m.group(1), lineno, {}))
                continue
            m = re.fullmatch(r"([a-z]+)\s*=\s*(.*?)\s*", line)
            if not m:
                raise TableError(f"line {lineno}: want [NAME], FIELD = VALUE, an indented "
                                 f"continuation or a # comment, not {line[:40]!r}")
            if not records:
                raise TableError(f"line {lineno}: a field before the first [NAME]")
            name, _, fields = records[-1]
            kind = "needs" if name == "needs" else "test"
            key, value = m.groups()
            if key not in FIELDS[kind]:
                raise TableError(f"line {lineno}: [{name}] has no field {key!r} "
                                 f"(its fields: {', '.join(FIELDS[kind])})")
            if key in fields and key not in REPEATED:
                raise TableError(f"line {lineno}: [{name}]: {key} twice")
            last = fields.setdefault(key, [])
            last.append((lineno, value))
    for name, lineno, fields in records:
        kind = "needs" if name == "needs" else "test"
        gone = [k for k in REQUIRED[kind] if k not in fields]
        if gone:
            raise TableError(f"line {lineno}: [{name}] has no {', '.join(gone)}")
    return records


def regex(lineno, word):
    """A regex field's value: one shell word (quoted where it holds blanks)."""
    try:
        words = shlex.split(word)
        if len(words) != 1:
            raise ValueError(f"want one regex, as one shell word, got {len(words)} words")
        return words[0]
    except ValueError as err:
        raise TableError(f"line {lineno}: {err}") from None


class Test:
    def __init__(self, name, lineno, fields):
        self.name = name
        if not re.fullmatch(r"[A-Za-z0-9_.+-]+", name):
            raise TableError(f"line {lineno}: bad test name {name!r}")
        self.groups = fields["groups"][0][1].split()
        self.build = fields["build"][0][1].split() if "build" in fields else []
        self.cmd = fields["command"][0][1]
        # An exit status is a byte: 300 could never be seen.
        lineno, status = fields["status"][0]
        if not (status == "!0" or re.fullmatch(r"[0-9]{1,3}", status) and int(status) <= 255):
            raise TableError(f"line {lineno}: status must be 0..255 or !0, not {status!r}")
        self.status = status
        self.expect = []
        for lineno, e in fields.get("expect", []):
            e = regex(lineno, e)
            kind, count = "want", None
            m = re.match(r"([0-9]+)\*(.*)", e, re.S)
            if e.startswith("!"):
                kind, e = "not", e[1:]
            elif m:
                kind, count, e = "count", int(m.group(1)), m.group(2)
            try:
                self.expect.append((kind, count, re.compile(e)))
            except re.error as err:
                raise TableError(f"line {lineno}: bad regex {e!r}: {err}") from None
        self.vars = sorted(a for a in self.build if "=" in a)
        self.targets = [a for a in self.build if "=" not in a]


def read_table(path):
    """The tests, each with .needs: the tools its table's needs records name."""
    tests, names, needs = [], set(), []
    for name, lineno, fields in read_records(path):
        if name == "needs":
            for ln, rx in fields["match"]:
                try:
                    needs.append((fields["tools"][0][1].split(), re.compile(regex(ln, rx))))
                except re.error as err:
                    raise TableError(f"line {ln}: bad regex {rx!r}: {err}") from None
            continue
        if name in names:
            raise TableError(f"line {lineno}: test {name} twice")
        names.add(name)
        tests.append(Test(name, lineno, fields))
    for t in tests:
        text = (" ".join(t.targets or ["all"] * bool(t.build)) + " " + " ".join(t.vars)
                + " | " + t.cmd)
        t.needs = list(dict.fromkeys(x for tools, rx in needs if rx.search(text) for x in tools))
    return tests


def missing_tools(tests):
    """{tool: "Debian PKG, Fedora PKG, Arch PKG"} for the tools of the tests
    that are not here: tools/deps.sh installs the missing ones where it can
    (it says what it does), and only when it could not is it asked which."""
    # ccache too, which no test needs: without it (tests/run.py main) each compiles it all.
    tools = list(dict.fromkeys(["ccache"] + [x for t in tests for x in t.needs]))
    deps = os.path.join(TOP, "tools", "deps.sh")
    if not tools or subprocess.run([deps] + tools).returncode == 0:
        return {}
    print("run.py: the tests whose tools are missing are skipped", flush=True)
    out = subprocess.run([deps, "--missing"] + tools,
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    rows = [line.split("|") for line in out.splitlines()]
    return {r[0]: ", ".join(f"{os_} {'(none known)' if p == '-' else p}"
                            for os_, p in zip(("Debian", "Fedora", "Arch"), r[2:5])) for r in rows}


def build_dir(out, variables):
    slug = "_".join(re.sub(r"[^A-Za-z0-9.+-]", "-", v) for v in variables)
    return os.path.join(out, "t", slug or "default")


def default_jobs():
    """make -j's, else one more than the cores: a test that waits (for a
    silence bound, a lock, a sleep) would otherwise leave its core idle."""
    m = re.search(r"(?:^|\s)-j\s*([0-9]+)", os.environ.get("MAKEFLAGS", ""))
    return int(m.group(1)) if m else (os.cpu_count() or 1) + 1


def child_env():
    """The environment of every child: a sub-make must not look for the
    jobserver of the make that started us (we are not a recursive make)."""
    env = dict(os.environ)
    flags = env.get("MAKEFLAGS", "")
    flags = re.sub(r"(?:^|\s)-j\s*[0-9]*|--jobserver-(?:auth|fds)=\S+", " ", flags)
    # A plain -j (no number) is a j among the first word's one-letter flags.
    flags = re.sub(r"^\s*([a-zA-Z]*)j([a-zA-Z]*)(\s|$)", r"\1\2\3", flags)
    env["MAKEFLAGS"] = flags.strip()
    env.pop("MFLAGS", None)
    env.pop("MAKELEVEL", None)
    return env


print_lock = threading.Lock()
# The children running now (Popen object: the test or build it is, each in
# a process group of its own) and the signal that interrupted the run, if
# one did; a child is started only while no signal has come, under the lock.
children_lock = threading.Lock()
children = {}
interrupted = []
said = set()            # the notes of runelf printed so far


class Progress:
    """The line [done/total, failed, ~N min left] while the tests run, its
    estimate from the last run's times (tests/durations): what is left of
    every test and build not done (a running one less its time so far),
    spread over the -j workers, but never less than the longest chain left (a
    build and its slowest test).  On a terminal it stays below the other
    lines, rewritten in place each second; elsewhere (a CI log) it is a line
    of its own when the count has moved, at most every 30 s (every 2 min
    with no change), so that a log shows progress without a line a test."""

    def __init__(self):
        self.tty, self.shown = False, ""
        self.total = self.done = self.failed = 0
        self.last, self.running, self.after = None, {}, {}
        self.said_at, self.said_done, self.drawn_at = 0.0, -1, 0.0

    def setup(self, total, done, jobs, last, after, tests):
        """last(key): the seconds a test (its name) or build (its key) is
        expected to take (None: no times, no estimate); after: {build key:
        [its tests' names]}."""
        self.tty = sys.stdout.isatty() and os.environ.get("TERM") != "dumb"
        self.total, self.done, self.jobs, self.last, self.after = total, done, jobs, last, after
        self.left = set(after) | set(tests)

    def begin(self, key):
        with print_lock:
            self.running[key] = time.monotonic()

    def end(self, keys, failed=0):
        """keys are done (a build, or tests: each counted), failed of them failed."""
        with print_lock:
            for k in keys:
                self.running.pop(k, None)
                self.left.discard(k)
                self.done += not k.startswith("build:")
            self.failed += failed
            if self.tty:
                self.draw()

    def minutes_left(self):
        if self.last is None:
            return None
        now = time.monotonic()
        rem = {}
        for k in self.left:
            want = self.last(k)
            rem[k] = max(want - (now - self.running[k] if k in self.running else 0), 0)
        chains = [rem[b] + max([rem[t] for t in self.after[b] if t in rem] or [0])
                  for b in self.after if b in rem]
        secs = max([sum(rem.values()) / max(self.jobs, 1)] + chains + list(rem.values()))
        return max(int((secs + 59) // 60), 1 if rem else 0)   # a test left: not 0

    def line(self):
        mins = self.minutes_left()
        text = f"[{self.done}/{self.total}, {self.failed} failed" + (
            "]" if mins is None else f", ~{mins} min left]")
        now = time.monotonic()
        longest = sorted(self.running.items(), key=lambda kv: kv[1])[:2]
        if longest:
            text += " running: " + ", ".join(f"{k} ({now - t:.0f} s)" for k, t in longest)
        if self.tty:
            text = text[:max(shutil.get_terminal_size().columns - 1, 20)]
        return text

    def draw(self):
        """On a terminal, the line in place of the one shown (print_lock held)."""
        self.drawn_at = time.monotonic()
        self.shown = self.line()
        sys.stdout.write("\r\033[K" + self.shown)
        sys.stdout.flush()

    def tick(self, force=False):
        """The line again: on a terminal each second; else when due (force: now)."""
        with print_lock:
            now = time.monotonic()
            if self.tty:
                if force or now - self.drawn_at >= 1:
                    self.draw()
            elif force or now - self.said_at >= 30 and (
                    self.done != self.said_done or now - self.said_at >= 120):
                self.said_at, self.said_done = now, self.done
                print(self.line(), flush=True)

    def clear(self):
        """No progress line from here on (the closing lines follow)."""
        with print_lock:
            if self.shown:
                sys.stdout.write("\r\033[K")
                sys.stdout.flush()
            self.tty, self.shown = False, ""


progress = Progress()


def emit(text):
    """Print text, print_lock held: on a terminal above the progress line."""
    if progress.shown:
        sys.stdout.write("\r\033[K")
    print(text, flush=True)
    if progress.shown:
        progress.draw()


def say(text):
    with print_lock:
        emit(text)


def killpg(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def start_reaper():
    """A process that outlives a SIGKILL of run.py, which no handler sees, to end then the
    process group of every test and build still running: run.py tells it each group as it
    starts (+PGID) and ends (-PGID) through a pipe whose end of file is run.py's end."""
    global reaper
    r, w = os.pipe()
    if os.fork() == 0:
        os.close(w)
        os.setsid()         # out of make test's group: a Ctrl-C is run.py's to handle
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        live = set()
        with os.fdopen(r) as f:
            for line in f:
                (live.add if line[0] == "+" else live.discard)(int(line[1:]))
        for g in live:
            killpg(g, signal.SIGKILL)
        os._exit(0)
    os.close(r)
    reaper = os.fdopen(w, "w", buffering=1)


reaper = None


def run(cmd, log, env, timeout, name):
    """Run cmd (a list) in its own process group, output to log; returns
    (status, seconds, how): how is None, "timeout" (killed by the backstop;
    status None) or "interrupted" (the run was interrupted meanwhile)."""
    start = time.monotonic()
    with open(log, "wb") as f:
        with children_lock:
            if interrupted:
                return None, 0.0, "interrupted"
            p = subprocess.Popen(cmd, cwd=TOP, env=env, stdin=subprocess.DEVNULL,
                                 stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
            children[p] = name
            reaper.write(f"+{p.pid}\n")
        how = None
        try:
            rc = p.wait(timeout)
        except subprocess.TimeoutExpired:
            killpg(p.pid, signal.SIGKILL)
            p.wait()
            f.write(f"\nrun.py: TIMEOUT: killed after {timeout} s\n".encode())
            rc, how = None, "timeout"
        finally:
            # Whatever the command left running in its group ends with it.
            killpg(p.pid, signal.SIGKILL)
            with children_lock:
                children.pop(p, None)
                reaper.write(f"-{p.pid}\n")
                if interrupted:
                    how = "interrupted"
    return rc, time.monotonic() - start, how


def tail(path, n=15):
    with open(path, "rb") as f:
        lines = f.read().decode("utf-8", "replace").replace("\r", "").splitlines()
    return "\n".join("  | " + l[:200] for l in lines[-n:])


def do_build(out, d, variables, targets, env, backstop):
    # A build that says BUILD_BACKSTOP=S (a Linux kernel: minutes of both cores
    # on a first run) has S seconds, if more; make takes it as a variable it ignores.
    backstop = max([backstop] + [int(v.split("=", 1)[1]) for v in variables
                                 if re.fullmatch(r"BUILD_BACKSTOP=[0-9]+", v)])
    name = os.path.basename(d) + "-" + "-".join(targets)
    log = os.path.join(out, "tests", "build", re.sub(r"[^A-Za-z0-9.+_-]", "-", name) + ".log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    cmd = ["make", "--no-print-directory", "O=" + d] + variables + targets
    rc, secs, how = run(cmd, log, env, backstop, "build " + name)
    if how == "interrupted":
        return how
    if how == "timeout":
        return (f"`{shlex.join(cmd)}` TIMEOUT: killed by run.py after {backstop} s "
                f"(log {log}):\n{tail(log)}")
    if rc:
        return f"`{shlex.join(cmd)}` failed (status {rc}, log {log}):\n{tail(log)}"
    say(f"  BUILD   {d}: {' '.join(variables + targets)} ({secs:.0f} s)")
    return None


def judge(t, rc, text):
    """(PASS, SKIP or FAIL, the line that shows it or why it failed)."""
    lines = text.replace("\r", "").splitlines()
    want_rc = t.status
    if rc == SKIP_STATUS and want_rc != str(SKIP_STATUS):
        return "SKIP", next((l for l in lines if l.startswith("SKIP:")), "status 77")
    if not (rc != 0 if want_rc == "!0" else rc == int(want_rc)):
        return "FAIL", f"status {rc}, want {want_rc}"
    if want_rc == "0":
        bad = next((l for l in lines if l.startswith("FAIL:")), None)
        if bad:
            return "FAIL", f"status 0 but a FAIL: line: {bad[:160]}"
    shown = None
    for kind, count, rx in t.expect:
        hits = [l for l in lines if rx.search(l)]
        if kind == "want" and not hits:
            return "FAIL", f"no line matches {rx.pattern!r}"
        if kind == "not" and hits:
            return "FAIL", f"a line matches {rx.pattern!r}: {hits[0][:160]}"
        if kind == "count" and len(hits) != count:
            return "FAIL", f"{len(hits)} lines match {rx.pattern!r}, want {count}"
        if shown is None and kind != "not" and hits:
            shown = hits[0]
    if shown is None:
        shown = next((l for l in reversed(lines) if l.strip()), "(no output)")
    return "PASS", shown.strip()[:160]


def do_test(t, out, env, durations, backstop):
    d = build_dir(out, t.vars)
    tdir = os.path.join(out, "tests", t.name)
    shutil.rmtree(tdir, ignore_errors=True)
    os.makedirs(tdir)
    ab = os.path.abspath
    tenv = dict(env, O=ab(out), B=ab(d), T=ab(tdir), LOG=ab(os.path.join(tdir, "run.log")),
                ELF=ab(os.path.join(d, "virt", "wordmerge.elf")))
    outfile = os.path.join(tdir, "out")
    rc, secs, how = run(["bash", "-c", "set -o pipefail\n" + BOOT + t.cmd], outfile, tenv,
                        backstop, t.name)
    if how == "interrupted":
        return how
    durations[t.name] = secs
    if how == "timeout":
        # Never a status: an expected 124 must not pass by hanging.
        say("\n".join([tail(outfile), f"TIMEOUT: {t.name}: killed by run.py after {backstop} s, "
                       f"its own timeouts did not end it (output {outfile})"]))
        return "TIMEOUT"
    with open(outfile, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    verdict, why = judge(t, rc, text)
    note = re.compile(re.escape(FOREIGN).replace(r"\{\}", r"\S+"))
    for line in dict.fromkeys(l for l in text.splitlines() if note.fullmatch(l)):
        with print_lock:
            if line not in said:
                said.add(line)
                emit(line)
    if verdict == "FAIL":
        say("\n".join(filter(None, [tail(outfile),
                                     f"FAIL: {t.name}: {why} ({secs:.0f} s, output {outfile})"])))
    else:
        say(f"{verdict}: {t.name}: {why} ({secs:.0f} s)")
    return verdict


def main():
    if sys.argv[1:2] == ["--exec"]:
        return exec_elf(sys.argv[2:])
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)     # tests/run.py --list | head
    # SIGINT (a terminal's Ctrl-C) and SIGTERM (timeout(1), a CI's cancel)
    # reach run.py but not its children, each in a session of its own: the
    # main loop below ends them.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda signum, frame: interrupted.append(signum))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-j", type=int, default=default_jobs(),
                    help="tests at once (default: make -j, else cores + 1)")
    ap.add_argument("-O", default="build",
                    help="the folder of the tests and their builds (default build)")
    ap.add_argument("--table", default=CFG)
    ap.add_argument("--backstop", type=int, default=BACKSTOP_S, metavar="S",
                    help=f"end a test or build after S seconds (default {BACKSTOP_S})")
    ap.add_argument("--list", action="store_true", help="list the selected tests and stop")
    ap.add_argument("--strict", action="store_true", help="a skipped test fails the run")
    ap.add_argument("select", nargs="*", help="test names or groups (default: all)")
    a = ap.parse_args()
    if a.backstop < 1:
        ap.error("--backstop must be at least 1 second")
    try:
        tests = read_table(a.table)
    except (OSError, TableError) as err:
        print(f"run.py: {a.table}: {err}", file=sys.stderr)
        return 2
    sel = [w for s in a.select for w in s.split()]
    unknown = [s for s in sel if not any(s == t.name or s in t.groups for t in tests)]
    if unknown:
        print(f"run.py: no test or group named {', '.join(unknown)} "
              f"(tests/run.py --list shows them)", file=sys.stderr)
        return 2
    if sel:
        tests = [t for t in tests if t.name in sel or set(sel) & set(t.groups)]
    if a.list:
        for t in tests:
            print(f"{t.name:28} {','.join(t.groups)}")
        return 0
    out = os.path.normpath(a.O)
    # Every test and build writes under O: an unwritable O=, or a read-only checkout's
    # build/, is one line before anything runs, not a traceback.
    try:
        os.makedirs(os.path.join(out, "tests"), exist_ok=True)
        probe = os.path.join(out, "tests", f".writable.{os.getpid()}")
        open(probe, "w").close()
        os.unlink(probe)
    except OSError as err:
        print(f"run.py: error: cannot write the tests' folder {os.path.join(out, 'tests')}: "
              f"{err.strerror} (make test O=DIR: a folder this user can write)", file=sys.stderr)
        return 2
    gone = missing_tools(tests)
    skipped = [t for t in tests if set(t.needs) & set(gone)]
    for t in skipped:
        tool = next(x for x in t.needs if x in gone)
        print(f"SKIP: {t.name}: needs {tool} ({gone[tool]})", flush=True)
    tests = [t for t in tests if t not in skipped]
    env = child_env()
    # One cache of the peers' sources for every build, the tests' own too
    # (tests/peers.mk: PEERS_DIR); and images without the references (the
    # peers, picolibc's two builds) unless a test's build says PEERS=1 or
    # PICOLIBC_REFS=1 (tests.cfg): a reference's failure is informative, so
    # its groups, three quarters of a plain boot's time, cannot change the
    # verdict of a test that does not look at them.
    env["PEERS_DIR"] = os.path.abspath(os.path.join(out, "peers"))
    # One kernel build for every build's make kernel-test (tests/kernel/kernel.mk).
    env["KERNEL_DIR"] = os.path.abspath(os.path.join(out, "kernel"))
    # Python's bytecode of tools/ kept for every later run of it, not in the tree's __pycache__.
    env["PYTHONPYCACHEPREFIX"] = os.path.abspath(os.path.join(out, "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # The image's own objects and the peers' through ccache (the Makefile's IMG_CCACHE), its
    # cache in O: the many tests that build an image in a folder of their own compile only
    # what differs in it (their generated headers' users, lib with a fault).
    if shutil.which("ccache"):
        env["IMG_CCACHE"] = "ccache"
        env["CCACHE_DIR"] = os.path.abspath(os.path.join(out, "ccache"))
        # Its direct mode, keyed on the command line, never hits across folders: straight to
        # the preprocessed source.
        env["CCACHE_NODIRECT"] = "1"
    env.setdefault("PEERS", "0")
    env.setdefault("PICOLIBC_REFS", "0")
    start_reaper()
    start = time.monotonic()

    # One make per build directory, with every target its tests need; a
    # test starts once its build is done.  What runs next is what the
    # longest chain of work starts: a test by its time last run, a build by
    # its own time plus that of the longest test waiting for it (both kept
    # in $O/tests/durations), so that the slowest tests start early and no
    # long one is left to run alone at the end; a test or build without a
    # time (new, or not run last time) counts as the longest of its kind
    # that has one, so that it is not left to the end either.  Without times
    # (a first run, a clean CI clone) the table's order: build, then its
    # tests, line by line (tests.cfg lists the slowest first).
    tfile = os.path.join(out, "tests", "durations")
    durations = {}
    if os.path.exists(tfile):
        for line in open(tfile, encoding="utf-8"):
            name, _, secs = line.partition(" ")
            durations[name] = float(secs or 0)
    known = bool(durations)
    last = dict(durations)

    most = {b: max([s for n, s in last.items() if n.startswith("build:") == b] or [0])
            for b in (False, True)}

    def expect(key):
        return last.get(key, most[key.startswith("build:")])
    # The estimate takes an untimed one as a typical one of its kind: as the longest (the
    # kernel's build, for a build), a few new tests would add hours to it.
    typical = {b: statistics.median([s for n, s in last.items() if n.startswith("build:") == b]
                                    or [0]) for b in (False, True)}

    def guess(key):
        return last.get(key, typical[key.startswith("build:")])
    # A build is a directory and, in order, the target sets of its tests:
    # one make each, one after the other (never two makes in one folder).
    builds, waiting, first, longest = {}, {}, {}, {}
    for i, t in enumerate(tests):
        key = (build_dir(out, t.vars), tuple(t.targets or ["all"])) if t.build else None
        if key:
            sets = builds.setdefault(key[0], (t.vars, []))[1]
            if key[1] not in sets:
                sets.append(key[1])
            first.setdefault(key[0], i)
            longest[key[0]] = max(longest.get(key[0], 0), expect(t.name) if known else 0)
        waiting.setdefault(key, []).append((i, t))

    def build_key(d):
        return "build:" + os.path.basename(d)

    queue = [(-(expect(build_key(d)) + longest[d]) if known else 0, first[d], "build", d)
             for d in builds]
    tally = {"PASS": 0, "FAIL": 0, "SKIP": len(skipped), "TIMEOUT": 0}
    cond = threading.Condition()
    busy = [0]

    progress.setup(len(tests) + len(skipped), len(skipped), a.j, guess if known else None,
                   {build_key(d): [t.name for t in tests if t.build and build_dir(out, t.vars) == d]
                    for d in builds}, [t.name for t in tests])

    def ready(key):
        for i, t in waiting.pop(key, []):
            queue.append((-expect(t.name) if known else 0, i, "test", t))
        queue.sort(key=lambda q: q[:2])

    def worker():
        while True:
            with cond:
                while not queue and busy[0] and not interrupted:
                    cond.wait()
                if not queue or interrupted:
                    cond.notify_all()
                    return
                _, _, kind, item = queue.pop(0)
                busy[0] += 1
            if kind == "build":
                variables, sets = builds[item]
                began = time.monotonic()
                progress.begin(build_key(item))
                for targets in sets:
                    why = do_build(out, item, variables, list(targets), env, a.backstop)
                    if why == "interrupted":
                        break
                    with cond:
                        if why:
                            say(f"FAIL: build {item} {' '.join(targets)}: {why}")
                            for _, t in waiting.pop((item, targets), []):
                                say(f"FAIL: {t.name}: its build failed (above)")
                                tally["FAIL"] += 1
                                progress.end([t.name], failed=1)
                        ready((item, targets))
                        cond.notify_all()
                with cond:
                    durations[build_key(item)] = time.monotonic() - began
                progress.end([build_key(item)])
            else:
                progress.begin(item.name)
                v = do_test(item, out, env, durations, a.backstop)
                with cond:
                    if v != "interrupted":
                        tally[v] += 1
                        progress.end([item.name], failed=v in ("FAIL", "TIMEOUT"))
            with cond:
                busy[0] -= 1
                cond.notify_all()

    ready(None)
    threads = [threading.Thread(target=worker) for _ in range(max(1, a.j))]
    for th in threads:
        th.start()
    stopped, stopped_at = [], None
    progress.tick(force=True)
    while any(th.is_alive() for th in threads):
        next(th for th in threads if th.is_alive()).join(0.2)
        if not interrupted:
            progress.tick()
        if interrupted and stopped_at is None:
            # Stop every running test and build (its whole process
            # group), start nothing more.
            stopped_at = time.monotonic()
            with children_lock:
                stopped = sorted(children.values())
                for p in children:
                    killpg(p.pid, signal.SIGTERM)
            with cond:
                cond.notify_all()
        elif stopped_at is not None and time.monotonic() - stopped_at > 10:
            with children_lock:
                for p in children:
                    killpg(p.pid, signal.SIGKILL)
    progress.clear()
    if interrupted:
        name = signal.Signals(interrupted[0]).name
        print(f"run.py: interrupted by {name}: ended what was running "
              f"({', '.join(stopped) or 'nothing'}); no verdict ({tally['PASS']} passed, "
              f"{tally['FAIL'] + tally['TIMEOUT']} failed before that)",
              flush=True)
        return 128 + interrupted[0]
    with open(tfile + ".tmp", "w", encoding="utf-8") as f:
        f.writelines(f"{n} {s:.1f}\n" for n, s in sorted(durations.items()))
    os.replace(tfile + ".tmp", tfile)
    secs = time.monotonic() - start
    timed_out = f", {tally['TIMEOUT']} of them timed out" if tally["TIMEOUT"] else ""
    print(f"run.py: {len(tests) + len(skipped)} tests{timed_out}, {secs / 60:.1f} min, -j{a.j}")
    if a.strict and tally["SKIP"]:
        print(f"run.py: error: --strict (make test STRICT=1): {tally['SKIP']} tests skipped")
    # The closing line alone, as test runners' readers know it.
    print(f"{tally['PASS']} passed, {tally['FAIL'] + tally['TIMEOUT']} failed, "
          f"{tally['SKIP']} skipped")
    return 1 if tally["FAIL"] or tally["TIMEOUT"] or a.strict and tally["SKIP"] else 0


if __name__ == "__main__":
    sys.exit(main())
