#!/bin/bash
# SPDX-License-Identifier: MIT
# Usage: run.sh ELF LOG
# Boots the AArch64 test image ELF on qemu-system-aarch64 -M virt (EL1;
# semihosting ends QEMU), its console through tools/elf.py symbolize (a
# TRAP: line's addresses named from ELF's symbols) into LOG and to stdout,
# then reads LOG with tools/wmlog.py check (every tagged line against
# docs/protocol.md; it prints the status of the log's EXIT: line).
# Exit status: the log's EXIT: STATUS= (1 for a 0 that tools/wmlog.py
# verdict does not confirm), 2 for a log that breaks the
# protocol, 124 if QEMU ran past 600 s, 125 for a log without an EXIT: line.
set -u
[ $# -eq 2 ] || { echo "usage: $0 ELF LOG" >&2; exit 2; }
elf=$1 log=$2 top=$(dirname "$0")/../..
mkdir -p "$(dirname "$log")" || exit 2
timeout -k 5 600 qemu-system-aarch64 -M virt -cpu cortex-a53 -m 128M -nographic \
	-monitor none -semihosting-config enable=on,target=native -kernel "$elf" </dev/null |
	/usr/bin/python3 "$top/tools/elf.py" symbolize "$elf" | tee "$log"
qemu=${PIPESTATUS[0]}
[ "$qemu" != 124 ] || { echo "run.sh: error: QEMU ran past 600 s" >&2; exit 124; }
check=$("$top/tools/wmlog.py" check "$log") || exit 2
echo "$check"
case $check in
(*", status "[0-9]*) status=${check##*, status } ;;
(*) echo "run.sh: error: $log has no EXIT: line (QEMU's status $qemu)" >&2; exit 125 ;;
esac
# A status of 0 is the image's word; the log's one judge (tools/wmlog.py verdict, run-qemu.sh's
# and make report's) must find one whole sealed run, every planned group passed.
[ "$status" != 0 ] || "$top/tools/wmlog.py" verdict "$log" || status=1
exit "$status"
