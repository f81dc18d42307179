#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Usage: ./run-qemu.sh [options] [-- extra QEMU arguments]
#
# Builds the wordmerge test image $O/virt/wordmerge.elf (when needed), boots
# it on qemu-system-riscv64 under OpenSBI, mirrors the UART to a log and to
# the terminal (there with the trap report's addresses named from the ELF by
# tools/elf.py symbolize, and without the benchmark's CSV: data lines and
# its PMU: lines, which the tables show: --full-log), prints the tables of
# its benchmark lines (tools/report.py summary: lower is better, * marks the
# fewest counts of each size) and exits with the image's status: the number in
# its "EXIT: STATUS=n" line.  QEMU is ended as soon as that line is complete,
# whether or not the device tree names a test finisher (sifive_u has none).
# This comment is the --help text.
#
# Options:
#   --machine NAME       virt (default) or sifive_u (SiFive U54 model)
#   --smp N              number of harts, 1..8 (default 1; sifive_u: 5 fixed)
#   --memory SIZE        RAM size, whole MiB or GiB, 16M..16G (default 256M)
#   --timeout SECONDS    give up after this long, 1..999999999 (default 600)
#   --silence SECONDS    give up when the image has printed no line this long
#                        after OpenSBI's first output (default: virt 20,
#                        sifive_u 30, 30 more with --via-uboot; 0: no bound)
#   --icount             the default: QEMU runs under -icount shift=0, where
#                        rdcycle and rdinstret count retired instructions
#                        exactly (and time advances 1 ns for each)
#   --no-icount          QEMU on its own clock: the run takes less CPU time
#                        (how much less depends on the host), but rdcycle
#                        and rdinstret then follow the host's clock, and the
#                        tables say their counts are not meaningful
#   --check-alignment    load the misaligned-access QEMU plugin and print its
#                        table, and each implementation's count (informative
#                        but for ours); fail if lib's functions made any
#                        misaligned access or the deliberate control was not seen
#   --impl NAME=FILE     build the user's memcpy/memmove/memset of FILE (C,
#                        .S/.s or an RV64 object) into the image as NAME,
#                        checked (FAIL:/SKIP: lines) and measured beside ours;
#                        up to four, make IMPL="NAME=FILE ..." (docs/impl.md).
#                        a FILE whose name make cannot take is refused:
#                          a space: "make splits it at its spaces"
#                          a $: "make reads $ as the start of a variable"
#                          = : ; # % | * ? [ ] \ " ` ( ): "make reads ':'
#                            in a rule or its recipe as its own syntax"
#   --impl-must-align    --check-alignment, and fail if a user's code (--impl:
#                        anything in its object) made a misaligned access
#   --elf FILE           boot this RISC-V 64-bit ELF instead of building the
#                        default one
#   --log FILE           UART log, raw like a board's serial capture (a new
#                        file, an empty one or an earlier run's log: its
#                        FILE.misalign, FILE.uboot/ and FILE.run
#                        beside it are removed or made anew; default
#                        $O/run/<machine>-smp<N>.log, or <machine>-smp<N>-2.log
#                        and so on while another run uses that name); the
#                        terminal shows it through tools/elf.py symbolize
#                        (sym+offset after the trap report's addresses)
#                        and FILE.run beside it says how it was made (the
#                        command line, QEMU's version, the image: make report);
#                        FILE is a regular file or a new one, not an input of
#                        the run (--impl's FILE, --bios's, the ELF)
#   --full-log           the terminal shows the whole log as it comes, the
#                        benchmark's CSV: data lines and PMU: lines too
#   --no-build           do not run make first
#   --bios FILE          OpenSBI firmware (default: QEMU's bundled "default")
#   --via-uboot          boot the way a board does: OpenSBI starts Debian's
#                        S-mode U-Boot for QEMU virt (u-boot-qemu), whose
#                        distro boot runs boot.scr from a FAT partition of a
#                        virtio disk: load wordmerge.bin, then booti it with
#                        U-Boot's device tree (docs/boards.md); virt only
#   --mttcg              one host thread per hart (QEMU's multi-threaded TCG,
#                        with --no-icount only);
#                        by default machines with more than one hart run
#                        round-robin on one thread (-accel tcg,thread=single)
#   -h, --help           this text
#
# An option given again, or its opposite (--icount and --no-icount), says so
# in a note, and the last one counts (--impl adds one).  Anything after -- is
# passed to QEMU unchanged, but QEMU's -smp and -M (-machine) are refused
# there: the log's name and the run's checks follow --smp and --machine.
#
# Environment:
#   O=DIR                build directory, as in make O=DIR (default build;
#                        relative to the repository top).  Runs that build
#                        into the same DIR take turns (flock on
#                        DIR/.build.lock), each then boots its own copy of
#                        the image it built; the image cannot be linked in a
#                        DIR whose path has a comma or a space
#   CROSS_COMPILE=PREFIX RISC-V toolchain prefix (default riscv64-unknown-elf-)
#   IMPL_CFLAGS=FLAGS    added to the flags --impl sources are built with
#
# Tools (tools/deps.sh checks them, and installs them on Debian): a run needs
# qemu-system-riscv64, OpenSBI's firmware (QEMU's own, for --bios default),
# /usr/bin/python3 with pyelftools (tools/elf.py), setpriv and flock;
# building also make, the cross gcc, picolibc, and the peers' source packages
# if they can be had (docs/peers.md: without one, that peer is left out); --via-uboot
# Debian's U-Boot for QEMU, mkimage, sfdisk, mkfs.vfat, mcopy and the cross objcopy;
# --check-alignment make and gcc (the plugin).
#
# Exit status:
#   0..122  the image's status (its EXIT: STATUS=n line): 0 every check
#           passed, 1 a check failed, 2 an unexpected trap, 3 an unusable
#           platform: its device tree, or too little memory
#   123     silence: no line from the image within --silence seconds of
#           OpenSBI's first output (or of QEMU's start, if QEMU printed
#           nothing): OpenSBI stopped, or the image prints nothing
#   124     timeout: no EXIT: line within --timeout seconds
#   125     the run ended without an EXIT: line, or with a malformed one (a
#           status above 122 is one), or with a status that QEMU's own exit
#           status contradicts (QEMU exited by itself through the finisher),
#           or a log that breaks the protocol (tools/wmlog.py check says where)
#   A run whose image said 0 ends with 1 unless its whole log passes
#   (tools/wmlog.py verdict, make report's judge too: docs/protocol.md):
#   exactly one run, its EXIT: line sealed and last, a PASS: line for every
#   group of its PLAN: line, no FAIL: or TRAP: line anywhere.
#   126     run-qemu.sh's own error: bad usage (each option's value is
#           checked before QEMU starts), a missing tool, the build failed
#           (an --impl that make refuses, docs/impl.md), an unreadable or
#           non-RISC-V-64 ELF, an unwritable log; or QEMU refused to start
#           (an argument after --): its own first line follows
#   130     interrupted by SIGINT, 143 by SIGTERM: QEMU and the rest of the run
#           were ended first (killed with SIGKILL, run-qemu.sh takes QEMU
#           along: QEMU runs under setpriv --pdeathsig KILL; the next run
#           removes its temporary folder)
set -u

