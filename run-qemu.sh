#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Build the wordmerge test image (when needed), boot it on QEMU under OpenSBI,
# mirror the UART to a log and to the terminal (there with the trap report's
# addresses named from the ELF), print the tables of its benchmark lines
# (tools/report.py summary), and exit with the image's status (the number
# in its final "EXIT: STATUS=n" line).
#
# Build output goes under $O (environment; default "build", a relative path
# is relative to the repository top), as with make O=...: the default image
# $O/virt/wordmerge.elf, the logs $O/run/, the plugin $O/tools/misalign.so.
#
# Exit status:
#   0..n  the image's status: 0 every check passed, 1 a check failed,
#         2 an unexpected trap, 3 an unusable device tree
#   124   timeout
#   125   the run ended without an EXIT: line, or with a status that QEMU's
#         own exit status contradicts
#   126   run-qemu.sh's own error: bad usage, a missing tool, the build
#         failed, an unreadable or non-RISC-V-64 ELF, an unwritable log
set -u

usage() {
	cat <<'USAGE'
Usage: ./run-qemu.sh [options] [-- extra QEMU arguments]

Builds $O/virt/wordmerge.elf if needed, boots it on qemu-system-riscv64
with OpenSBI, prints the UART output and exits with the image's status.

Options:
  --machine NAME       virt (default) or sifive_u (SiFive U54 model, no
                       test finisher: QEMU is stopped once EXIT: appears)
  --smp N              number of harts (default 1; sifive_u: 5 fixed)
  --memory SIZE        RAM size (default 256M)
  --timeout SECONDS    give up after this long, at least 1 (default 600)
  --icount             -icount shift=0: rdcycle/rdinstret count retired
                       instructions exactly (what the benchmarks use)
  --check-alignment    load the misaligned-access QEMU plugin and print its
                       table; fail if lib's functions made any misaligned
                       access or the deliberate control was not seen
  --elf FILE           boot this RISC-V 64-bit ELF instead of building the
                       default one
  --log FILE           UART log (default $O/run/<machine>-smp<N>.log), raw
                       like a board's serial capture; the terminal shows
                       it through tools/elf.py symbolize (sym+offset after
                       the trap report's addresses)
  --no-build           do not run make first
  --bios FILE          OpenSBI firmware (default: QEMU's bundled "default")
  --via-uboot          boot the way a board does: OpenSBI starts Debian's
                       S-mode U-Boot for QEMU virt (u-boot-qemu), whose
                       distro boot runs boot.scr from a FAT partition of a
                       virtio disk: load wordmerge.bin, then booti it with
                       U-Boot's device tree (docs/boards.md); virt only
  --mttcg              one host thread per hart (QEMU's multi-threaded TCG);
                       by default machines with more than one hart run
                       round-robin on one thread (-accel tcg,thread=single)
  -h, --help           this text

Anything after -- is passed to QEMU unchanged.

Environment:
  O=DIR                build directory, as in make O=DIR (default build;
                       relative to the repository top)
  CROSS_COMPILE=PREFIX RISC-V toolchain prefix (default riscv64-unknown-elf-)

Exit status:
  0..n   the image's status (its EXIT: STATUS=n line): 0 every check
         passed, 1 a check failed, 2 an unexpected trap, 3 an unusable
         device tree
  124    timeout
  125    the run ended without an EXIT: line, or with a status that QEMU's
         exit status contradicts
  126    run-qemu.sh's own error: bad usage, a missing tool, the build
         failed, an unreadable or non-RISC-V-64 ELF, an unwritable log
USAGE
}

die() {
	echo "run-qemu.sh: error: $*" >&2
	exit 126
}

# Run through a symlink too: the repository is where the script file is.
top=$(dirname "$(readlink -f "$0")")
O=${O:-build}
case "$O" in /*) odir=$O ;; *) odir=$top/$O ;; esac
cross=${CROSS_COMPILE:-riscv64-unknown-elf-}
machine=virt smp=1 memory=256M timeout_s=600 icount=0 check_align=0
elf= log= build=1 bios=default mttcg=0 via_uboot=0
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
	--via-uboot) via_uboot=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; extra=("$@"); break ;;
	*) usage >&2; die "unknown option: $1" ;;
	esac
done

case "$smp" in '' | *[!0-9]*) die "--smp takes a number, not '$smp'" ;; esac
case "$timeout_s" in '' | *[!0-9]*) die "--timeout takes seconds, not '$timeout_s'" ;; esac
[ "$timeout_s" -ge 1 ] 2>/dev/null || die "--timeout must be at least 1 second, not '$timeout_s'"
case "$machine" in
virt) [ "$smp" -ge 1 ] && [ "$smp" -le 8 ] || die "virt: --smp must be 1..8" ;;
sifive_u) smp=5 ;; # one E51 monitor hart (no S-mode) + four U54s
*) die "unknown machine '$machine' (known: virt, sifive_u)" ;;
esac
[ "$via_uboot" = 0 ] || [ "$machine" = virt ] ||
	die "--via-uboot boots QEMU virt only (Debian's u-boot-qemu has no sifive_u S-mode build)"

# The tools this run needs, and no others (tools/deps.sh).
tools=(qemu-system-riscv64 python3)
[ "$bios" != default ] || tools+=(opensbi-firmware)
[ "$build" = 0 ] || tools+=(make "${cross}gcc" picolibc)
[ "$via_uboot" = 0 ] || tools+=(u-boot-qemu-smode mkimage sfdisk mkfs.vfat mcopy "${cross}objcopy")
[ "$check_align" = 0 ] || tools+=(make gcc)
"$top/tools/deps.sh" "${tools[@]}" || die "missing tools (see above)"

if [ "$build" = 1 ]; then
	make -C "$top" --no-print-directory O="$O" PLATFORM=virt all >&2 ||
		die "build failed (make O=$O PLATFORM=virt all)"
fi
[ -n "$elf" ] || elf=$odir/virt/wordmerge.elf
[ -e "$elf" ] || die "no image at $elf (build it with make O=$O, or drop --no-build)"
[ -f "$elf" ] || die "--elf $elf is not a regular file"
[ -r "$elf" ] || die "cannot read $elf"
# QEMU (and U-Boot's booti) put the image at 0x80200000 on virt and
# sifive_u: tools/elf.py check refuses, in one line, what is not a whole
# RISC-V 64-bit little-endian ELF linked there (a .bin, a truncated copy,
# an image built for another PLATFORM=).
/usr/bin/python3 "$top/tools/elf.py" check "$elf" --load-addr 0x80200000 ||
	die "$elf cannot be booted here (--elf wants the .elf that make PLATFORM=virt builds)"

[ -n "$log" ] || log=$odir/run/$machine-smp$smp.log
[ -d "$log" ] && die "--log $log is a directory; give a file name"
logdir=$(dirname "$log")
mkdir -p "$logdir" 2>/dev/null || die "cannot create the log's folder $logdir"
[ "$log" -ef "$elf" ] && die "--log $log is the ELF being booted"
{ : >"$log"; } 2>/dev/null || die "cannot write the log $log"
# Read back after the run: it must be a plain file that the truncation emptied.
[ -f "$log" ] && [ -z "$(head -c 1 "$log" 2>/dev/null)" ] ||
	die "--log $log is not a plain file that run-qemu.sh can write and read back"

qemu_args=(-M "$machine" -m "$memory" -smp "$smp" -nographic -monitor none
	-bios "$bios")
if [ "$via_uboot" = 1 ]; then
	# The flow of docs/boards.md, with no typing: U-Boot's distro boot scans
	# the partitions of the virtio disk (a bare FAT image is not found) for
	# boot.scr.  The payload goes to kernel_addr_r, from where booti moves it
	# to RAM base + text_offset: loading it there directly would overwrite
	# U-Boot itself.
	uboot=/usr/lib/u-boot/qemu-riscv64_smode/uboot.elf
	[ -r "$uboot" ] || die "no S-mode U-Boot at $uboot (Debian package u-boot-qemu)"
	ubdir=$log.uboot
	rm -rf "$ubdir" && mkdir -p "$ubdir" || die "cannot create $ubdir"
	"${cross}objcopy" -O binary "$elf" "$ubdir/wordmerge.bin" ||
		die "cannot make the raw image from $elf (${cross}objcopy)"
	printf '%s\n' 'echo wordmerge: load wordmerge.bin and booti it' \
		'load virtio 0:1 ${kernel_addr_r} wordmerge.bin' \
		'booti ${kernel_addr_r} - ${fdtcontroladdr}' >"$ubdir/boot.cmd"
	{ mkimage -A riscv -O linux -T script -C none -d "$ubdir/boot.cmd" "$ubdir/boot.scr" &&
		truncate -s 16M "$ubdir/disk.img" &&
		printf 'label: dos\nstart=2048, type=c, bootable\n' | sfdisk -q "$ubdir/disk.img" &&
		mkfs.vfat --offset 2048 -n WORDMERGE "$ubdir/disk.img" &&
		mcopy -i "$ubdir/disk.img@@1M" "$ubdir/wordmerge.bin" "$ubdir/boot.scr" ::; } \
		>"$ubdir/make-disk.log" 2>&1 ||
		die "cannot make the boot disk in $ubdir (see $ubdir/make-disk.log)"
	qemu_args+=(-kernel "$uboot" -drive "file=$ubdir/disk.img,format=raw,if=virtio")
else
	qemu_args+=(-kernel "$elf")
fi
[ "$icount" = 1 ] && qemu_args+=(-icount shift=0)
# More than one hart: QEMU 7.2's default multi-threaded TCG gives every hart
# a host thread, and the harts parked in OpenSBI's HSM wait still took about a
# quarter of a core each; on 2 host cores virt --smp 8 ran 64 s, sifive_u 49 s.
# Round-robin on one thread: 21 s and 23 s, as long as one hart.
[ "$smp" -gt 1 ] && [ "$mttcg" = 0 ] && qemu_args+=(-accel tcg,thread=single)
raw=
if [ "$check_align" = 1 ]; then
	make -C "$top" --no-print-directory O="$O" misalign-plugin >&2 ||
		die "plugin build failed (make O=$O misalign-plugin)"
	raw=$log.misalign
	[ -d "$raw" ] && die "the plugin's output $raw is a directory"
	{ : >"$raw"; } 2>/dev/null || die "cannot write the plugin's output $raw"
	qemu_args+=(-plugin "file=$odir/tools/misalign.so,out=$raw,summary=off")
fi
qemu_args+=("${extra[@]}")

# Machines with a "sifive,test0" finisher that the image uses: QEMU's exit
# status is the image's.  Elsewhere we stop QEMU once EXIT: has appeared.
has_finisher=0
[ "$machine" = virt ] && has_finisher=1

echo "run-qemu.sh: qemu-system-riscv64 ${qemu_args[*]}" >&2
qemu-system-riscv64 "${qemu_args[@]}" </dev/null >"$log" 2>&1 &
qpid=$!
# The log stays what the UART said, as a board's serial capture would; the
# terminal gets it with the trap report's addresses named from the ELF
# (tools/elf.py symbolize: "sepc=0x... <sym+0x...>").  Should the
# symbolizer fail, cat passes the rest through raw; the status below is
# read from the log either way.
tail -n +1 -f --pid="$qpid" "$log" |
	{ /usr/bin/python3 "$top/tools/elf.py" symbolize "$elf" || cat; } &
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
	/usr/bin/python3 "$top/tools/misalign-table.py" "$raw" "$elf" \
		--require misalign_control --fail-in 'memcpy,memmove,memset,wm_*' ||
		{ [ "$status" = 0 ] && status=1; }
fi
# A log with benchmark lines (the default image's closing benchmark, or a
# make BENCH=... image): their tables, rendered by tools/report.py.  A
# benchmark it cannot read (truncated, damaged) fails a run that passed;
# an image's failure status stays what it is.
if tr -d '\r' <"$log" | grep -aq 'CSV:begin,wordmerge-bench,'; then
	/usr/bin/python3 "$top/tools/report.py" summary "$log" --elf "$elf" ||
		{ echo "run-qemu.sh: error: the benchmark lines are unusable (tools/report.py summary $log)" >&2
		  [ "$status" = 0 ] && status=1; }
fi
echo "run-qemu.sh: image status $status (log: $log)" >&2
exit "$status"
