#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Build the wordmerge test image (when needed), boot it on QEMU under OpenSBI,
# mirror the UART to the terminal and to a log, and exit with the image's
# status (the number in its final "EXIT: STATUS=n" line).
#
# Exit codes: the image's status (0 = every check passed); 124 timeout;
# 125 the run ended without an EXIT: line or with a status QEMU contradicts;
# 2 bad usage or a missing tool.
set -u

usage() {
	cat <<'USAGE'
Usage: ./run-qemu.sh [options] [-- extra QEMU arguments]

Builds build/virt/wordmerge.elf if needed, boots it on qemu-system-riscv64
with OpenSBI, prints the UART output and exits with the image's status.

Options:
  --machine NAME       virt (default) or sifive_u (SiFive U54 model, no
                       test finisher: QEMU is stopped once EXIT: appears)
  --smp N              number of harts (default 1; sifive_u: 5 fixed)
  --memory SIZE        RAM size (default 256M)
  --timeout SECONDS    give up after this long (default 600)
  --icount             -icount shift=0: rdcycle/rdinstret count retired
                       instructions exactly (what the benchmarks use)
  --check-alignment    load the misaligned-access QEMU plugin and print its
                       table; fail if lib's functions made any misaligned
                       access or the deliberate control was not seen
  --elf FILE           boot this ELF instead of building the default one
  --log FILE           UART log (default build/run/<machine>-smp<N>.log)
  --no-build           do not run make first
  --bios FILE          OpenSBI firmware (default: QEMU's bundled "default")
  --mttcg              one host thread per hart (QEMU's multi-threaded TCG);
                       by default machines with more than one hart run
                       round-robin on one thread (-accel tcg,thread=single)
  -h, --help           this text

Anything after -- is passed to QEMU unchanged.
USAGE
}

die() {
	echo "run-qemu.sh: error: $*" >&2
	exit 2
}

top=$(cd "$(dirname "$0")" && pwd)
machine=virt smp=1 memory=256M timeout_s=600 icount=0 check_align=0
elf= log= build=1 bios=default mttcg=0
extra=()
while [ $# -gt 0 ]; do
	case "$1" in
	--machine) [ $# -ge 2 ] || die "--machine needs a value"; machine=$2; shift 2 ;;
	--smp) [ $# -ge 2 ] || die "--smp needs a value"; smp=$2; shift 2 ;;
	--memory) [ $# -ge 2 ] || die "--memory needs a value"; memory=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || die "--timeout needs a value"; timeout_s=$2; shift 2 ;;
	--icount) icount=1; shift ;;
	--check-alignment) check_align=1; shift ;;
	--elf) [ $# -ge 2 ] || die "--elf needs a value"; elf=$2; build=0; shift 2 ;;
	--log) [ $# -ge 2 ] || die "--log needs a value"; log=$2; shift 2 ;;
	--no-build) build=0; shift ;;
	--bios) [ $# -ge 2 ] || die "--bios needs a value"; bios=$2; shift 2 ;;
	--mttcg) mttcg=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; extra=("$@"); break ;;
	*) usage >&2; die "unknown option: $1" ;;
	esac
done

case "$smp" in '' | *[!0-9]*) die "--smp takes a number, not '$smp'" ;; esac
case "$timeout_s" in '' | *[!0-9]*) die "--timeout takes seconds, not '$timeout_s'" ;; esac
case "$machine" in
virt) [ "$smp" -ge 1 ] && [ "$smp" -le 8 ] || die "virt: --smp must be 1..8" ;;
sifive_u) smp=5 ;; # one E51 monitor hart (no S-mode) + four U54s
*) die "unknown machine '$machine' (known: virt, sifive_u)" ;;
esac

"$top/tools/deps.sh" qemu-system-misc opensbi gcc-riscv64-unknown-elf \
	picolibc-riscv64-unknown-elf make python3 || exit 2

if [ "$build" = 1 ]; then
	make -C "$top" --no-print-directory PLATFORM=virt all >&2 || die "build failed"