self=$(readlink -f "$0")
top=$(dirname "$self")

usage() {
	awk 'NR > 3 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$self"
}

die() {
	echo "run-qemu.sh: error: $*" >&2
	exit 126
}

# Everything a run starts, ended by cleanup on any exit, SIGINT and SIGTERM.
qpid= tpid= spid= mpid= fpid= state=
stop_qemu() {
	local i
	kill -TERM "$qpid" 2>/dev/null || return 0
	for ((i = 0; i < 50; i++)); do
		kill -0 "$qpid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$qpid" 2>/dev/null
}
cleanup() {
	[ -z "$mpid" ] || kill "$mpid" 2>/dev/null
	[ -z "$fpid" ] || kill "$fpid" 2>/dev/null
	[ -z "$qpid" ] || stop_qemu
	[ -z "$tpid" ] || kill "$tpid" 2>/dev/null
	# The symbolizer ends at the end of its input (tail's); one still
	# waiting for tail to open the FIFO ends by this.
	[ -z "$spid" ] || { kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; }
	[ -z "$state" ] || rm -rf "$state"
	mpid= fpid= qpid= tpid= spid= state=
}
on_signal() { # INT or TERM
	trap '' INT TERM
	local named=${logged:+ (log: $logged)}
	echo "run-qemu.sh: interrupted by SIG$1: ending QEMU and the rest of the run$named" >&2
	cleanup
	trap - EXIT "$1"
	kill -s "$1" $$
	exit 126 # not reached: the signal ends the shell, its status 128+signal
}
log= logged=
trap cleanup EXIT
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM

O=${O:-build}
case "$O" in /*) odir=$O ;; *) odir=$top/$O ;; esac
cross=${CROSS_COMPILE:-riscv64-unknown-elf-}
machine=virt smp=1 memory=256M timeout_s=600 silence_s= icount=1 check_align=0
elf= built= log_given=0 build=1 bios=default mttcg=0 via_uboot=0 uboot= must_align=0
full_log=0
extra=() impls=() inputs=() args=("$@")
declare -A given # each option's last spelling, by name (--no-X is X's)
while [ $# -gt 0 ]; do
	# An option given again, or its opposite (--icount, --no-icount): the last counts,
	# as the caller is told, not silently.
	o=${1#--} o=${o#no-}
	case "$1" in
	--impl | -- | --help) ;;
	--*)
		case "${given[$o]:-}" in
		'') ;;
		"$1") echo "run-qemu.sh: note: $1 given again: the last one counts" >&2 ;;
		*) echo "run-qemu.sh: note: $1 after ${given[$o]}: the last one counts" >&2 ;;
		esac
		given[$o]=$1 ;;
	esac
	case "$1" in
	--machine) [ $# -ge 2 ] || die "--machine needs a value"; machine=$2; shift 2 ;;
	--smp) [ $# -ge 2 ] || die "--smp needs a value"; smp=$2; shift 2 ;;
	--memory) [ $# -ge 2 ] || die "--memory needs a value"; memory=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || die "--timeout needs a value"; timeout_s=$2; shift 2 ;;
	--silence) [ $# -ge 2 ] || die "--silence needs a value"; silence_s=$2; shift 2 ;;
	--icount) icount=1; shift ;;
	--no-icount) icount=0; shift ;;
	--check-alignment) check_align=1; shift ;;
	--impl) [ $# -ge 2 ] || die "--impl needs NAME=FILE"; impls+=("$2"); shift 2 ;;
	--impl-must-align) must_align=1 check_align=1; shift ;;
	--elf) [ $# -ge 2 ] || die "--elf needs a value"; elf=$2; build=0; shift 2 ;;
	--log) [ $# -ge 2 ] || die "--log needs a value"; log=$2; log_given=1; shift 2 ;;
	--no-build) build=0; shift ;;
	--full-log) full_log=1; shift ;;
	--bios) [ $# -ge 2 ] || die "--bios needs a value"; bios=$2; shift 2 ;;
	--mttcg) mttcg=1; shift ;;
	--via-uboot) via_uboot=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--)
		shift
		extra=("$@")
		# The log's name and the run's checks are taken from these two options.
		for o in "${extra[@]}"; do
			case "$o" in -smp | --smp | -M | --M | -machine | --machine)
				die "QEMU's $o after --: give run-qemu.sh's --smp or --machine" ;;
			esac
		done
		break ;;
	*) usage >&2; die "unknown option: $1" ;;
	esac
done

# make reads FILE from the repository top, and takes it into its rules and
# their shell commands: a character that make reads as its own syntax is
# refused, with what make would make of it (= : ; # % | * ? [ ] \ " ` ( );
# ' and , pass).
impl=
for i in "${impls[@]}"; do
	[ "$build" = 1 ] || die "--impl $i builds the image: not with --no-build or --elf"
	case "$i" in *=/* | *=) ;; *=*) i=${i%%=*}=$PWD/${i#*=} ;; esac
	f=${i#*=}
	c=${f//[!]=:;#%|*?[\\\"\`()]/}
	case "$i" in
	*[[:space:]]*) why="make splits it at its spaces" ;;
	*'$'*) why="make reads \$ as the start of a variable" ;;
	*) why=${c:+make reads \'${c:0:1}\' in a rule or its recipe as its own syntax} ;;
	esac
	[ -z "$why" ] || die "--impl '$i': $why; rename the file or give a symlink to it"
	impl="${impl:+$impl }$i"
	inputs+=("$f")
done
# The log is written, an input never is: not a user's file (--impl), the
# firmware (--bios), the ELF (below).  It is a regular file or a new one: opening
# a FIFO would block the run past --timeout, a device would be written to.  A file
# that holds anything is an earlier run's log, its LOG.run beside it: no other file
# (a script of the tree, a build's output) is written over.
[ "$bios" = default ] || [ "$bios" = none ] || inputs+=("$bios")
refuse_log() { # FILE
	local f
	for f in "${inputs[@]}"; do
		[ ! -e "$1" ] || [ ! "$1" -ef "$f" ] ||
			die "--log $1 is an input of the run ($f); give another name"
	done
	[ ! -e "$1" ] || [ -f "$1" ] || [ -d "$1" ] ||
		die "--log $1 is not a regular file; give a regular file's name or a new one"
	[ ! -f "$1" ] || [ ! -s "$1" ] || [ -f "$1.run" ] ||
		die "--log $1 holds what no run of run-qemu.sh wrote (no $1.run beside it);" \
			"give a new name or an earlier log"
}
[ "$log_given" = 0 ] || refuse_log "$log"

# number OPTION VALUE WHAT MIN MAX: plain decimal numbers only (QEMU refuses
# -smp 08, shell arithmetic would read a leading zero as octal), of at most 9
# digits (longer ones overflow the shell's tests).
number() {
	case "$2" in '' | *[!0-9]* | 0?*) die "$1 takes $3 (decimal, no leading zero), not '$2'" ;; esac
	[ "${#2}" -le 9 ] && [ "$2" -ge "$4" ] && [ "$2" -le "$5" ] || die "$1 must be $4..$5, not $2"
}
number --smp "$smp" "a number" 1 999999999
number --timeout "$timeout_s" seconds 1 999999999
case "$machine" in
virt) number --smp "$smp" "a number" 1 8 ;;
sifive_u) smp=5 ;; # one E51 monitor hart (no S-mode) + four U54s
*) die "unknown machine '$machine' (known: virt, sifive_u)" ;;
esac
# --memory: whole MiB or GiB (QEMU takes more forms, none of which a run
# needs), 16M..16G: below 16M QEMU may place the device tree over the image
# (it refuses -m 8M: "ROM regions are overlapping").
[[ $memory =~ ^([1-9][0-9]{0,8})([MG])$ ]] ||
	die "--memory takes whole MiB or GiB (256M, 2G; at most 9 digits), not '$memory'"
mib=${BASH_REMATCH[1]}
[ "${BASH_REMATCH[2]}" = M ] || mib=$((mib * 1024))
[ "$mib" -ge 16 ] && [ "$mib" -le 16384 ] || die "--memory must be 16M..16G, not $memory"
[ "$icount" = 0 ] || [ "$mttcg" = 0 ] ||
	die "--mttcg needs --no-icount: QEMU runs -icount on one thread only"
[ "$via_uboot" = 0 ] || [ "$machine" = virt ] ||
	die "--via-uboot boots QEMU virt only (Debian's u-boot-qemu has no sifive_u S-mode build)"
# The silence bound: QEMU virt's OpenSBI hands over to the image within
# 0.1 s, sifive_u's (five harts on one thread) within 0.2 s, U-Boot's distro
# boot takes 3 s more; the bounds leave room for a loaded host.
if [ -z "$silence_s" ]; then
	case "$machine" in virt) silence_s=20 ;; sifive_u) silence_s=30 ;; esac
	[ "$via_uboot" = 0 ] || silence_s=$((silence_s + 30))
fi
[ "$silence_s" = 0 ] || number --silence "$silence_s" "seconds (0: no bound)" 1 999999999

tools=(qemu-system-riscv64 python3 pyelftools setpriv flock)
[ "$bios" != default ] || tools+=(opensbi-firmware)
[ "$build" = 0 ] || tools+=(make "${cross}gcc" picolibc)
[ "$via_uboot" = 0 ] || tools+=(u-boot-qemu-smode mkimage sfdisk mkfs.vfat mcopy "${cross}objcopy")
[ "$check_align" = 0 ] || tools+=(make gcc)
"$top/tools/deps.sh" "${tools[@]}" || die "missing tools (see above)"
# The peers are references: without their packages the image leaves them out (SKIP: lines).
[ "$build" = 0 ] || "$top/tools/deps.sh" linux-source-6.1 glibc-source newlib-source ||
	echo "run-qemu.sh: note: going on without the peers whose source packages are missing" >&2
case "$bios" in default | none) ;; *) [ -r "$bios" ] || die "cannot read --bios $bios" ;; esac

# The run's temporary folder, with its shell's pid in it: a run killed by
# SIGKILL (which no trap sees) leaves its folder behind, and a later run
# removes each folder whose run is gone.
for d in "${TMPDIR:-/tmp}"/run-qemu.*/; do
	p=$(cat "$d/pid" 2>/dev/null) && [ ! -d "/proc/$p" ] && rm -rf "$d"