fi
[ -n "$elf" ] || elf=$top/build/virt/wordmerge.elf
[ -f "$elf" ] || die "no image at $elf (build it with make)"
[ -n "$log" ] || log=$top/build/run/$machine-smp$smp.log
mkdir -p "$(dirname "$log")" || die "cannot create the log's folder"

qemu_args=(-M "$machine" -m "$memory" -smp "$smp" -nographic -monitor none
	-bios "$bios" -kernel "$elf")
[ "$icount" = 1 ] && qemu_args+=(-icount shift=0)
# More than one hart: QEMU 7.2's default multi-threaded TCG gives every hart
# a host thread, and the harts parked in OpenSBI's HSM wait still took about a
# quarter of a core each; on 2 host cores virt --smp 8 ran 64 s, sifive_u 49 s.
# Round-robin on one thread: 21 s and 23 s, as long as one hart.
[ "$smp" -gt 1 ] && [ "$mttcg" = 0 ] && qemu_args+=(-accel tcg,thread=single)
raw=
if [ "$check_align" = 1 ]; then
	make -C "$top" --no-print-directory misalign-plugin >&2 || die "plugin build failed"
	raw=$log.misalign
	qemu_args+=(-plugin "file=$top/build/tools/misalign.so,out=$raw,summary=off")
fi
qemu_args+=("${extra[@]}")

# Machines with a "sifive,test0" finisher that the image uses: QEMU's exit
# status is the image's.  Elsewhere we stop QEMU once EXIT: has appeared.
has_finisher=0
[ "$machine" = virt ] && has_finisher=1

echo "run-qemu.sh: qemu-system-riscv64 ${qemu_args[*]}" >&2
: >"$log"
qemu-system-riscv64 "${qemu_args[@]}" </dev/null >"$log" 2>&1 &
qpid=$!
tail -n +1 -f --pid="$qpid" "$log" &
tpid=$!

start=$SECONDS timed_out=0 stopped=0
while kill -0 "$qpid" 2>/dev/null; do
	if [ $((SECONDS - start)) -ge "$timeout_s" ]; then
		timed_out=1
		kill "$qpid" 2>/dev/null
		break
	fi
	if [ "$has_finisher" = 0 ] && grep -q '^EXIT: STATUS=' "$log"; then
		sleep 1 # let the last lines through
		stopped=1
		kill "$qpid" 2>/dev/null
		break
	fi
	sleep 0.2
done
wait "$qpid"
qemu_rc=$?
wait "$tpid" 2>/dev/null

if [ "$timed_out" = 1 ]; then
	echo "run-qemu.sh: error: timeout after ${timeout_s}s without an EXIT: line (log: $log)" >&2
	exit 124
fi
line=$(tr -d '\r' <"$log" | grep -a '^EXIT: STATUS=' | tail -n 1)
if [ -z "$line" ]; then
	echo "run-qemu.sh: error: QEMU ended (status $qemu_rc) without an EXIT: line: truncated run? (log: $log)" >&2
	exit 125
fi
status=${line#EXIT: STATUS=}
case "$status" in '' | *[!0-9]*) echo "run-qemu.sh: error: malformed line '$line' (log: $log)" >&2; exit 125 ;; esac
if [ "$has_finisher" = 1 ] && [ "$stopped" = 0 ] && [ "$qemu_rc" != "$status" ]; then
	echo "run-qemu.sh: error: the image said STATUS=$status but QEMU exited $qemu_rc (log: $log)" >&2
	exit 125
fi

if [ "$check_align" = 1 ]; then
	python3 "$top/tools/misalign-table.py" --nm riscv64-unknown-elf-nm "$raw" "$elf" \
		--require misalign_control --fail-in 'memcpy,memmove,memset,wm_*' ||
		{ [ "$status" = 0 ] && status=1; }
fi
echo "run-qemu.sh: image status $status (log: $log)" >&2
exit "$status"