done
state=$(mktemp -d "${TMPDIR:-/tmp}/run-qemu.XXXXXX") || die "cannot make a temporary folder"
echo $$ >"$state/pid"

# make in $odir, one run at a time: a second run waits for the first's make
# (which leaves it nothing to do) instead of writing the same files at once.
# OWN (not -): the image made is copied there under the same lock, the run's
# own copy, which another run's build cannot relink while this one boots it.
locked_make() { # OWN ARGS...
	local rc own=$1
	shift
	mkdir -p "$odir" 2>/dev/null || die "cannot create the build folder $odir"
	exec 9>>"$odir/.build.lock" || die "cannot open the build lock $odir/.build.lock"
	if ! flock -n 9; then
		echo "run-qemu.sh: waiting for another build in $odir to end (flock $odir/.build.lock)" >&2
		flock 9 &
		fpid=$!
		wait "$fpid" || die "cannot lock $odir/.build.lock"
		fpid=
	fi
	make -C "$top" --no-print-directory O="$O" "$@" >&2 &
	mpid=$!
	wait "$mpid"
	rc=$?
	mpid=
	[ "$rc" != 0 ] || [ "$own" = - ] || cp "$odir/virt/wordmerge.elf" "$own" || rc=1
	exec 9>&-
	return "$rc"
}

# make splits its targets' names at white space (the image, the plugin).
case "$build$check_align:$odir" in 00:*) ;; *[[:space:]]*)
	die "cannot build in '$odir': make splits a path at its spaces;" \
		"use another O= or --no-build --elf FILE" ;;
esac
if [ "$build" = 1 ]; then
	# The link's -Wl,-Map=FILE would split FILE at a comma.
	case "$odir" in *,*)
		die "cannot build in $odir: the image's link splits a path at its commas;" \
			"use another O= or --no-build --elf FILE" ;;
	esac
	built=$odir/virt/wordmerge.elf
	elf=$state/wordmerge.elf
	locked_make "$elf" PLATFORM=virt IMPL="$impl" IMPL_MUST_ALIGN="$must_align" all ||
		die "build failed (make O=$O PLATFORM=virt${impl:+ IMPL=\"$impl\"} all)"
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
# Each run its own log: a run holds a lock on its default log's name (fd 8,
# which QEMU and the run's other processes keep open until they end), and a
# run that finds the name taken uses NAME-2.log, NAME-3.log, ...  A log given
# with --log is the caller's to keep apart.
if [ "$log_given" = 0 ]; then
	base=${log%.log} n=1
	while :; do
		exec 8>>"$log.lock" || die "cannot open the log's lock $log.lock"
		flock -n 8 && break
		n=$((n + 1))
		[ "$n" -le 100 ] || die "no free log name in $logdir (100 runs at once?)"
		log=$base-$n.log
	done
fi
{ [ "$log" -ef "$elf" ] || [ "$log" -ef "$built" ]; } && die "--log $log is the ELF being booted"
inputs+=("$elf" ${built:+"$built"})
refuse_log "$log"
{ : >"$log"; } 2>/dev/null || die "cannot write the log $log"
logged=$log # the log an interrupted run names: not before it is written
# The log's side files are its run's: those of an earlier run of the same
# name go (--check-alignment and --via-uboot make theirs anew below).
rm -rf "$log.misalign" "$log.uboot" "$log.run" 2>/dev/null
# Read back after the run: it must be a plain file that the truncation emptied.
[ -f "$log" ] && [ -z "$(head -c 1 "$log" 2>/dev/null)" ] ||
	die "--log $log is not a plain file that run-qemu.sh can write and read back"

# QEMU's option syntax (-drive, -plugin): a comma inside a value is written
# as two.
qopt() { printf '%s' "${1//,/,,}"; }

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
	qemu_args+=(-kernel "$uboot" -drive "file=$(qopt "$ubdir/disk.img"),format=raw,if=virtio")
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
	locked_make - plugin || die "plugin build failed (make O=$O plugin)"
	raw=$log.misalign
	[ -d "$raw" ] && die "the plugin's output $raw is a directory"
	{ : >"$raw"; } 2>/dev/null || die "cannot write the plugin's output $raw"
	qemu_args+=(-plugin "file=$(qopt "$odir/tools/plugin.so"),mode=misalign,out=$(qopt "$raw")")
fi
qemu_args+=("${extra[@]}")

# Machines with a "sifive,test0" finisher that the image uses: QEMU exits by
# itself right after the EXIT: line, with the image's status.
has_finisher=0
[ "$machine" = virt ] && has_finisher=1

# The image's first line (or, should it trap early, its trap report).
image_line='^(wordmerge test image:|BANNER:|TRAP:|EXIT:)'
# A complete (newline-ended) EXIT: line near the end of the log: the image
# prints nothing after it.
exit_line_done() {
	local chunk
	chunk=$(tail -c 65536 "$log" 2>/dev/null; echo .)
	chunk=${chunk%.}
	[[ $chunk == *$'\n' ]] || chunk=${chunk%$'\n'*}
	grep -aqE '^EXIT: STATUS=[0-9]+( lines=[0-9]+ crc=[0-9a-f]{8})?'$'\r''?$' <<<"$chunk"
}

mkfifo "$state/uart" "$state/tick" || die "cannot make a FIFO in $state"
echo "run-qemu.sh: qemu-system-riscv64 ${qemu_args[*]}" >&2
# How the log was made, beside it as LOG.run (make bench's logs too; make
# report shows it): the command line, QEMU's version and when, the image.
{ printf '%q ' "$0" "${args[@]}"; echo
  TZ=UTC printf '(%s, %(%Y-%m-%d %H:%M)T UTC, host %s)\n' \
	"$(qemu-system-riscv64 --version | head -n 1)" -1 "$(uname -m)"
  echo "image: $(readlink -f -- "${built:-$elf}")"; } >"$log.run" 2>/dev/null
setpriv --pdeathsig KILL qemu-system-riscv64 "${qemu_args[@]}" </dev/null >"$log" 2>&1 &
qpid=$!
# The terminal: the log without the benchmark block's data (its CSV: records
# and the PMU: lines within it), which the tables after the run show; a line
# says so.  --full-log: all of it, as the log has it.
terminal() {
	[ "$full_log" = 0 ] || exec cat
	exec awk '/^\r*CSV:begin,/ { inb = 1 } /^\r*CSV:/ { n++; inb = !/^\r*CSV:end,/; next }
		inb && /^\r*PMU: / { p++; next } { print; fflush() }
		END { if (n) printf "run-qemu.sh: %d CSV: data lines and %d PMU: lines of the " \
			"benchmark are in the log only; its tables follow (--full-log prints them all)\n", n, p }'
}
# The log stays what the UART said, as a board's serial capture would; the
# terminal gets it with the trap report's addresses named from the ELF
# (tools/elf.py symbolize: "sepc=0x... <sym+0x...>").  Should the
# symbolizer fail, cat passes the rest through raw; the status below is
# read from the log either way.  tail ends once QEMU has (--pid), or with
# this shell (--pdeathsig); the symbolizer at the end of tail's output.
# SIGINT is ignored there (Python then leaves it so): a Ctrl-C ends the run through
# on_signal, not the symbolizer with a traceback.
{ trap '' INT; { /usr/bin/python3 "$top/tools/elf.py" symbolize "$elf" || cat; } | terminal; } \
	<"$state/uart" &
spid=$!
setpriv --pdeathsig KILL tail -n +1 -s 0.2 -f --pid="$qpid" "$log" >"$state/uart" 2>/dev/null &
tpid=$!

# The watch below costs next to nothing beside a run of minutes: its 0.2 s
# wait is a read from a FIFO that nobody writes (no sleep process), and it
# reads the log only when the log is no older than its last look (file times
# are coarse: a write in the tick of a look is looked at again).  With a
# finisher, QEMU ends the run itself: the EXIT: line is looked for once a
# second, to stop a QEMU that does not.
exec {tick}<>"$state/tick"
start=$SECONDS out_at= image_seen=0 exit_seen=0 after_exit=0 ended= ticks=0 exit_due= image_due=
while :; do
	if ! kill -0 "$qpid" 2>/dev/null; then
		ended=exited
		break
	fi
	ticks=$((ticks + 1))
	# The log changed since the last look: both looks are due.
	[ "$state/looked" -nt "$log" ] || { : >"$state/looked"; exit_due=1 image_due=1; }
	if [ "$exit_seen$exit_due" = 01 ] && { [ "$has_finisher" = 0 ] || [ $((ticks % 5)) = 0 ]; }; then
		exit_due=0
		! exit_line_done || exit_seen=1
	fi
	if [ "$exit_seen" = 1 ]; then
		# With a finisher QEMU exits by itself: give it 2 s to, so that
		# its status can be checked; without one, stop QEMU now.
		after_exit=$((after_exit + 1))
		if [ "$has_finisher" = 0 ] || [ "$after_exit" -gt 10 ]; then
			ended=stopped
			break
		fi
	elif [ $((SECONDS - start)) -gt "$timeout_s" ]; then
		ended=timeout
		break
	elif [ "$image_seen" = 0 ]; then
		[ -n "$out_at" ] || { [ -s "$log" ] && out_at=$SECONDS; }
		if [ "$image_due" = 1 ]; then
			image_due=0
			! grep -aqE "$image_line" "$log" || image_seen=1
		fi
		if [ "$image_seen" = 0 ] && [ "$silence_s" != 0 ] &&
			[ $((SECONDS - ${out_at:-$start})) -gt "$silence_s" ]; then
			ended=silence
			break
		fi
	fi
	read -rt 0.2 -u "$tick" _
done
exec {tick}<&-
[ "$ended" = exited ] || stop_qemu
wait "$qpid"
qemu_rc=$?
qpid=
# tail ends within 0.2 s of QEMU; the symbolizer then prints the rest.
wait "$tpid" 2>/dev/null
tpid=
wait "$spid" 2>/dev/null
spid=
[ "$ended" = stopped ] &&
	echo "run-qemu.sh: QEMU stopped after the image's EXIT: line (no finisher ended it)" >&2
# QEMU that failed before OpenSBI printed a line refused its arguments (after
# --, or --bios): its own first line says why.
[ "$ended:$image_seen" != exited:0 ] || [ "$qemu_rc" = 0 ] || grep -aq '^OpenSBI' "$log" ||
	die "QEMU refused to start (status $qemu_rc): $(grep -am 1 . "$log") (log: $log)"

if [ "$ended" = timeout ]; then
	echo "run-qemu.sh: error: timeout after ${timeout_s}s without an EXIT: line (log: $log)" >&2
	exit 124
fi
if [ "$ended" = silence ]; then
	if [ -z "$out_at" ]; then
		echo "run-qemu.sh: error: silence: QEMU printed nothing at all within ${silence_s}s" \
			"of its start (--silence; log: $log)" >&2
	else
		echo "run-qemu.sh: error: silence: no line from the image within ${silence_s}s" \
			"of OpenSBI's first output: OpenSBI${uboot:+ or U-Boot} stopped," \
			"or the image prints nothing (--silence; log: $log)" >&2
	fi
	exit 123
fi
line=$(tr -d '\r' <"$log" | grep -a '^EXIT: STATUS=' | tail -n 1)
if [ -z "$line" ]; then
	echo "run-qemu.sh: error: QEMU ended (status $qemu_rc) without an EXIT: line:" \
		"truncated run? (log: $log)" >&2
	exit 125
fi
status=${line#EXIT: STATUS=}
status=${status% lines=* crc=*}
case "$status" in '' | *[!0-9]* | 0?*)
	echo "run-qemu.sh: error: malformed line '$line' (log: $log)" >&2
	exit 125 ;;
esac
if [ "${#status}" -gt 3 ] || [ "$status" -gt 122 ]; then
	echo "run-qemu.sh: error: the image's status $status is not 0..122," \
		"whose meaning is the image's (log: $log)" >&2
	exit 125
fi
if [ "$has_finisher" = 1 ] && [ "$ended" = exited ] && [ "$qemu_rc" != "$status" ]; then
	echo "run-qemu.sh: error: the image said STATUS=$status but QEMU exited $qemu_rc (log: $log)" >&2
	exit 125
fi

# --impl-must-align: the user's functions, every one renamed user_NAME_*
# (firmware/impls.mk), fail as ours do.
user_fail=()
[ "$must_align" = 0 ] || user_fail=(--fail-in 'user_*')
if [ "$check_align" = 1 ]; then
	/usr/bin/python3 "$top/tools/report.py" misalign "$raw" "$elf" --log "$log" \
		--require misalign_control --fail-in 'memcpy,memmove,memset,wm_*' "${user_fail[@]}" ||
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
# What the image says of itself is evidence: a run passes when its whole log
# does, as tools/wmlog.py judges it (make report's judge too): one run, its
# EXIT: line sealed, a PASS: line for every group of its PLAN: line, no FAIL: or
# TRAP: line anywhere, nothing after EXIT: (a user's function that prints an
# EXIT: line of its own and ends QEMU through the finisher, say).
if [ "$status" = 0 ]; then
	/usr/bin/python3 "$top/tools/wmlog.py" verdict "$log" >&2
	case $? in 0) ;; 1) status=1 ;; *) status=125 ;; esac
fi
echo "run-qemu.sh: image status $status (log: $log)" >&2
exit "$status"
